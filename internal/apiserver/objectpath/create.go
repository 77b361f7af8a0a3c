package objectpath

import (
	"context"
	"fmt"
	"net/http"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/names"
)

// Request is how a client sends a create: the namespace of the URL it
// posts to, and the request's fieldValidation.
type Request struct {
	// Namespace is the namespace of the request's URL. kubectl takes the
	// object's metadata.namespace, else -n, else its context's namespace
	// (default); see KubectlNamespace. It is not used for a cluster-scoped
	// kind, whose URL has no namespace.
	Namespace string
	// Strict is fieldValidation=Strict (kubectl's --validate=strict): an
	// unknown field refuses the request. Without it the apiserver's default,
	// Warn, applies: unknown fields are dropped with a warning each.
	Strict bool
	// DuplicateFields are the fields the body gives twice, by their paths
	// as the apiserver's strict decoding names them (manifest.Object's
	// Duplicates). obj, a map, holds one value of each. Under Strict each
	// refuses the request (`duplicate field "spec.seed"`, before the
	// unknown fields); under Warn each is a warning (Result.Duplicates).
	DuplicateFields []string
	// Limits are the size limits; zero fields take the defaults.
	Limits Limits
}

// Create runs a create request (POST) of obj, the object a client sends,
// through the apiserver's handling of it, in its order, on a copy:
//
//  1. the body: the object as the client encodes it (RequestBody) is
//     refused over Limits.MaxRequestBodyBytes (the handler's
//     limitedReadBody, 413);
//  2. decoding: steps 1 to 4 of Normalize (the request decoder, which
//     prunes, drops nulls, coerces metadata and defaults); malformed
//     metadata is a 400 (Undecodable), and with Strict an unknown field is
//     a 400 (strict decoding error), the end of the request either way;
//  3. the create handler (endpoints/handlers/create.go):
//     rest.WipeObjectMetaSystemFields, then
//     rest.EnsureObjectNamespaceMatchesRequestNamespace, which sets an
//     absent namespace to the request's and clears the namespace of a
//     cluster-scoped object;
//  4. the generic registry's create (registry/generic/registry/store.go):
//     rest.FillObjectMetaSystemFields, a name generated from
//     metadata.generateName, then rest.BeforeCreate's steps (the namespace
//     check again, PrepareForCreate, rest.ValidateCreate,
//     WarningsOnCreate, Canonicalize); field errors are a 422;
//  5. storage (storage/etcd3 store.Create), for a valid object only: a
//     resourceVersion set refuses it, and the object as the storage codec
//     writes it (StorageBytes) must fit in one etcd request
//     (CheckStorageSize);
//  6. the object as the storage codec reads back what it wrote
//     (ReadBack): at the storage version, defaulted, converted back to the
//     request's version.
//
// The result holds no uid, creationTimestamp, resourceVersion or generated
// name: the server invents those. Messages that name a generated name show
// its random suffix as xxxxx.
func (p *Pipeline) Create(ctx context.Context, obj map[string]any, req Request) Result {
	if err := p.Build(); err != nil {
		// what the handler answers when it cannot build the version's
		// serving info (customresource_handler.go, ServeHTTP)
		return Result{Object: runtime.DeepCopyJSON(obj), Refused: apierrors.NewInternalError(err)}
	}
	limits := req.Limits.withDefaults()
	body, err := RequestBody(obj)
	if err != nil {
		return Result{Object: runtime.DeepCopyJSON(obj), Refused: apierrors.NewBadRequest(err.Error())}
	}
	if int64(len(body)) > limits.MaxRequestBodyBytes {
		// limitedReadBody in endpoints/handlers/rest.go
		return Result{Object: runtime.DeepCopyJSON(obj),
			Refused: apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", limits.MaxRequestBodyBytes))}
	}

	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	res := p.decode(u)
	res.Object = u.Object
	if len(res.Errors) > 0 {
		return res
	}
	res.Duplicates = req.DuplicateFields
	if req.Strict && (len(res.Pruned) > 0 || len(res.Duplicates) > 0) {
		// the create handler answers the strict decoding error
		// (transformDecodeError) and goes no further; the decoder's own
		// strict errors (duplicate fields, from kjson.UnmarshalStrict)
		// come before the unknown fields (schemaCoercingDecoder.Decode)
		var errs []error
		for _, path := range res.Duplicates {
			errs = append(errs, fmt.Errorf("duplicate field %q", path))
		}
		for _, path := range res.Pruned {
			errs = append(errs, fmt.Errorf("unknown field %q", path))
		}
		res.Refused = apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v",
			p.gvk.Kind, p.gvk.Version, p.gvk.Kind, runtime.NewStrictDecodingError(errs)))
		return res
	}

	requestNamespace := ""
	if p.namespaced {
		requestNamespace = req.Namespace
	}
	ctx = genericapirequest.WithNamespace(ctx, requestNamespace)
	// the create handler
	rest.WipeObjectMetaSystemFields(u)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForResource(requestNamespace, p.gvr()), u); err != nil {
		res.Refused = asStatusError(err)
		return res
	}
	// the registry's create, then rest.BeforeCreate's steps (BeforeCreate
	// itself turns field errors into a Status; they are kept as they are)
	rest.FillObjectMetaSystemFields(u)
	generated := u.GetGenerateName() != "" && u.GetName() == ""
	if generated {
		u.SetName(generateName(p.strategy, u.GetGenerateName()))
	}
	res.Errors, res.Warnings, res.Refused = p.beforeCreate(ctx, u)
	valid := res.Refused == nil && len(res.Errors) == 0
	// an invalid object is shown as it would have been stored
	stored, refused := p.store(u, limits, valid)
	if valid {
		res.Refused = refused
	}
	if stored != nil {
		u = stored
	}
	// what the server invented is not shown
	unstructured.RemoveNestedField(u.Object, "metadata", "uid")
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	if generated {
		unstructured.RemoveNestedField(u.Object, "metadata", "name")
	}
	res.Object = u.Object
	return res
}

