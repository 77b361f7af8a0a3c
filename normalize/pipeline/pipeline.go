package pipeline

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/normalize"
)

// Pipeline is the apiserver's decode and create path for one served
// version of a CRD. It is built once, as the apiserver builds a version's
// storage (customresource_handler.go, getOrCreateServingInfoFor), and
// reused for every object.
type Pipeline struct {
	gvk        schema.GroupVersionKind
	namespaced bool
	// preserveUnknownFields is the CRD's legacy spec.preserveUnknownFields,
	// which turns pruning off (unstructuredSchemaCoercer.apply). The
	// apiserver refuses it on create of a v1 CRD; it is honoured for CRDs
	// carried over from v1beta1.
	preserveUnknownFields bool
	structural            *structuralschema.Structural
	strategy              strategy
	// statusStrategy is the status subresource's (nil without it).
	statusStrategy rest.RESTUpdateStrategy
}

// strategy is the registry's customResourceStrategy: what create and update
// call.
type strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// Result is one object as the apiserver would store it on create.
type Result struct {
	// Object is the object after pruning, null removal, metadata coercion,
	// defaulting and PrepareForCreate.
	Object map[string]any
	// Pruned lists the unknown fields that were dropped, as the apiserver's
	// warnings name them (`unknown field "spec.x"`).
	Pruned []string
	// Errors are the validation errors of the create request.
	Errors field.ErrorList
	// Undecodable says that the apiserver refuses to decode the object (400
	// Bad Request): Errors holds why, and nothing after decoding ran.
	Undecodable bool
}

// New builds the pipeline of one served version. The CRD must be
// valid (see normalize.ValidateCRD).
func New(crd *apiextensionsv1.CustomResourceDefinition, version string) (*Pipeline, error) {
	internal, err := normalize.ToInternal(crd)
	if err != nil {
		return nil, err
	}
	var ver *apiextensions.CustomResourceDefinitionVersion
	for i := range internal.Spec.Versions {
		if v := &internal.Spec.Versions[i]; v.Name == version && v.Served {
			ver = v
		}
	}
	if ver == nil {
		return nil, fmt.Errorf("%s does not serve version %q", crd.Name, version)
	}
	validationSchema, subresources := internal.Spec.Validation, internal.Spec.Subresources
	if ver.Schema != nil {
		validationSchema = ver.Schema
	}
	if ver.Subresources != nil {
		subresources = ver.Subresources
	}
	if validationSchema == nil || validationSchema.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("%s version %s has no schema", crd.Name, version)
	}

	// customresource_handler.go: NewStructural, then, unless the legacy
	// spec.preserveUnknownFields, PruneDefaults once per version on a deep
	// copy (the structural schema shares its default values with the
	// JSONSchemaProps the validator is built from).
	s, err := structuralschema.NewStructural(validationSchema.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("%s version %s: %w", crd.Name, version, err)
	}
	if !crd.Spec.PreserveUnknownFields {
		s = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return nil, fmt.Errorf("%s version %s: %w", crd.Name, version, err)
		}
	}

	validator, _, err := apiservervalidation.NewSchemaValidator(validationSchema.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	var status *apiextensions.CustomResourceSubresourceStatus
	var scale *apiextensions.CustomResourceSubresourceScale
	if subresources != nil {
		status, scale = subresources.Status, subresources.Scale
	}
	statusValidator, err := newStatusValidator(validationSchema.OpenAPIV3Schema, status)
	if err != nil {
		return nil, err
	}
	gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	var selectable []apiextensionsv1.SelectableField
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			selectable = v.SelectableFields
		}
	}
	main := customresource.NewStrategy(unstructuredscheme.NewUnstructuredObjectTyper(), namespaced, gvk,
		validator, statusValidator, s, status, scale, selectable)
	p := &Pipeline{gvk: gvk, namespaced: namespaced, preserveUnknownFields: crd.Spec.PreserveUnknownFields,
		structural: s, strategy: main}
	if status != nil {
		p.statusStrategy = customresource.NewStatusStrategy(main)
	}
	return p, nil
}

