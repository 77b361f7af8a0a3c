package conversion

import (
	"context"
	"math/rand/v2"
	"slices"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/random"
)

// Rules are the names of the findings.
const (
	RuleLostField       = "conversion-lost-field"
	RuleDefaultMismatch = "conversion-default-mismatch"
	RuleFailed          = "conversion-failed"
)

// Loss is a value that a round trip through another version loses or
// changes.
type Loss struct {
	// Version is the version the object is at and comes back to, Via the
	// version it goes through.
	Version, Via string
	// Diff is where, at Version: Before is the value sent, After what came
	// back (absent when it is lost).
	Diff
	// Witness is the whole object sent (valid and defaulted at Version)
	// whose round trip showed the loss.
	Witness map[string]any
}

// GoEncoding is an object of a version as a Go client of that version
// writes it once it has decoded it (model.Model.GoEncoding of the
// version's root type): the identity where the Go types are unknown.
type GoEncoding func(version string, obj map[string]any) map[string]any

// roundTrip is the rule conversion-lost-field. Every object of a spoke is
// converted to the hub and back (spoke → hub → spoke), every object of the
// hub to each spoke and back (hub → spoke → hub), each conversion as the
// apiserver makes it (convert: the webhook, then the target version's
// pruning); a value the object does not get back, or gets back changed, is
// a Loss. This is what a stored object goes through when a client reads it
// at one version and writes it back (customresource_handler.go: a
// request's object is converted to the storage version, a stored one to
// the request's version). Objects are not defaulted again on the way: what
// the storage version's defaults add on read is Defaults' business.
//
// Both sides are compared as a Go client of the version writes them
// (enc): encoding/json cannot tell a zero value with omitempty from its
// absence, so that is no loss. In metadata only labels and annotations
// are compared (the apiserver restores the rest, restoreObjectMeta), and
// annotations that come back where there were none are allowed: that is
// where conversions keep what a version cannot hold (cluster-api's
// conversion data annotation).
//
// objs are objects of each version, valid and defaulted (Version.Valid).
// Losses are one per version, direction and field (Path.Field), with the
// example whose sent value is the shortest, but not a zero value when a
// non-zero one is lost too (nonZeroWitness). The counts are, per version
// the objects started at, the round trips that came back (neither
// conversion refused).
func roundTrip(ctx context.Context, c Converter, k *Kind, objs map[string][]map[string]any, enc GoEncoding) ([]Loss, []Failure, map[string]int, error) {
	trips := map[string]int{}
	if enc == nil {
		enc = func(_ string, obj map[string]any) map[string]any { return obj }
	}
	hub := k.Versions[k.Hub]
	var losses []Loss
	var fails []Failure
	trip := func(at, via *Version) error {
		sent := objs[at.Name]
		there, f1, err := convert(ctx, c, sent, at, via)
		if err != nil {
			return err
		}
		fails = append(fails, f1...)
		var ok, mid []map[string]any
		for i, o := range there {
			if o != nil {
				ok, mid = append(ok, sent[i]), append(mid, o)
			}
		}
		// an object refused for one value goes round trip without it, if
		// it is still valid at its version
		var retry []map[string]any
		for _, f := range f1 {
			if f.Reduced == nil {
				continue
			}
			if obj, _, _, valid := at.Valid(ctx, f.Reduced); valid {
				retry = append(retry, obj)
			}
		}
		again, _, err := convert(ctx, c, retry, at, via)
		if err != nil {
			return err
		}
		for i, o := range again {
			if o != nil {
				ok, mid = append(ok, retry[i]), append(mid, o)
			}
		}
		back, f2, err := convert(ctx, c, mid, via, at)
		if err != nil {
			return err
		}
		fails = append(fails, f2...)
		for i, b := range back {
			if b == nil {
				continue
			}
			trips[at.Name]++
			var ds []Diff
			compare(compared(enc(at.Name, ok[i])), compared(enc(at.Name, b)), at.schema, nil, &ds)
			for _, d := range ds {
				if addedAnnotation(d) {
					continue
				}
				losses = append(losses, Loss{Version: at.Name, Via: via.Name, Diff: d, Witness: ok[i]})
			}
		}
		return nil
	}
	for _, s := range k.Spokes {
		spoke := k.Versions[s]
		if err := trip(spoke, hub); err != nil {
			return nil, nil, nil, err
		}
		if err := trip(hub, spoke); err != nil {
			return nil, nil, nil, err
		}
	}
	losses = shrinkLosses(losses)
	for i, l := range losses {
		better, f, err := nonZeroWitness(ctx, c, k, l, enc)
		if err != nil {
			return nil, nil, nil, err
		}
		losses[i] = better
		fails = append(fails, f...)
	}
	return losses, fails, trips, nil
}

