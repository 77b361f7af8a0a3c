package impact

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// Under --convert, what every version NEW serves reads, before and after
// the object's next write, and which LISTs the object breaks.
//
// The apiserver serves each version of a CRD with a storage of its own
// (customresource_handler.go, getOrCreateServingInfoFor: one
// customresource.NewStorage per version, whose storage codec,
// crdConversionRESTOptionsGetter, decodes to that version and encodes to
// the storage version). A GET at V decodes the stored object to V: it is
// defaulted in the version it is stored at, converted to V by the
// conversion webhook (webhook_converter.go) and pruned with V's schema
// (schemaCoercingConverter). A LIST or WATCH at V decodes every stored
// item the same way (the etcd3 store's GetList, processListItem: a decode
// error of one item fails the whole list, unless the AllowUnsafeMalformed-
// ObjectDeletion gate aggregates them): a corrupt-object error, which
// storeerr.InterpretListError makes a 500. The watch cache of V (package
// storage/cacher) lists the same way to initialize, fails, and stays
// Pending: while it is, the Cacher answers every WATCH and the LISTs it
// serves with 429 "storage is (re)initializing: ..." (Retry-After up to
// 30 s), and CacheDelegator.GetList delegates to etcd (500) a LIST with a
// limit and no selector (shouldDelegateListOnNotReadyCache), as client-go's
// informers list. So one object whose conversion to V fails makes every
// LIST and WATCH at V fail while it is stored: the informers and
// controllers that watch the resource at V stop syncing.

// AfterWriteRead is the object as a GET at one version NEW serves returns
// it after its next write (the no-op update, which stores it at NEW's
// storage version), compared with what a GET at that version returns
// before (the object as stored under OLD, read under NEW).
type AfterWriteRead struct {
	Version string         `json:"version"`
	Object  map[string]any `json:"object"`
	// Changes are from the read at Version before the write to the read
	// after it: what readers of Version see added, lost (removed) and
	// changed. Empty when they read the same.
	Changes Changes `json:"changes"`
	// Diff is the unified YAML diff, apiVersion aside; empty when the same.
	Diff string `json:"diff,omitempty"`
	// before is the read at Version before the write.
	before map[string]any
}

// ListFailure is a version at which a LIST or a WATCH of the object's
// whole resource fails (the apiserver answers 500) while the object is
// stored at StoredAt: its conversion from StoredAt to Version fails, and a
// list converts every item.
type ListFailure struct {
	Version  string `json:"version"`
	StoredAt string `json:"storedAt"`
	// AfterWrite: the object is stored so by its next write (at NEW's
	// storage version); otherwise, as it is stored now.
	AfterWrite bool   `json:"afterWrite,omitempty"`
	Message    string `json:"message"`
	// Unknown, when set, says why whether the conversion fails with
	// main's state is unknown (ConversionUnknown).
	Unknown string `json:"unknown,omitempty"`
}

func (f ListFailure) String() string {
	if f.Unknown != "" {
		return f.unknownString()
	}
	when := "while it is stored at " + f.StoredAt
	if f.AfterWrite {
		when = "after its next write (stored at " + f.StoredAt + ")"
	}
	return fmt.Sprintf("%s, every LIST and WATCH of the resource at %s fails, since the apiserver converts every item and this one's conversion fails "+
		"(500 for a LIST read from etcd, as one with a limit is while the watch cache is not ready; 429 \"storage is (re)initializing\" for the other LISTs and every WATCH, "+
		"since the watch cache at %s cannot initialize): %s", when, f.Version, f.Version, f.Message)
}

// storedReads reads one stored object under a definition at the versions
// asked for, each once (the API's code is called once per conversion).
type storedReads struct {
	d    *definition
	etcd map[string]any
	got  map[string]storedRead
}

type storedRead struct {
	obj map[string]any
	err error
}

func newStoredReads(d *definition, etcd map[string]any) *storedReads {
	return &storedReads{d: d, etcd: etcd, got: map[string]storedRead{}}
}

// at is the object as a GET at version returns it (fromStorage), a copy.
func (s *storedReads) at(version string) (map[string]any, error) {
	r, ok := s.got[version]
	if !ok {
		r.obj, r.err = s.d.fromStorage(s.etcd, version)
		s.got[version] = r
	}
	if r.obj == nil {
		return nil, r.err
	}
	return runtime.DeepCopyJSON(r.obj), r.err
}

// storedAt is the version the object is stored at.
func (s *storedReads) storedAt() string {
	av, _ := s.etcd["apiVersion"].(string)
	return versionOf(av)
}

// servedVersions are the versions d serves, in spec.versions order.
func (d *definition) servedVersions() []string {
	var out []string
	for _, v := range d.crd.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	return out
}

