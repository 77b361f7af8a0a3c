package objectpath

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// Pipeline is the apiserver's decode and create path for one served
// version of a CRD. It is built once, as the apiserver builds a version's
// storage (customresource_handler.go, getOrCreateServingInfoFor), and
// reused for every object. New builds it at once; the command builds each
// version's when the first object of that version arrives (as the
// apiserver builds it on the first request), once, whichever goroutine
// asks first.
type Pipeline struct {
	gvk        schema.GroupVersionKind
	namespaced bool
	// preserveUnknownFields is the CRD's legacy spec.preserveUnknownFields,
	// which turns pruning off (unstructuredSchemaCoercer.apply). The
	// apiserver refuses it on create of a v1 CRD; it is honoured for CRDs
	// carried over from v1beta1.
	preserveUnknownFields bool
	// resource is the CRD's plural, which names its objects' etcd keys.
	resource string
	// deprecation is the version's deprecation warning (deprecationWarning).
	deprecation string

	// lazy builds the fields below on first use; nil when New built them.
	lazy *lazyBuild

	structural *structuralschema.Structural
	strategy   strategy
	// storageVersion is the version objects are written at, and
	// storageStructural its structural schema (the storage codec's
	// encoder prunes with it).
	storageVersion    string
	storageStructural *structuralschema.Structural
	// statusStrategy is the status subresource's (nil without it).
	statusStrategy rest.RESTUpdateStrategy

	// onBuild, when a test sets it, is called when the version's schemas,
	// validators, CEL programs and strategies are built.
	onBuild func(schema.GroupVersionKind)
}

// lazyBuild is what a pipeline built on first use needs: the CRD, as the
// apiserver holds it (shared by the CRD's versions, converted once).
type lazyBuild struct {
	once     sync.Once
	crd      *apiextensionsv1.CustomResourceDefinition
	internal func() (*apiextensions.CustomResourceDefinition, error)
	err      error
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
	// Duplicates are the request's DuplicateFields, which the apiserver
	// reports (`duplicate field "spec.seed"`) before the unknown fields:
	// warnings under Warn, the strict decoding error under Strict.
	Duplicates []string
	// Errors are the validation errors of the create request.
	Errors field.ErrorList
	// Undecodable says that the apiserver refuses to decode the object (400
	// Bad Request): Errors holds why, and nothing after decoding ran.
	Undecodable bool
	// Refused is the apiserver's answer when it refuses the create for
	// another reason than field errors (Create): a body over its limit
	// (413), an unknown field under fieldValidation=Strict (400), a
	// namespace that does not match the request's (400), a resourceVersion
	// set (500), or an object too large for etcd (500).
	Refused *apierrors.StatusError
	// Warnings are the warnings of the response other than unknown fields
	// (the strategy's WarningsOnCreate: finalizer names).
	Warnings []string
}

// New builds the pipeline of one served version. The CRD must be
// valid (see crdcheck.ValidateCRD).
func New(crd *apiextensionsv1.CustomResourceDefinition, version string) (*Pipeline, error) {
	p, err := header(crd, version)
	if err != nil {
		return nil, err
	}
	internal, err := crdcheck.ToInternal(crd)
	if err != nil {
		return nil, err
	}
	if err := p.build(crd, internal); err != nil {
		return nil, err
	}
	return p, nil
}

// newLazy is the pipeline of one served version, built on first use
// (Build) from internal, the CRD as the apiserver holds it. The CRD must
// be valid.
func newLazy(crd *apiextensionsv1.CustomResourceDefinition, version string, internal func() (*apiextensions.CustomResourceDefinition, error)) (*Pipeline, error) {
	p, err := header(crd, version)
	if err != nil {
		return nil, err
	}
	p.lazy = &lazyBuild{crd: crd, internal: internal}
	return p, nil
}

// Build builds what the pipeline builds on first use (the version's
// structural schema, validators, CEL programs and strategies), once, and
// says why it could not, naming the CRD and version. For a CRD the
// apiserver accepts, it cannot fail: its errors are the apiserver's
// internal errors (a request that needs a version whose serving info its
// handler cannot build is answered 500, customresource_handler.go
// ServeHTTP), and Create and Decode answer them so. A pipeline from New is
// built.
func (p *Pipeline) Build() error {
	l := p.lazy
	if l == nil {
		return nil
	}
	l.once.Do(func() {
		internal, err := l.internal()
		if err == nil {
			err = p.build(l.crd, internal)
		}
		if err != nil {
			l.err = fmt.Errorf("CRD %s: %w", l.crd.Name, err)
		}
	})
	return l.err
}

