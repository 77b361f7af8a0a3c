package impact

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/storage"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// Update is the verdict of a no-op update: a PUT of the object as read,
// and, when the version has the status subresource and the object a
// status, a PUT of it to /status (as a controller writes status).
type Update struct {
	Refused  bool      `json:"refused"`
	Problems []Problem `json:"problems,omitempty"`
}

// noopUpdate is step 3's no-op update of b, the object as read at p's
// version. With statusFollows, the write of the status is known to get no
// error (statusUpdateFollows) and is not sent.
func noopUpdate(ctx context.Context, p *objectpath.Pipeline, b *body, statusFollows bool) *Update {
	main, status := p.Strategies()
	_, problems := put(ctx, p, main, b.obj, b)
	if status != nil && hasStatus(b.obj) {
		var s []Problem
		if !statusFollows {
			_, s = put(ctx, p, status, b.obj, b)
		}
		problems = sortProblems(append(problems, s...))
	}
	return &Update{Refused: len(problems) > 0, Problems: problems}
}

// body is the body of update requests at p's version, and what the
// apiserver makes of it before any update logic: the size check of the
// body as a client encodes it, and its decoding (pipeline's Decode:
// pruning, nulls, metadata, defaults). Both are functions of the body and
// the version's schema alone, not of the object updated nor of the
// strategy: the no-op update and the updates that find what ratcheting
// holds (asIfNew), which all send the object as read, share one body, so
// that it is encoded and decoded once, and each request decodes a copy.
type body struct {
	obj map[string]any
	// refused are the errors of a body the apiserver refuses before it
	// decodes it or while it does (413, 400); decoded is the decoded body
	// otherwise.
	refused []Problem
	decoded map[string]any
	// redecode has every put encode and decode obj again instead of
	// sharing decoded (the Analyzer's fullPath, for the tests that compare)
	redecode bool
}

// newBody encodes and decodes obj as a request body at p's version. obj is
// not modified, and must not be while the body is in use.
func newBody(p *objectpath.Pipeline, obj map[string]any) *body {
	b := &body{obj: obj}
	if enc, err := objectpath.RequestBody(obj); err != nil {
		b.refused = []Problem{{Message: err.Error()}}
	} else if len(enc) > objectpath.DefaultMaxRequestBodyBytes {
		b.refused = fromError(apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", objectpath.DefaultMaxRequestBodyBytes)))
	} else if dec := p.Decode(obj); len(dec.Errors) > 0 {
		b.refused = fromErrorList(dec.Errors)
	} else {
		b.decoded = dec.Object
	}
	return b
}

// put is an update request (PUT) of b at p's version, against old, the
// object as the storage codec reads it, through strategy (the resource's,
// or the status subresource's for PUT .../status):
//
//  0. the body as a client encodes it (objectpath.RequestBody) is refused
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
//     revision of old's resourceVersion (objectpath.CheckStorageSize).
//
// It returns the object that would be written and the errors of a refusal
// (none if the update is accepted). old and b are not modified. A
// client sends back the resourceVersion it read: when old has none (it was
// never really stored), both get one, which the result does not keep.
//
// Steps 0 and 1 are b's (newBody).
func put(ctx context.Context, p *objectpath.Pipeline, strategy rest.RESTUpdateStrategy, old map[string]any, b *body) (map[string]any, []Problem) {
	if b.redecode {
		b = newBody(p, b.obj)
	}
	if b.refused != nil {
		return nil, slices.Clone(b.refused)
	}
	newObj := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(b.decoded)}
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
func fitsStorage(p *objectpath.Pipeline, obj *unstructured.Unstructured, resourceVersion string) error {
	stored := obj.DeepCopy()
	stored.SetManagedFields(nil)
	_ = storage.APIObjectVersioner{}.PrepareObjectForStorage(stored)
	value, err := p.StorageBytes(stored.Object)
	if err != nil {
		return err
	}
	revision, _ := strconv.ParseInt(resourceVersion, 10, 64)
	return objectpath.CheckStorageSize(p.Key(stored.GetNamespace(), stored.GetName()), value, revision, objectpath.Limits{})
}

// hasStatus says whether obj has a status.
func hasStatus(obj map[string]any) bool {
	_, ok := obj["status"]
	return ok
}
