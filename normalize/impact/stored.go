package impact

import (
	"context"
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
//  1. the create path (pipeline.Normalize: decode, PrepareForCreate,
//     Validate, defaults as read back);
//  2. with the status subresource, PrepareForCreate drops the status: an
//     input that has one (a `kubectl get -o yaml` dump) then has it written
//     as a controller writes it, by a PUT to /status (writeStatus);
//  3. the storage codec's write (toStorage), then its read at the
//     object's version (fromStorage): what a GET under OLD returns.
func store(ctx context.Context, v *version, obj map[string]any) (stored, error) {
	p, err := v.pipeline()
	if err != nil {
		return stored{}, err
	}
	res := p.Normalize(ctx, obj)
	st := stored{problems: fromErrorList(res.Errors), undecodable: res.Undecodable}
	if st.undecodable {
		return st, nil
	}
	created := res.Object
	if _, status := p.Strategies(); status != nil && hasStatus(obj) {
		withStatus, problems := put(ctx, p, status, created, obj)
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