// beforeCreate is rest.BeforeCreate (registry/rest/create.go) once the
// registry has filled the system fields and generated the name: the
// object's namespace checked against the request's in ctx, the strategy's
// PrepareForCreate, rest.ValidateCreate, WarningsOnCreate and
// Canonicalize. BeforeCreate itself returns field errors as a Status;
// its steps are called here so that they stay field errors
// (TestBeforeCreateIsRestBeforeCreate compares the two).
func (p *Pipeline) beforeCreate(ctx context.Context, u *unstructured.Unstructured) (field.ErrorList, []string, *apierrors.StatusError) {
	requestNamespace, _ := genericapirequest.NamespaceFrom(ctx)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(requestNamespace, p.strategy.NamespaceScoped()), u); err != nil {
		return nil, nil, asStatusError(err)
	}
	p.strategy.PrepareForCreate(ctx, u)
	if errs := rest.ValidateCreate(ctx, u, p.strategy); len(errs) > 0 {
		return errs, nil, nil
	}
	warnings := p.strategy.WarningsOnCreate(ctx, u)
	p.strategy.Canonicalize(u)
	return nil, warnings, nil
}

// store is the storage's create (storage/etcd3 store.Create) of u, and
// the create's answer, which the storage decodes from what it wrote
// (ReadBack). With check, it also says why the storage refuses u: a
// resourceVersion set, or an object too large for one etcd request. u's
// resourceVersion is cleared, as PrepareObjectForStorage clears it.
func (p *Pipeline) store(u *unstructured.Unstructured, limits Limits, check bool) (*unstructured.Unstructured, *apierrors.StatusError) {
	versioner := storage.APIObjectVersioner{}
	if v, err := versioner.ObjectResourceVersion(u); check && err == nil && v != 0 {
		return nil, internalError(storage.ErrResourceVersionSetOnCreate)
	}
	_ = versioner.PrepareObjectForStorage(u)
	value, err := p.StorageBytes(u.Object)
	if err != nil {
		return nil, internalError(err)
	}
	var refused *apierrors.StatusError
	if check {
		refused = asNilStatus(CheckStorageSize(p.Key(u.GetNamespace(), u.GetName()), value, 0, limits))
	}
	back, err := p.ReadBack(value)
	if err != nil {
		return nil, internalError(err)
	}
	return &unstructured.Unstructured{Object: back}, refused
}

