package impact

import (
	"context"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// stored is step 1: an object as the apiserver stores it under OLD.
type stored struct {
	// etcd is what the storage holds: the object at OLD's storage version.
	etcd map[string]any
	// object is what a GET under OLD returns, at the object's version.
	object map[string]any
	// problems are why OLD refuses the object (its create, or the write of
	// its status); the other fields hold what it would have stored had
	// validation passed.
	problems []Problem
	// undecodable: OLD refuses to decode the object at all (400), and
	// nothing was stored.
	undecodable bool
}

// store is step 1, the object's create under OLD, at its version v:
//
//  1. the create request of sent, as kubectl sends it (pipeline's Create:
//     the request's checks, decoding, the handler's and registry's
//     metadata steps, PrepareForCreate, Validate, the storage's checks,
//     defaults as read back). What the server set on the object when it
//     created it (a `kubectl get -o yaml` dump holds it: uid,
//     creationTimestamp, resourceVersion, generation, managedFields) is
//     not in sent (withoutServerSet), since kubectl clears the
//     resourceVersion and the apiserver would refuse or overwrite the
//     rest; server holds it, and it is put back into what is stored;
//  2. with the status subresource, PrepareForCreate drops the status: an
//     input that has one then has it written as a controller writes it, by
//     a PUT to /status;
//  3. the storage codec's write (toStorage), then its read at the
//     object's version (fromStorage): what a GET under OLD returns.
func store(ctx context.Context, v *version, sent map[string]any, server serverSet, req objectpath.Request) (stored, error) {
	p, err := v.pipeline()
	if err != nil {
		return stored{}, err
	}
	// the input as it was given, the request's namespace filled in: the
	// body of the write of its status
	obj := server.restore(runtime.DeepCopyJSON(sent))
	res := p.Create(ctx, sent, req)
	st := stored{problems: fromErrorList(res.Errors), undecodable: res.Undecodable}
	if res.Refused != nil {
		st.problems = sortProblems(append(st.problems, fromError(res.Refused)...))
		// a body too large, or a namespace the request does not match,
		// are refused before the object is decoded
		st.undecodable = st.undecodable || res.Refused.Status().Code != http.StatusInternalServerError
	}
	if st.undecodable {
		return st, nil
	}
	read, err := v.def.createRead(p, sent, res.Object, v.name)
	if err != nil {
		return st, err
	}
	created := server.restore(read)
	// the apiserver stored the object under the name it generated from
	// generateName; Create shows it without (a name the client does not
	// know), but every later step (the update) carries it
	if m, _ := created["metadata"].(map[string]any); m != nil && m["name"] == nil {
		if base, _ := m["generateName"].(string); base != "" {
			m["name"] = objectpath.GeneratedName(base)
		}
	}
	if _, status := p.Strategies(); status != nil && hasStatus(obj) {
		withStatus, problems := put(ctx, p, status, created, newBody(p, obj))
		st.problems = append(st.problems, problems...)
		if withStatus != nil {
			created = withStatus
		}
	}
	if st.etcd, err = v.def.toStorage(created); err != nil {
		return st, err
	}
	st.object, err = v.def.fromStorage(st.etcd, v.name)
	return st, err
}

// serverSetFields are the metadata fields the server sets on create.
var serverSetFields = []string{"uid", "creationTimestamp", "resourceVersion", "generation", "managedFields",
	"deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"}

// serverSet holds the server-set metadata of an input.
type serverSet map[string]any

// withoutServerSet returns a copy of obj without the metadata the server
// sets, and that metadata.
func withoutServerSet(obj map[string]any) (map[string]any, serverSet) {
	m, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj, nil
	}
	out := runtime.DeepCopyJSON(obj)
	om := out["metadata"].(map[string]any)
	saved := serverSet{}
	for _, f := range serverSetFields {
		if v, ok := m[f]; ok {
			saved[f] = runtime.DeepCopyJSONValue(v)
			delete(om, f)
		}
	}
	return out, saved
}

// restore puts the saved fields back into obj's metadata (obj is changed
// and returned).
func (s serverSet) restore(obj map[string]any) map[string]any {
	m, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	for f, v := range s {
		m[f] = runtime.DeepCopyJSONValue(v)
	}
	return obj
}