// listFailures reads the stored object at every version d serves but the
// one it is stored at (which converts nothing) and returns those whose
// conversion fails: a LIST or WATCH at them fails while it is stored so.
func listFailures(d *definition, s *storedReads, afterWrite bool) ([]ListFailure, error) {
	var out []ListFailure
	storedAt := s.storedAt()
	for _, v := range d.servedVersions() {
		if v == storedAt {
			continue
		}
		_, err := s.at(v)
		var ce *ConversionError
		switch {
		case errors.As(err, &ce):
			out = append(out, ListFailure{Version: v, StoredAt: storedAt, AfterWrite: afterWrite, Message: ce.Err.Error(), Unknown: ce.Setup})
		case err != nil:
			return nil, err
		}
	}
	return out, nil
}

// afterWriteReads compares, at every version d (NEW) serves but its
// storage version (whose read after the write is rb.afterWrite), the
// object as read now (before) with the object as read after its next
// write (rb.afterEtcd, the no-op update as stored). A version whose read
// fails before the write (its LIST fails: listFailures) is left out; one
// whose read fails after it is a ListFailure of the object as the write
// stores it.
func afterWriteReads(d *definition, before *storedReads, rb readBack) ([]AfterWriteRead, []ListFailure, error) {
	if !rb.converted || rb.afterWrite == nil || rb.afterEtcd == nil {
		return nil, nil, nil
	}
	after := newStoredReads(d, rb.afterEtcd)
	after.got[d.storageVersion] = storedRead{obj: rb.afterWrite.Object}
	fails, err := listFailures(d, after, true)
	if err != nil {
		return nil, nil, err
	}
	var reads []AfterWriteRead
	for _, v := range d.servedVersions() {
		if v == d.storageVersion {
			continue
		}
		now, err := before.at(v)
		if err != nil {
			var ce *ConversionError
			if errors.As(err, &ce) {
				continue
			}
			return nil, nil, err
		}
		obj, err := after.at(v)
		if err != nil {
			var ce *ConversionError
			if errors.As(err, &ce) {
				continue // in fails
			}
			return nil, nil, err
		}
		r := AfterWriteRead{Version: v, Object: obj, Changes: diffObjects(now, obj).sorted(), before: now}
		if a, b := withoutAPIVersion(now), withoutAPIVersion(obj); !reflect.DeepEqual(a, b) {
			if r.Diff, err = unifiedYAML("read at "+v+" now", "read at "+v+" after its next write", a, b); err != nil {
				return nil, nil, err
			}
		}
		reads = append(reads, r)
	}
	return reads, fails, nil
}

// lossAfterWrite says whether readers of some version NEW serves lose or
// see changed data after the object's next write: at a version other than
// the storage version (r.AfterWriteAt), or at the storage version itself
// (r.AfterWrite against r.AtStorageVersion).
func (r *Record) lossAfterWrite() bool {
	for _, a := range r.AfterWriteAt {
		if a.Changes.loses() {
			return true
		}
	}
	return r.storageLoss().loses()
}

// storageLoss are the changes, at NEW's storage version, from the read
// before the next write to the read after it.
func (r *Record) storageLoss() Changes {
	if r.AfterWrite == nil || r.AtStorageVersion == nil || r.AfterWrite.Diff == "" {
		return Changes{}
	}
	return diffObjects(r.AtStorageVersion.Object, r.AfterWrite.Object).sorted()
}

// describeAfterWrite says in words what readers of a.Version see change:
// `loses spec.x: 1; changes spec.y: "10m" → "10m0s"; gains spec.z: 12`.
func describeAfterWrite(before, after map[string]any, c Changes) string {
	var parts []string
	list := func(verb string, paths []string, value func(string) string) {
		if len(paths) == 0 {
			return
		}
		var items []string
		for _, p := range paths {
			items = append(items, p+": "+value(p))
		}
		parts = append(parts, verb+" "+strings.Join(items, ", "))
	}
	list("loses", c.Removed, func(p string) string { return shortJSON(valueAtPath(before, p)) })
	list("changes", c.Changed, func(p string) string {
		return shortJSON(valueAtPath(before, p)) + " → " + shortJSON(valueAtPath(after, p))
	})
	list("gains", c.Added, func(p string) string { return shortJSON(valueAtPath(after, p)) })
	return strings.Join(parts, "; ")
}

// valueAtPath is the value at a path as path.String writes it (nil when
// there is none).
func valueAtPath(obj map[string]any, p string) any {
	var found any
	var walk func(at path, v any) bool
	walk = func(at path, v any) bool {
		s := at.String()
		if s == p {
			found = v
			return true
		}
		if s != "" && !strings.HasPrefix(p, s) {
			return false
		}
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if walk(at.child(k), c) {
					return true
				}
			}
		case []any:
			for i, c := range v {
				if walk(at.child(i), c) {
					return true
				}
			}
		}
		return false
	}
	walk(nil, obj)
	return found
}

// shortJSON is v as JSON, cut to 80 bytes.
func shortJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
