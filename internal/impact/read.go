package impact

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
)

// readBack is step 2: the stored object as a GET under NEW returns it.
type readBack struct {
	// version is the version it is read at: the object's own if NEW serves
	// it, else NEW's storage version.
	version string
	// served says whether NEW serves the object's own version.
	served bool
	object map[string]any
	// converted: NEW's CRD converts between versions with the API's own
	// code (--convert).
	converted bool
	// atStorage is, under --convert, the object as a GET at NEW's storage
	// version returns it: what a controller of that version (the hub)
	// reads.
	atStorage *VersionRead
	// afterWrite is, under --convert, the object as a GET at NEW's storage
	// version returns it after the object's next write.
	afterWrite *VersionRead
	// afterEtcd is, with afterWrite, what the next write stores (at NEW's
	// storage version).
	afterEtcd map[string]any
	// back is, under --convert, when the object is read at another version
	// than its own (NEW no longer serves it), the read converted back to
	// its own version by the API's code: what the object loses or gains
	// is the difference from it, in its own version's terms (a renamed
	// field is no loss).
	back map[string]any
}

// VersionRead is an object as a GET at one version returns it.
type VersionRead struct {
	Version string         `json:"version"`
	Object  map[string]any `json:"object"`
	// Diff is the unified YAML diff to this, apiVersion aside, from the
	// object as read before (Record.AtStorageVersion: from the read at
	// Record.ReadVersion; Record.AfterWrite: from AtStorageVersion); empty
	// when they are the same.
	Diff string `json:"diff,omitempty"`
}

// record puts into r what the read adds to it under --convert: the reads
// at NEW's storage version and, read at another version than the
// object's, the changes from the stored object to the read converted back
// to the object's version (r.Changes, which the categories follow).
func (rb readBack) record(r *Record) {
	if !rb.converted {
		return
	}
	r.Conversion = ConversionProgram
	r.AtStorageVersion = rb.atStorage
	r.AfterWrite = rb.afterWrite
	if rb.back != nil {
		r.ChangesAt = versionOf(r.APIVersion)
		r.Changes = diffObjects(r.Stored, rb.back).sorted()
	}
}

// read is step 2. The apiserver does not rewrite stored objects when a CRD
// changes: every read decodes them with the current CRD (the storage
// codec, fromStorage): pruned with NEW's schema of the version they are
// stored at, non-nullable nulls without a default dropped, defaulted, then
// converted to the version asked for (under --convert, by the API's code,
// and read at NEW's storage version too) and pruned with its schema. What
// read adds (defaults) or drops (pruned fields) is persisted by the
// object's next write.
//
// requested is the object's version. If NEW no longer serves it, a GET at
// it is refused (404) and the object is read at NEW's storage version (or
// its first served version, if the storage version is not served), as a
// client that moved to it reads it.
//
// stored reads the stored object (each version once: storedReads). reuse
// lets afterWrite take the read at the storage version for the conversion
// of the next write when they are the same conversion (the Analyzer's, but
// for TestAfterWriteReuse: !convertAgain).
func read(newDef *definition, stored *storedReads, requested string, reuse bool) (readBack, error) {
	etcd := stored.etcd
	rb := readBack{version: requested, served: true}
	if v, ok := newDef.versions[requested]; !ok || !v.served {
		rb.version, rb.served = newDef.fallbackVersion(), false
	}
	if rb.version == "" {
		return rb, fmt.Errorf("CRD %s: NEW serves no version", newDef.crd.Name)
	}
	obj, err := stored.at(rb.version)
	rb.object = obj
	if err != nil || converterOf(newDef) == nil {
		return rb, atRequest(err, RequestRead)
	}
	rb.converted = true
	rb.atStorage = &VersionRead{Version: newDef.storageVersion, Object: obj}
	if rb.version != newDef.storageVersion {
		hub, err := stored.at(newDef.storageVersion)
		if err != nil {
			return rb, atRequest(err, RequestReadAtStorage)
		}
		rb.atStorage.Object = hub
		rb.atStorage.Diff, err = unifiedYAML("read at "+rb.version, "read at "+newDef.storageVersion, withoutAPIVersion(obj), withoutAPIVersion(hub))
		if err != nil {
			return rb, err
		}
	}
	// a version NEW removed altogether has no schema to count at
	if _, ok := newDef.versions[requested]; !rb.served && ok {
		if rb.back, err = newDef.convertTo(obj, requested); err != nil {
			return rb, atRequest(err, RequestReadBack)
		}
	}
	storedAt, _ := etcd["apiVersion"].(string)
	rb.afterWrite, rb.afterEtcd, err = afterWrite(newDef, rb.version, obj, rb.atStorage.Object, reuse && storedAt == newDef.apiVersion(rb.version))
	return rb, atRequest(err, RequestNextWrite)
}

// afterWrite is the object read at version (obj) after its next write, a
// no-op update, read at d's storage version (now: as read at it before),
// in the apiserver's order: the request is decoded and defaulted in its
// own version (the request codec, unstructuredNegotiatedSerializer's
// DecoderToVersion: its defaulter runs before any conversion), converted
// to the storage version by the API's code and pruned with that version's
// schema (the storage codec's encoder, schemaCoercingConverter), stored;
// the read then defaults it in the storage version. It is nil when the
// update's decoding fails (the update is refused: step 3 says why).
//
// storedAtVersion says that the object is stored at version: the read at
// version converted nothing, and the read at the storage version (now)
// converted obj itself (read passes false when its caller asks for every
// conversion again). If the update's decoding changes nothing either,
// the write converts obj as that read did, and now is what it stores: the
// API's code is not called again for the same answer.
//
// It also returns what the write stores (at the storage version).
func afterWrite(d *definition, version string, obj, now map[string]any, storedAtVersion bool) (*VersionRead, map[string]any, error) {
	p, err := d.versions[version].pipeline()
	if err != nil {
		return nil, nil, err
	}
	dec := p.Decode(obj)
	if len(dec.Errors) > 0 {
		return nil, nil, nil
	}
	var etcd map[string]any
	if storedAtVersion && reflect.DeepEqual(dec.Object, obj) {
		etcd = runtime.DeepCopyJSON(now)
	} else if etcd, err = d.toStorage(dec.Object); err != nil {
		return nil, nil, err
	}
	after, err := d.fromStorage(etcd, d.storageVersion)
	if err != nil {
		return nil, nil, err
	}
	out := &VersionRead{Version: d.storageVersion, Object: after}
	// equal objects have an empty diff: most are not encoded for nothing
	if !reflect.DeepEqual(withoutAPIVersion(now), withoutAPIVersion(after)) {
		out.Diff, err = unifiedYAML("read at "+d.storageVersion+" now", "after its next write", withoutAPIVersion(now), withoutAPIVersion(after))
	}
	return out, etcd, err
}

// fallbackVersion is the version objects are read at when their own is not
// served: the storage version if served, else the first served version.
func (d *definition) fallbackVersion() string {
	if v := d.versions[d.storageVersion]; v != nil && v.served {
		return v.name
	}
	for _, v := range d.crd.Spec.Versions {
		if v.Served {
			return v.Name
		}
	}
	return ""
}
