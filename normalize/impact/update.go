package impact

import (
	"context"
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/storage"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

// Update is the verdict of a no-op update: a PUT of the object as read,
// and, when the version has the status subresource and the object a
// status, a PUT of it to /status (as a controller writes status).
type Update struct {
	Refused  bool      `json:"refused"`
	Problems []Problem `json:"problems,omitempty"`
}

// noopUpdate is step 3's no-op update of obj, as read at p's version.
func noopUpdate(ctx context.Context, p *pipeline.Pipeline, obj map[string]any) *Update {
	main, status := p.Strategies()
	_, problems := put(ctx, p, main, obj, obj)
	if status != nil && hasStatus(obj) {
		_, s := put(ctx, p, status, obj, obj)
		problems = sortProblems(append(problems, s...))
	}
	return &Update{Refused: len(problems) > 0, Problems: problems}
}

// put is an update request (PUT) of body at p's version, against old, the
// object as the storage codec reads it, through strategy (the resource's,
// or the status subresource's for PUT .../status):
//
//  0. the body as a client encodes it (pipeline.RequestBody) is refused
//     over the apiserver's limit (413), as on create;
//  1. the request body is decoded as the apiserver decodes it (pipeline's
//     Decode: pruning, nulls, metadata, defaults); a decode error is a 400;
//  2. rest.BeforeUpdate, as the generic registry's Store.Update calls it:
//     the request's namespace checked, the generation kept, the strategy's
//     PrepareForUpdate, uid and creationTimestamp kept, then
//     rest.ValidateUpdate (object metadata, then the strategy's
//     ValidateUpdate, which ratchets: CRDValidationRatcheting is GA and
//     locked on, so values unchanged from old are not re-validated);
//  3. the storage's write: the object as stored (without managedFields,
//     which the handler drops and retries without when etcd refuses an
//     object as too large) must fit in etcd's update transaction, at the
//     revision of old's resourceVersion (pipeline.CheckStorageSize).
//
// It returns the object that would be written and the errors of a refusal
// (none if the update is accepted). old and body are not modified. A
// client sends back the resourceVersion it read: when old has none (it was
// never really stored), both get one, which the result does not keep.
func put(ctx context.Context, p *pipeline.Pipeline, strategy rest.RESTUpdateStrategy, old, body map[string]any) (map[string]any, []Problem) {
	if b, err := pipeline.RequestBody(body); err != nil {
		return nil, []Problem{{Message: err.Error()}}
	} else if len(b) > pipeline.DefaultMaxRequestBodyBytes {
		return nil, fromError(apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", pipeline.DefaultMaxRequestBodyBytes)))
	}
	dec := p.Decode(body)
	if len(dec.Errors) > 0 {
		return nil, fromErrorList(dec.Errors)
	}
	newObj := &unstructured.Unstructured{Object: dec.Object}
	oldObj := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(old)}
	invented := oldObj.GetResourceVersion() == ""
	if invented {
		oldObj.SetResourceVersion("1")
	}
	if newObj.GetResourceVersion() == "" {
		newObj.SetResourceVersion(oldObj.GetResourceVersion())
	}
	ctx = genericapirequest.WithNamespace(ctx, newObj.GetNamespace())
	err := rest.BeforeUpdate(strategy, ctx, newObj, oldObj)
	if err == nil {
		err = fitsStorage(p, newObj, oldObj.GetResourceVersion())
	}
	if invented && newObj.GetResourceVersion() == "1" {
		unstructured.RemoveNestedField(newObj.Object, "metadata", "resourceVersion")
	}
	return newObj.Object, fromError(err)
}

// fitsStorage is the size check of the storage's update of obj, read at
// resourceVersion.
func fitsStorage(p *pipeline.Pipeline, obj *unstructured.Unstructured, resourceVersion string) error {
	stored := obj.DeepCopy()
	stored.SetManagedFields(nil)
	_ = storage.APIObjectVersioner{}.PrepareObjectForStorage(stored)
	value, err := p.StorageBytes(stored.Object)
	if err != nil {
		return err
	}
	revision, _ := strconv.ParseInt(resourceVersion, 10, 64)
	return pipeline.CheckStorageSize(p.Key(stored.GetNamespace(), stored.GetName()), value, revision, pipeline.Limits{})
}

// hasStatus says whether obj has a status.
func hasStatus(obj map[string]any) bool {
	_, ok := obj["status"]
	return ok
}