// ReadBack is what the storage codec decodes from value, an object as
// StorageBytes writes it, for a request at the pipeline's version
// (customresource_handler.go, crdConversionRESTOptionsGetter): decoded by
// UnstructuredJSONScheme, coerced with the storage version's schema
// (schemaCoercingDecoder; the generation repaired to 1 if unset),
// defaulted with it (unstructuredDefaulter), then converted to the
// pipeline's version (apiVersion only, the None strategy) and coerced with
// its schema (schemaCoercingConverter). A create answers with this: a
// field that the storage version prunes is gone, and a status that
// PrepareForCreate dropped comes back as its default.
func (p *Pipeline) ReadBack(value []byte) (map[string]any, error) {
	if err := p.Build(); err != nil {
		return nil, err
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(value, nil, nil)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("stored object is a %T", obj)
	}
	if ferr := p.coerceStored(u, p.storageStructural); ferr != nil {
		return nil, ferr
	}
	structuraldefaulting.Default(u.Object, p.storageStructural)
	u.SetAPIVersion(p.gvk.GroupVersion().String())
	if _, ferr := coerceWith(u, p.structural, p.preserveUnknownFields, false); ferr != nil {
		return nil, ferr
	}
	return u.Object, nil
}

// coerceStored is the storage decoder's coercion: coerceWith, with the
// generation repaired to 1 when it is unset (repairGeneration). The
// metadata of an object this pipeline stored is valid, so
// dropInvalidMetadata has nothing to drop.
func (p *Pipeline) coerceStored(u *unstructured.Unstructured, s *structuralschema.Structural) *field.Error {
	if _, ferr := coerceWith(u, s, p.preserveUnknownFields, false); ferr != nil {
		return ferr
	}
	if u.GetGeneration() == 0 {
		u.SetGeneration(1)
	}
	return nil
}

// generateName is the registry's name generation (store.go create:
// strategy.GenerateName, names.SimpleNameGenerator for custom resources),
// with the random suffix replaced by xxxxx, so that the output is the same
// on every run. The suffix has the generator's length and characters
// (utilrand.String), so the name validates as the server's would.
func generateName(g names.NameGenerator, base string) string {
	name := g.GenerateName(base)
	return name[:len(name)-5] + "xxxxx"
}

// GeneratedName is the name a custom resource created with generateName
// base and no name gets, with the random suffix as xxxxx (generateName):
// what a step after the create (the object's update) must carry, since the
// apiserver stored the object under it.
func GeneratedName(base string) string {
	return generateName(names.SimpleNameGenerator, base)
}

// gvr is the resource of the pipeline's kind.
func (p *Pipeline) gvr() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: p.gvk.Group, Version: p.gvk.Version, Resource: p.resource}
}

// asStatusError is err as the handler answers it (an APIStatus as it is).
func asStatusError(err error) *apierrors.StatusError {
	//nolint:errorlint // as responsewriters.ErrorToAPIStatus: its type switch answers a wrapped status as a 500
	if se, ok := err.(*apierrors.StatusError); ok {
		return se
	}
	return internalError(err)
}

func asNilStatus(err error) *apierrors.StatusError {
	if err == nil {
		return nil
	}
	return asStatusError(err)
}

// internalError is an error that is not an API status as the handler
// answers it (responsewriters.ErrorToAPIStatus): a 500 whose message is the
// error's text.
func internalError(err error) *apierrors.StatusError {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
		Reason: metav1.StatusReasonUnknown, Message: err.Error(),
	}}
}

// KubectlNamespace is the namespace kubectl create and apply send an
// object of a namespaced kind to (k8s.io/cli-runtime pkg/resource): its
// metadata.namespace, else ns (-n, or the context's namespace: default).
// With explicit (-n was given), an object in another namespace is an error,
// as RequireNamespace makes it. Objects of cluster-scoped kinds go to no
// namespace: kubectl sends them as they are.
func KubectlNamespace(obj map[string]any, namespaced bool, ns string, explicit bool) (string, error) {
	if !namespaced {
		return "", nil
	}
	own, _, _ := unstructured.NestedString(obj, "metadata", "namespace")
	switch {
	case own == "":
		return ns, nil
	case explicit && own != ns:
		//nolint:staticcheck // ST1005: kubectl's message, verbatim (k8s.io/cli-runtime pkg/resource)
		return "", fmt.Errorf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", own, ns, own)
	}
	return own, nil
}