// header is what a pipeline knows before it is built: the version's kind,
// scope and resource.
func header(crd *apiextensionsv1.CustomResourceDefinition, version string) (*Pipeline, error) {
	served := false
	for _, v := range crd.Spec.Versions {
		served = served || v.Name == version && v.Served
	}
	if !served {
		return nil, fmt.Errorf("%s does not serve version %q", crd.Name, version)
	}
	return &Pipeline{
		gvk:                   schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind},
		namespaced:            crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		preserveUnknownFields: crd.Spec.PreserveUnknownFields,
		resource:              crd.Spec.Names.Plural,
		deprecation:           deprecationWarning(crd, version),
	}, nil
}

// build builds the version's schemas, validators and strategies from
// internal, crd as the apiserver holds it.
func (p *Pipeline) build(crd *apiextensionsv1.CustomResourceDefinition, internal *apiextensions.CustomResourceDefinition) error {
	version := p.gvk.Version
	if p.onBuild != nil {
		p.onBuild(p.gvk)
	}
	var ver *apiextensions.CustomResourceDefinitionVersion
	for i := range internal.Spec.Versions {
		if v := &internal.Spec.Versions[i]; v.Name == version && v.Served {
			ver = v
		}
	}
	if ver == nil {
		return fmt.Errorf("%s does not serve version %q", crd.Name, version)
	}
	validationSchema, subresources := internal.Spec.Validation, internal.Spec.Subresources
	if ver.Schema != nil {
		validationSchema = ver.Schema
	}
	if ver.Subresources != nil {
		subresources = ver.Subresources
	}
	if validationSchema == nil || validationSchema.OpenAPIV3Schema == nil {
		return fmt.Errorf("%s version %s has no schema", crd.Name, version)
	}

	// customresource_handler.go: NewStructural, then, unless the legacy
	// spec.preserveUnknownFields, PruneDefaults once per version on a deep
	// copy (the structural schema shares its default values with the
	// JSONSchemaProps the validator is built from).
	s, err := structuralschema.NewStructural(validationSchema.OpenAPIV3Schema)
	if err != nil {
		return fmt.Errorf("%s version %s: %w", crd.Name, version, err)
	}
	if !crd.Spec.PreserveUnknownFields {
		s = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return fmt.Errorf("%s version %s: %w", crd.Name, version, err)
		}
	}

	validator, _, err := apiservervalidation.NewSchemaValidator(validationSchema.OpenAPIV3Schema)
	if err != nil {
		return err
	}
	var status *apiextensions.CustomResourceSubresourceStatus
	var scale *apiextensions.CustomResourceSubresourceScale
	if subresources != nil {
		status, scale = subresources.Status, subresources.Scale
	}
	statusValidator, err := newStatusValidator(validationSchema.OpenAPIV3Schema, status)
	if err != nil {
		return err
	}
	var selectable []apiextensionsv1.SelectableField
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			selectable = v.SelectableFields
		}
	}
	main := customresource.NewStrategy(unstructuredscheme.NewUnstructuredObjectTyper(), p.namespaced, p.gvk,
		validator, statusValidator, s, status, scale, selectable)
	p.structural, p.strategy, p.storageVersion, p.storageStructural = s, main, version, s
	if sv := storageVersionOf(internal); sv != "" && sv != version {
		if p.storageStructural, err = StorageSchema(internal, sv); err != nil {
			return fmt.Errorf("%s version %s: %w", crd.Name, sv, err)
		}
		p.storageVersion = sv
	}
	if status != nil {
		p.statusStrategy = customresource.NewStatusStrategy(main)
	}
	return nil
}

