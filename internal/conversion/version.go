package conversion

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/random"
)

// Kind is a kind whose versions convert through a hub, with the CRD that
// serves it.
type Kind struct {
	Group, Kind string
	// Hub is the version that implements conversion.Hub; Spokes implement
	// conversion.Convertible.
	Hub    string
	Spokes []string
	// Storage is the CRD's storage version: the hub in kubebuilder's
	// layout, but any of the others may be.
	Storage string
	// Versions are the CRD's served versions, by name.
	Versions map[string]*Version
}

// Names are the hub and the spokes, the hub first, then the spokes in
// order.
func (k *Kind) Names() []string {
	out := []string{k.Hub}
	out = append(out, k.Spokes...)
	return out
}

// Version is one served version of a kind, as the apiserver serves it.
type Version struct {
	Name       string
	APIVersion string
	Kind       string
	Namespaced bool
	// pipe is the request decoder of the version (package pipeline).
	pipe *objectpath.Pipeline
	// validate is the registry strategy's Validate.
	validate rest.RESTCreateStrategy
	// schema is the version's structural schema as the apiserver prunes
	// and defaults with it (objectpath.StorageSchema).
	schema *structuralschema.Structural
}

// NewKind builds the versions of crd that kind k uses. Every version of
// hub and spokes must be served.
func NewKind(crd *apiextensionsv1.CustomResourceDefinition, hub string, spokes []string) (*Kind, error) {
	k := &Kind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind, Hub: hub, Spokes: slices.Clone(spokes), Versions: map[string]*Version{}}
	slices.Sort(k.Spokes)
	internal, err := crdcheck.ToInternal(crd)
	if err != nil {
		return nil, err
	}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			k.Storage = v.Name
		}
	}
	if !slices.Contains(k.Names(), k.Storage) {
		return nil, fmt.Errorf("%s: the storage version %s is neither the hub (%s) nor a spoke of %s", crd.Name, k.Storage, hub, k.Kind)
	}
	for _, name := range k.Names() {
		p, err := objectpath.New(crd, name)
		if err != nil {
			return nil, err
		}
		main, _ := p.Strategies()
		validate, ok := main.(rest.RESTCreateStrategy)
		if !ok {
			return nil, fmt.Errorf("%s: the registry strategy of %s has no Validate", crd.Name, name)
		}
		s, err := objectpath.StorageSchema(internal, name)
		if err != nil {
			return nil, fmt.Errorf("%s version %s: %w", crd.Name, name, err)
		}
		k.Versions[name] = &Version{Name: name, APIVersion: crd.Spec.Group + "/" + name, Kind: k.Kind,
			Namespaced: p.Namespaced(), pipe: p, validate: validate, schema: s}
	}
	return k, nil
}

// Random is a random object of this version, as Objects starts from
// (random.Object): the version's apiVersion and kind, metadata.name
// obj-<i> (and namespace default when namespaced), required properties
// always and others with probability one half, at every level. It is not
// validated; Valid makes it valid.
func (v *Version) Random(r *rand.Rand, i int) map[string]any {
	return random.Object(r, v.schema, v.APIVersion, v.Kind, v.Namespaced, i)
}

// Objects are up to n random objects of each version of k, valid at their
// version and defaulted as the apiserver defaults them on create
// (Version.Valid), and for each version with none the errors of its last
// attempt.
func Objects(ctx context.Context, k *Kind, n int, r *rand.Rand) (map[string][]map[string]any, map[string]field.ErrorList) {
	out := map[string][]map[string]any{}
	refused := map[string]field.ErrorList{}
	for _, name := range k.Names() {
		v := k.Versions[name]
		for i := range n {
			obj, _, errs, ok := v.Valid(ctx, v.Random(r, i))
			if ok {
				out[name] = append(out[name], obj)
			} else {
				refused[name] = errs
			}
		}
		if len(out[name]) > 0 {
			delete(refused, name)
		}
	}
	return out, refused
}

