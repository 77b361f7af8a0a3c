package impact

import "fmt"

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
}

// VersionRead is an object as a GET at one version returns it.
type VersionRead struct {
	Version string         `json:"version"`
	Object  map[string]any `json:"object"`
	// Diff is the unified YAML diff from the object as read at its own
	// version (Record.ReadVersion) to this, apiVersion aside; empty when
	// they are the same.
	Diff string `json:"diff,omitempty"`
}

// record puts into r what the read adds to it under --convert.
func (rb readBack) record(r *Record) {
	if rb.converted {
		r.Conversion = ConversionProgram
		r.AtStorageVersion = rb.atStorage
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
func read(newDef *definition, etcd map[string]any, requested string) (readBack, error) {
	rb := readBack{version: requested, served: true}
	if v, ok := newDef.versions[requested]; !ok || !v.served {
		rb.version, rb.served = newDef.fallbackVersion(), false
	}
	if rb.version == "" {
		return rb, fmt.Errorf("CRD %s: NEW serves no version", newDef.crd.Name)
	}
	obj, err := newDef.fromStorage(etcd, rb.version)
	rb.object = obj
	if err != nil || converterOf(newDef) == nil {
		return rb, err
	}
	rb.converted = true
	rb.atStorage = &VersionRead{Version: newDef.storageVersion, Object: obj}
	if rb.version != newDef.storageVersion {
		hub, err := newDef.fromStorage(etcd, newDef.storageVersion)
		if err != nil {
			return rb, err
		}
		rb.atStorage.Object = hub
		rb.atStorage.Diff, err = unifiedYAML("read at "+rb.version, "read at "+newDef.storageVersion, withoutAPIVersion(obj), withoutAPIVersion(hub))
		if err != nil {
			return rb, err
		}
	}
	return rb, nil
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