// storageVersionOf is the CRD's storage version.
func storageVersionOf(crd *apiextensions.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// StorageSchema is the structural schema of a version as the storage codec
// uses it (customresource_handler.go, getOrCreateServingInfoFor):
// NewStructural, then, unless spec.preserveUnknownFields, PruneDefaults on a
// deep copy (the structural schema shares its default values with the CRD).
func StorageSchema(crd *apiextensions.CustomResourceDefinition, version string) (*structuralschema.Structural, error) {
	validation := crd.Spec.Validation
	for _, v := range crd.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			validation = v.Schema
		}
	}
	if validation == nil || validation.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("no schema")
	}
	s, err := structuralschema.NewStructural(validation.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	if p := crd.Spec.PreserveUnknownFields; p != nil && *p {
		return s, nil
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, err
	}
	return s, nil
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
// internal/impact calls their PrepareForUpdate and ValidateUpdate.
//
// They are nil when the pipeline cannot be built (see Build).
func (p *Pipeline) Strategies() (main, status rest.RESTUpdateStrategy) {
	if p.Build() != nil {
		return nil, nil
	}
	return p.strategy, p.statusStrategy
}

// GVK is the group, version and kind this pipeline decodes.
func (p *Pipeline) GVK() schema.GroupVersionKind { return p.gvk }

// DeprecationWarning is the warning the apiserver sends with every
// request at this version that its CRD handler serves, created or
// refused, before any other (the handler adds it before decoding): the
// version's deprecationWarning, or the apiserver's default text for a
// deprecated version without one (defaultDeprecationWarning); "" when the
// version is not deprecated.
func (p *Pipeline) DeprecationWarning() string { return p.deprecation }

// Decode runs the apiserver's decoding steps (1 to 4 of Normalize) on a
// copy of obj: what happens to every object the apiserver decodes, before
// any create or update logic. Errors are decode errors only.
//
// When the pipeline cannot be built (Build), the object is undecodable,
// with Build's error as an internal error.
func (p *Pipeline) Decode(obj map[string]any) Result {
	if err := p.Build(); err != nil {
		return Result{Object: runtime.DeepCopyJSON(obj), Errors: field.ErrorList{field.InternalError(nil, err)}, Undecodable: true}
	}
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
// Create, with obj sent as kubectl sends it without -n (KubectlRequest).
// Its steps 1 to 4 are the request decoder's:
//
//  1. structuralpruning.PruneWithOptions, tracking unknown field paths
//     (unstructuredSchemaCoercer.apply);
//  2. structuraldefaulting.PruneNonNullableNullsWithoutDefaults (same);
//  3. schemaobjectmeta.GetObjectMetaWithOptions, CoerceWithOptions and
//     SetObjectMeta (same), as for a request: malformed metadata is a
//     decode error that ends the pipeline (see coerce);
//  4. structuraldefaulting.Default (unstructuredDefaulter.Default);
//
// then, after the create handler's and registry's metadata steps,
//
//  5. the registry's customResourceStrategy: PrepareForCreate, then
//     Validate (OpenAPI schema, metadata, embedded resources, list sets and
//     maps, CEL with the runtime cost budget), through rest.ValidateCreate;
//  6. the object as the storage codec writes it and reads it back
//     (StorageBytes, ReadBack): pruned by the storage version's schema when
//     it is another version, and defaulted once more (the defaulting KEP's
//     "during read from storage").
func (p *Pipeline) Normalize(ctx context.Context, obj map[string]any) Result {
	sent, req, err := p.KubectlRequest(obj, metav1.NamespaceDefault, false)
	if err != nil { // not without -n
		return Result{Object: runtime.DeepCopyJSON(obj), Refused: apierrors.NewBadRequest(err.Error())}
	}
	return p.Create(ctx, sent, req)
}

// KubectlRequest is how kubectl create and apply send obj: to the namespace
// KubectlNamespace says, which kubectl also writes into the object when it
// has none (cli-runtime's DefaultNamespace and RequireNamespace visitors),
// and without its metadata.resourceVersion (KubectlClearsResourceVersion).
// obj is not modified.
func (p *Pipeline) KubectlRequest(obj map[string]any, ns string, explicit bool) (map[string]any, Request, error) {
	reqNS, err := KubectlNamespace(obj, p.namespaced, ns, explicit)
	if err != nil {
		return nil, Request{}, err
	}
	copied := false
	if p.namespaced {
		if own, _, _ := unstructured.NestedString(obj, "metadata", "namespace"); own == "" {
			obj, copied = runtime.DeepCopyJSON(obj), true
			_ = unstructured.SetNestedField(obj, reqNS, "metadata", "namespace") // fails only if metadata is not an object
		}
	}
	if KubectlClearsResourceVersion(obj) {
		if !copied {
			obj = runtime.DeepCopyJSON(obj)
		}
		unstructured.RemoveNestedField(obj, "metadata", "resourceVersion")
	}
	return obj, Request{Namespace: reqNS}, nil
}

// KubectlClearsResourceVersion says whether kubectl create (and apply,
// for an object it creates) sends obj without its metadata.resourceVersion:
// kubectl v0.37 pkg/cmd/create calls resource.NewHelper(...).Create(ns,
// true, obj), and cli-runtime's resource.Helper.CreateWithOptions, with
// modify true, sets a resourceVersion it can read (a non-empty string)
// to "", which unstructured.Unstructured's SetResourceVersion removes. So
// the object of a kubectl get -o yaml dump is created, not refused
// ("resourceVersion should not be set on objects to be created", which a
// client that posts the file as it is gets). A resourceVersion that is not
// a string is sent as it is.
func KubectlClearsResourceVersion(obj map[string]any) bool {
	m, _ := obj["metadata"].(map[string]any)
	rv, _ := m["resourceVersion"].(string)
	return rv != ""
}