// Create is obj as the apiserver holds it after decoding a create request
// at this version, and whether it would accept it: pruned, nulls removed,
// metadata coerced and defaulted (the request decoder, objectpath.Decode),
// then validated by the registry strategy (customResourceStrategy.Validate:
// OpenAPI schema, metadata, list sets and maps, CEL). Status is kept: the
// conversions of status matter as much as those of spec.
func (v *Version) Create(ctx context.Context, obj map[string]any) (map[string]any, field.ErrorList) {
	res := v.pipe.Decode(obj)
	if len(res.Errors) > 0 {
		return res.Object, res.Errors
	}
	return res.Object, v.validate.Validate(ctx, &unstructured.Unstructured{Object: res.Object})
}

// Coerce is what the apiserver does to an object it has converted to this
// version, on a copy (customresource_handler.go, schemaCoercingConverter
// and unstructuredSchemaCoercer.apply): pruned with the version's schema,
// then nulls that are neither nullable nor defaulted dropped.
func (v *Version) Coerce(obj map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	structuralpruning.Prune(out, v.schema, true)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(out, v.schema)
	return out
}

// Default is the defaulting of the decoder at this version
// (unstructuredDefaulter: structuraldefaulting.Default), on a copy: what
// the apiserver does to a request's object and, at the storage version,
// to an object read from etcd.
func (v *Version) Default(obj map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	structuraldefaulting.Default(out, v.schema)
	return out
}

// Valid is a random object made valid at this version: created (Create),
// and, while the strategy refuses it, without the fields its errors name
// (a pattern or a CEL rule random.Filler cannot satisfy). obj is the object
// created, sent the one sent (raw without those fields); ok is false when
// no object remains valid, and errs says why.
func (v *Version) Valid(ctx context.Context, raw map[string]any) (obj, sent map[string]any, errs field.ErrorList, ok bool) {
	raw = runtime.DeepCopyJSON(raw)
	for range 6 {
		obj, errs = v.Create(ctx, raw)
		if len(errs) == 0 {
			return obj, raw, nil, true
		}
		if !dropRefused(raw, errs) {
			return obj, raw, errs, false
		}
	}
	return obj, raw, errs, false
}

// dropRefused deletes from raw the fields that errs name (the parent of a
// missing required field, the list of a missing item's field), and says
// whether it deleted any. An error whose field went with an earlier
// error's deletion deletes nothing more, so that the outcome does not
// depend on the errors' order, which follows map order in the validator.
func dropRefused(raw map[string]any, errs field.ErrorList) bool {
	changed := false
	for _, e := range errs {
		segs := parseFieldPath(e.Field)
		for len(segs) > 1 && !slices.Contains([]string{"apiVersion", "kind", "metadata"}, segs[0]) {
			if deletePath(raw, segs) {
				changed = true
				break
			}
			if !present(raw, segs[:len(segs)-1]) {
				break // an earlier error dropped what holds it
			}
			segs = segs[:len(segs)-1] // a required child: drop its parent
		}
	}
	return changed
}

// parseFieldPath splits a field.Path's string ("spec.items[0].name",
// "spec.map[key]") into property names, indexes and keys.
func parseFieldPath(p string) []string {
	var out []string
	for _, part := range strings.Split(p, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				out = append(out, part[i:])
				break
			}
			out = append(out, part[i:i+j+1])
			part = part[i+j+1:]
		}
	}
	return out
}

// present says whether obj has a value at segs.
func present(obj any, segs []string) bool {
	cur := obj
	for _, s := range segs {
		switch c := cur.(type) {
		case map[string]any:
			key := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
			if _, ok := c[s]; ok {
				key = s
			}
			v, ok := c[key]
			if !ok {
				return false
			}
			cur = v
		case []any:
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
			if err != nil || n < 0 || n >= len(c) {
				return false
			}
			cur = c[n]
		default:
			return false
		}
	}
	return true
}

// deletePath deletes the value at segs from obj; it says whether there was
// one.
func deletePath(obj any, segs []string) bool {
	cur := obj
	for i, s := range segs {
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			key := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
			if _, ok := c[s]; ok {
				key = s
			}
			v, ok := c[key]
			if !ok {
				return false
			}
			if last {
				delete(c, key)
				return true
			}
			cur = v
		case []any:
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
			if err != nil || n < 0 || n >= len(c) {
				return false
			}
			if last {
				return false // the list keeps its length; its parent goes
			}
			cur = c[n]
		default:
			return false
		}
	}
	return false
}