// compared is obj without the metadata the apiserver restores after a
// conversion: only labels and annotations stay.
func compared(obj map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	meta, _ := out["metadata"].(map[string]any)
	kept := map[string]any{}
	for _, k := range []string{"labels", "annotations"} {
		if v, ok := meta[k]; ok {
			kept[k] = v
		}
	}
	out["metadata"] = kept
	return out
}

// addedAnnotation is an annotation, or the annotations, that came back
// where there were none.
func addedAnnotation(d Diff) bool {
	if len(d.Path) < 2 || d.Path[0].Name != "metadata" || d.Path[1].Name != "annotations" {
		return false
	}
	if d.Before == absent {
		return true
	}
	if len(d.Path) == 2 { // the whole map differs: allowed if only added keys
		before, _ := d.Before.(map[string]any)
		after, _ := d.After.(map[string]any)
		for k, v := range before {
			if a, ok := after[k]; !ok || !sameValue(a, v) {
				return false
			}
		}
		return after != nil
	}
	return false
}

// shrinkLosses keeps one Loss per version, direction and field: the one
// whose sent value is the shortest (the smallest example), the first of
// those in order.
func shrinkLosses(ls []Loss) []Loss {
	type key struct{ v, via, field string }
	best := map[key]int{}
	var order []key
	for i, l := range ls {
		k := key{l.Version, l.Via, l.Path.Field()}
		j, ok := best[k]
		if !ok {
			best[k] = i
			order = append(order, k)
			continue
		}
		if len(Show(l.Before)) < len(Show(ls[j].Before)) {
			best[k] = i
		}
	}
	out := make([]Loss, 0, len(order))
	for _, k := range order {
		out = append(out, ls[best[k]])
	}
	return out
}

// Mismatch is a field whose default at one version disagrees with the
// default of its counterpart at another: an object created without it
// reads back differently depending on the version it was created at.
type Mismatch struct {
	// At is the version whose default is checked, Other the other one.
	At, Other string
	// Path is the field at At, OtherPath its counterpart at Other,
	// StoredPath at the storage version.
	Path, OtherPath, StoredPath Path
	// AtDefault and OtherDefault are what each version's defaulting gives
	// the field on create (absent for none).
	AtDefault, OtherDefault any
	// AtStored and OtherStored are the field at the storage version, as
	// the object is read back after a create at At and at Other.
	AtStored, OtherStored any
	// Witness is the object of At created without the field.
	Witness map[string]any
}

// Defaults is the rule conversion-default-mismatch. The apiserver
// defaults an object in the version a request sends it at, converts it to
// the storage version and stores it, and defaults what it reads back from
// storage at the storage version before converting it to the version a
// client asks for; an object is never defaulted again after a conversion
// (customresource_handler.go: the request decoder's unstructuredDefaulter,
// the storage codec's schemaCoercingDecoder and schemaCoercingConverter).
// So a field that two versions default differently is stored differently
// depending on the version a client creates the object at.
//
// For each version A and each scalar field with a default in A's schema
// (outside lists and maps), and each other version W:
//
//  1. the field's counterpart at W is where its value lands: an object of
//     A with the field set to one value and to another is converted to W,
//     and the one field that differs is the counterpart (none, or several:
//     the field is skipped, roundTrip reports a field that is lost);
//  2. an object without the field (its smallest valid object, the field's
//     parents present) is created at A, and the same object, converted to
//     W and without the counterpart, is created at W; each is converted to
//     the storage version, pruned, defaulted as read from storage, and the
//     field's counterpart there compared. When they differ, the defaults
//     disagree.
func Defaults(ctx context.Context, c Converter, k *Kind, r *rand.Rand) ([]Mismatch, []Failure, error) {
	var out []Mismatch
	var fails []Failure
	storage := k.Versions[k.Storage]
	for _, an := range k.Names() {
		a := k.Versions[an]
		for _, p := range defaultedPaths(a.schema, nil) {
			base, ok := baseObject(ctx, a, p, r)
			if !ok {
				continue
			}
			counterparts := map[string]Path{an: p}
			for _, wn := range k.Names() {
				if wn == an {
					continue
				}
				q, f, err := counterpart(ctx, c, a, k.Versions[wn], base, p, r)
				if err != nil {
					return nil, nil, err
				}
				fails = append(fails, f...)
				if q != nil {
					counterparts[wn] = q
				}
			}
			sp, ok := counterparts[k.Storage]
			if !ok {
				continue
			}
			createdA, stA, f, err := createAndRead(ctx, c, a, storage, base)
			if err != nil {
				return nil, nil, err
			}
			fails = append(fails, f...)
			if stA == nil {
				continue
			}
			for _, wn := range k.Names() {
				q, ok := counterparts[wn]
				if wn == an || !ok {
					continue
				}
				w := k.Versions[wn]
				// the same object as a client of W sends it: without the
				// field, and without what A's defaulting added
				rawW, f, err := convert(ctx, c, []map[string]any{base}, a, w)
				if err != nil {
					return nil, nil, err
				}
				fails = append(fails, f...)
				if rawW[0] == nil {
					continue
				}
				del(rawW[0], q)
				createdW, stW, f, err := createAndRead(ctx, c, w, storage, rawW[0])
				if err != nil {
					return nil, nil, err
				}
				fails = append(fails, f...)
				if stW == nil {
					continue
				}
				va, vw := get(stA, sp), get(stW, sp)
				if sameValue(va, vw) {
					continue
				}
				out = append(out, Mismatch{At: an, Other: wn, Path: p, OtherPath: q, StoredPath: sp,
					AtDefault: get(createdA, p), OtherDefault: get(createdW, q), AtStored: va, OtherStored: vw, Witness: base})
			}
		}
	}
	return out, fails, nil
}