// newStatusValidator is the validator of the status subresource, as the
// handler builds it (getOrCreateServingInfoFor): the schema of the status
// property alone; nil without the subresource or a status property.
func newStatusValidator(root *apiextensions.JSONSchemaProps, status *apiextensions.CustomResourceSubresourceStatus) (apiservervalidation.SchemaValidator, error) {
	if status == nil || root == nil || root.Properties == nil {
		return nil, nil
	}
	statusSchema, ok := root.Properties["status"]
	if !ok {
		return nil, nil
	}
	v, _, err := apiservervalidation.NewSchemaValidator(&statusSchema)
	return v, err
}

// Namespaced says whether the kind is namespaced.
func (p *Pipeline) Namespaced() bool { return p.namespaced }

// Strategies are the registry strategies of this version, built as the
// handler builds them: the resource's (customresource.NewStrategy) and,
// with the status subresource, the status subresource's
// (customresource.NewStatusStrategy; nil without it). Package
// normalize/impact calls their PrepareForUpdate and ValidateUpdate.
func (p *Pipeline) Strategies() (main, status rest.RESTUpdateStrategy) {
	return p.strategy, p.statusStrategy
}

// GVK is the group, version and kind this pipeline decodes.
func (p *Pipeline) GVK() schema.GroupVersionKind { return p.gvk }

// Decode runs the apiserver's decoding steps (1 to 4 of Normalize) on a
// copy of obj: what happens to every object the apiserver decodes, before
// any create or update logic. Errors are decode errors only.
func (p *Pipeline) Decode(obj map[string]any) Result {
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	res := p.decode(u)
	res.Object = u.Object
	return res
}

// decode is steps 1 to 4 of Normalize.
func (p *Pipeline) decode(u *unstructured.Unstructured) Result {
	var res Result
	pruned, decodeErr := p.coerce(u)
	res.Pruned = pruned
	if decodeErr != nil {
		// the apiserver answers 400 and goes no further
		res.Errors = field.ErrorList{decodeErr}
		res.Undecodable = true
		return res
	}
	structuraldefaulting.Default(u.Object, p.structural)
	return res
}

// Normalize runs obj through the apiserver's steps, in its order, on a copy:
//
//  1. structuralpruning.PruneWithOptions, tracking unknown field paths
//     (unstructuredSchemaCoercer.apply);
//  2. structuraldefaulting.PruneNonNullableNullsWithoutDefaults (same);
//  3. schemaobjectmeta.GetObjectMetaWithOptions, CoerceWithOptions and
//     SetObjectMeta (same), as for a request: malformed metadata is a
//     decode error that ends the pipeline (see coerce);
//  4. structuraldefaulting.Default (unstructuredDefaulter.Default);
//  5. the registry's customResourceStrategy: PrepareForCreate, then
//     Validate (OpenAPI schema, metadata, embedded resources, list sets and
//     maps, CEL with the runtime cost budget);
//  6. structuraldefaulting.Default once more, as the storage codec does when
//     the created object is read back (the defaulting KEP's "during read
//     from storage").
func (p *Pipeline) Normalize(ctx context.Context, obj map[string]any) Result {
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	res := p.decode(u)
	if len(res.Errors) > 0 {
		res.Object = u.Object
		return res
	}

	ctx = genericapirequest.WithNamespace(ctx, u.GetNamespace())
	p.strategy.PrepareForCreate(ctx, u)
	res.Errors = append(res.Errors, p.strategy.Validate(ctx, u)...)

	// What create returns is read back through the storage codec, which
	// defaults again: a status that PrepareForCreate dropped comes back as
	// its default.
	structuraldefaulting.Default(u.Object, p.structural)
	res.Object = u.Object
	return res
}
