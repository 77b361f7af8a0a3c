package impact

import (
	"slices"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// Record is what happens to one object.
type Record struct {
	// Source is where the object was read: FILE:DOC, or FILE:DOC:ITEM for
	// an item of a List (1-based). Set by the caller.
	Source     string `json:"source,omitempty"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// GenerateName is the object's metadata.generateName when it has no
	// name (the apiserver generates one): the report names it by it.
	GenerateName string `json:"generateName,omitempty"`
	CRD          string `json:"crd"`
	// Categories classify the record; see the Category constants.
	Categories []string `json:"categories"`
	// Fails: the object loses data or has a request refused (a category
	// that makes the command exit 1).
	Fails bool `json:"fails"`

	// Step 1: why OLD refuses the object (it was stored as if valid).
	InvalidUnderOld []Problem `json:"invalidUnderOld,omitempty"`
	// NewOnly: the object is at a version that only NEW serves, so it was
	// not stored before the change; it was checked as a create under NEW,
	// and InvalidUnderNew are why NEW refuses it. No other step ran.
	NewOnly         bool      `json:"-"`
	InvalidUnderNew []Problem `json:"invalidUnderNew,omitempty"`
	// CRDFindings are the findings of the object's CRD (see Finding).
	CRDFindings []Finding `json:"crdFindings,omitempty"`

	// Step 2: the version the object is read at under NEW (its own, unless
	// NEW no longer serves it), what read adds, drops and changes, and the
	// unified diff of the object's YAML, stored (OLD) to read (NEW),
	// apiVersion aside.
	ReadVersion string  `json:"readVersion,omitempty"`
	Changes     Changes `json:"changes"`
	// ChangesAt is set under --convert when the object is read at another
	// version than its own: Changes are then from the stored object to the
	// read converted back to this version (the object's) by the API's code,
	// so that a renamed field is no loss. Diff still shows the read as it
	// is.
	ChangesAt string `json:"changesAt,omitempty"`
	Diff      string `json:"diff,omitempty"`

	// Conversion is ConversionProgram when NEW's CRD converts between
	// versions with the API's own code (--convert); empty otherwise (the
	// None strategy: only apiVersion changes).
	Conversion string `json:"conversion,omitempty"`
	// AtStorageVersion is, under --convert, the object as a GET at NEW's
	// storage version returns it (what a controller of that version, the
	// hub, reads): defaulted in the version it is stored at, converted by
	// the API's code, pruned with the storage version's schema.
	AtStorageVersion *VersionRead `json:"atStorageVersion,omitempty"`
	// AfterWrite is, under --convert, the object as a GET at NEW's storage
	// version returns it after its next write (the no-op update at
	// ReadVersion): defaulted in ReadVersion, converted by the API's code
	// to the storage version and stored, then defaulted in the storage
	// version when read.
	AfterWrite *VersionRead `json:"afterWrite,omitempty"`

	// AfterWriteAt is, under --convert, for each version NEW serves but
	// its storage version (whose read is AfterWrite), in spec.versions
	// order, the object as a GET at it returns it after the next write, and
	// the changes from what a GET at it returns before (afterwrite.go).
	AfterWriteAt []AfterWriteRead `json:"afterWriteAt,omitempty"`
	// ListFails are, under --convert, the versions at which a LIST or
	// WATCH of the whole resource fails (500) because this object's
	// conversion to them fails, while it is stored as now or as its next
	// write stores it.
	ListFails []ListFailure `json:"listFails,omitempty"`

	// ConversionFailed is, under --convert, a conversion that the API's
	// code failed: the apiserver answers the request that needs it with
	// an error (500), and the steps after it did not run.
	ConversionFailed *ConversionFailure `json:"conversionFailed,omitempty"`

	// Step 3: the no-op update, and the values held only by ratcheting.
	Update    *Update     `json:"update,omitempty"`
	Ratcheted []Ratcheted `json:"ratcheted,omitempty"`

	// Stored is the object as a GET under OLD returns it; Read as a GET
	// under NEW does (nil when not read).
	Stored map[string]any `json:"-"`
	Read   map[string]any `json:"-"`
}

// ConversionProgram is Record.Conversion under --convert.
const ConversionProgram = "program"

// Categories of a Record.
const (
	// Unchanged: read changes nothing, and the no-op update is accepted.
	Unchanged = "unchanged"
	// GainsDefaults: read adds fields (NEW's defaults).
	GainsDefaults = "gains-defaults"
	// LosesFields: read drops fields (NEW prunes them) or changes values;
	// the next write persists it.
	LosesFields = "loses-fields"
	// RefusedOnUpdate: the no-op update is refused.
	RefusedOnUpdate = "refused-on-update"
	// HeldByRatcheting: values NEW refuses are kept only because updates
	// do not change them.
	HeldByRatcheting = "held-by-ratcheting"
	// InvalidUnderOld: OLD itself refuses the object.
	InvalidUnderOld = "invalid-under-old"
	// VersionNotServed: NEW no longer serves the object's version.
	VersionNotServed = "version-not-served"
	// StorageVersionChanged: NEW stores the object at another version
	// (informational).
	StorageVersionChanged = "storage-version-changed"
	// CRDRemoved: NEW has no CRD for the object; deleting the CRD deletes it.
	CRDRemoved = "crd-removed"
	// CRDUpdateRefused: the apiserver refuses NEW as an update of OLD.
	CRDUpdateRefused = "crd-update-refused"
	// ConversionFailed: under --convert, the API's code fails to convert
	// the object, and the apiserver answers the request 500.
	ConversionFailed = "conversion-failed"
	// LosesAfterWrite: under --convert, after the object's next write
	// (stored at NEW's storage version), a GET at a version NEW serves
	// drops or changes data that a GET at it returned before.
	LosesAfterWrite = "loses-fields-after-write"
	// NewOnly: the object is at a version only NEW serves (OLD has no
	// such version, or no CRD of the kind): it is new with the change,
	// checked as a create under NEW (informational).
	NewOnly = "new-only"
	// InvalidUnderNew: NEW refuses the create of a new-only object.
	InvalidUnderNew = "invalid-under-new"
	// BreaksList: under --convert, the object's conversion to a version
	// NEW serves fails, so that every LIST and WATCH of the resource at
	// that version fails (500) while it is stored.
	BreaksList = "breaks-list"
)

// failing are the categories that make the command exit 1: data lost, a
// request refused, or a conversion whose outcome is unknown (as for
// objects-unreadable, a check must not pass on what it could not know).
var failing = []string{LosesFields, RefusedOnUpdate, InvalidUnderOld, VersionNotServed, CRDRemoved, CRDUpdateRefused, ConversionFailed,
	LosesAfterWrite, BreaksList, ConversionUnknown, InvalidUnderNew}

// fails says whether a category of the record makes the command exit 1.
func (r *Record) fails() bool {
	for _, c := range r.Categories {
		if slices.Contains(failing, c) {
			return true
		}
	}
	return false
}

// has says whether the record's CRD has a finding of this rule.
func (r *Record) has(rule string) bool {
	for _, f := range r.CRDFindings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// categories classifies the record.
func (r *Record) categories() []string {
	var out []string
	add := func(ok bool, c string) {
		if ok {
			out = append(out, c)
		}
	}
	if r.NewOnly {
		add(true, NewOnly)
		add(len(r.InvalidUnderNew) > 0, InvalidUnderNew)
		return out
	}
	add(len(r.InvalidUnderOld) > 0, InvalidUnderOld)
	add(r.has(FindingRemoved), CRDRemoved)
	add(r.has(FindingUpdateRefused), CRDUpdateRefused)
	add(r.ReadVersion != "" && r.ReadVersion != versionOf(r.APIVersion), VersionNotServed)
	add(len(r.Changes.Added) > 0, GainsDefaults)
	add(r.Changes.loses(), LosesFields)
	add(r.Update != nil && r.Update.Refused, RefusedOnUpdate)
	add(len(r.Ratcheted) > 0, HeldByRatcheting)
	failed, breaks, unknown := r.conversionOutcomes()
	add(failed, ConversionFailed)
	add(r.lossAfterWrite(), LosesAfterWrite)
	add(breaks, BreaksList)
	add(unknown, ConversionUnknown)
	if len(out) == 0 && r.Read != nil {
		out = append(out, Unchanged)
	}
	add(r.Read != nil && r.has(FindingStorageVersion), StorageVersionChanged)
	return out
}

// objectName is how the report names the object (manifest.ObjectName):
// namespace/name, or by its generateName when it has no name.
func (r *Record) objectName() string {
	return manifest.ObjectName(r.Namespace, r.Name, r.GenerateName)
}

func versionOf(apiVersion string) string {
	_, v, _ := strings.Cut(apiVersion, "/")
	return v
}