// defaultedPaths are the property paths of s to scalars (not objects, not
// lists) that have a default, outside lists, maps and metadata, in order.
// An object's default ({} in the main) matters through the defaults of
// its fields, which are listed; a list's is not compared.
func defaultedPaths(s *structuralschema.Structural, at Path) []Path {
	var out []Path
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if len(at) == 0 && (n == "metadata" || n == "apiVersion" || n == "kind") {
			continue
		}
		sub := s.Properties[n]
		p := append(slices.Clone(at), Seg{Name: n})
		if sub.Default.Object != nil && sub.Type != "object" && sub.Type != "array" {
			out = append(out, p)
		}
		out = append(out, defaultedPaths(&sub, p)...)
	}
	return out
}

// baseObject is the smallest valid object of v without the field at p:
// its required fields random, the field's parents present.
func baseObject(ctx context.Context, v *Version, p Path, r *rand.Rand) (map[string]any, bool) {
	f := &random.Filler{Rand: r, OnlyRequired: true}
	raw := f.Object(v.schema, v.APIVersion, v.Kind, v.Namespaced, 0)
	for i := 1; i < len(p); i++ {
		if _, ok := get(raw, p[:i]).(map[string]any); !ok {
			set(raw, p[:i], map[string]any{})
		}
	}
	del(raw, p)
	_, sent, _, ok := v.Valid(ctx, raw)
	if !ok {
		return nil, false
	}
	// Valid may have dropped a parent random.Filler could not fill validly
	for i := 1; i < len(p); i++ {
		if _, ok := get(sent, p[:i]).(map[string]any); !ok {
			return nil, false
		}
	}
	return sent, true
}

// counterpart is the field of w where the value of the field p of a lands
// (Defaults, step 1), or nil.
func counterpart(ctx context.Context, c Converter, a, w *Version, base map[string]any, p Path, r *rand.Rand) (Path, []Failure, error) {
	s := schemaAt(a.schema, p)
	if s == nil {
		return nil, nil, nil
	}
	f := &random.Filler{Rand: r}
	var objs []map[string]any
	first := absent
	for range 20 {
		var v any
		if first == absent && s.Default.Object != nil {
			v = runtime.DeepCopyJSONValue(s.Default.Object)
		} else {
			v = f.Value(s, len(p))
		}
		if first != absent && sameValue(first, v) {
			continue
		}
		o := runtime.DeepCopyJSON(base)
		set(o, p, v)
		created, errs := a.Create(ctx, o)
		if len(errs) > 0 || !sameValue(get(created, p), v) {
			continue
		}
		objs = append(objs, created)
		if first != absent {
			break
		}
		first = v
	}
	if len(objs) < 2 {
		return nil, nil, nil
	}
	conv, fails, err := convert(ctx, c, objs, a, w)
	if err != nil || conv[0] == nil || conv[1] == nil {
		return nil, fails, err
	}
	var ds []Diff
	delete(conv[0], "metadata")
	delete(conv[1], "metadata")
	compare(conv[0], conv[1], w.schema, nil, &ds)
	if len(ds) != 1 {
		return nil, fails, nil
	}
	for _, seg := range ds[0].Path {
		if seg.Item || seg.Key {
			return nil, fails, nil
		}
	}
	for _, v := range []any{ds[0].Before, ds[0].After} {
		switch v.(type) {
		case map[string]any, []any:
			return nil, fails, nil // a scalar lands in a scalar
		}
	}
	return ds[0].Path, fails, nil
}

// createAndRead creates obj at v (Create, which defaults it) and reads it
// back at the storage version: converted to it, pruned with its schema,
// and defaulted as the storage codec defaults what it reads. Both are nil
// when v refuses obj or the conversion fails.
func createAndRead(ctx context.Context, c Converter, v, storage *Version, obj map[string]any) (created, read map[string]any, fails []Failure, err error) {
	created, errs := v.Create(ctx, obj)
	if len(errs) > 0 {
		return nil, nil, nil, nil
	}
	stored, fails, err := convert(ctx, c, []map[string]any{created}, v, storage)
	if err != nil || stored[0] == nil {
		return nil, nil, fails, err
	}
	return created, storage.Default(stored[0]), fails, nil
}
