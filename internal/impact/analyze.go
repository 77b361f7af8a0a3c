package impact

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/defaultdiff"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// Analyzer answers, for objects stored under OLD, what they become under
// NEW. Build it with New.
type Analyzer struct {
	// Namespace is where a namespaced object without metadata.namespace
	// is created, as kubectl's -n ("default" when empty); with
	// ExplicitNamespace (-n was given), an object in another namespace is
	// refused as kubectl refuses it (ErrNamespace).
	Namespace         string
	ExplicitNamespace bool

	old, new map[string]*definition // by CRD name
	byKind   map[schema.GroupKind]*definition
	// newByKind are NEW's CRDs by kind: an object at a version that only
	// NEW serves is created under NEW (newOnly)
	newByKind map[schema.GroupKind]*definition
	groups    map[string]bool // of OLD's and NEW's CRDs
	oldOrder  []string        // OLD's CRD names, in input order
	findings  map[string][]Finding

	// fullPath turns off the shortcuts of Object that cannot change a
	// record, for the tests that compare the records with and without
	// them (TestFastPathIsFullPath, TestCreatedAsReadRandomSchemas), each
	// on its own Analyzer; false as New makes it.
	fullPath bool
	// convertAgain has the next write's conversion (afterWrite) asked of
	// the API's code again even when the read at the storage version made
	// the same one, for TestAfterWriteReuse; false as New makes it.
	convertAgain bool
	// skips count, for the tests, the writes the shortcuts spared:
	// heldByRatcheting's main write (createdAsRead), the no-op update's
	// write of the status (statusUpdateFollows).
	skips struct{ createdAsRead, statusUpdate atomic.Int64 }
}

// InvalidCRDError is a CRD of OLD or NEW that the apiserver refuses
// (crdcheck.ValidateCRD), or one listed twice: unusable input.
type InvalidCRDError struct {
	Side   string // "OLD" or "NEW"
	CRD    string
	Errors field.ErrorList
}

func (e *InvalidCRDError) Error() string {
	return fmt.Sprintf("%s: CRD %s is invalid: %v", e.Side, e.CRD, e.Errors.ToAggregate())
}

// ErrNoCRD is an object that no served version of an OLD or NEW CRD
// defines: unusable input. (An object at a version that only NEW serves is
// created under NEW: see Analyzer.Object.)
var ErrNoCRD = errors.New("no served CRD version")

// ErrNamespace is an object that kubectl would not send with -n: it is in
// another namespace. Unusable input. Errors that are it say so in kubectl's
// words.
var ErrNamespace = errors.New("the object's namespace is not -n's")

// namespaceError is kubectl's refusal, which errors.Is finds to be
// ErrNamespace.
type namespaceError struct{ err error }

func (e namespaceError) Error() string        { return e.err.Error() }
func (e namespaceError) Is(target error) bool { return target == ErrNamespace }

// New validates the CRDs of OLD and NEW as the apiserver does on create
// (crdcheck.ValidateCRD) and compares each CRD of OLD with NEW's of the
// same name (findings of step 4, and the CRD update's own validation).
// Each side is the CRDs the apiserver would serve (crdcheck.ServedCRDs):
// identical copies once, conflicting ones refused.
func New(ctx context.Context, old, new []*apiextensionsv1.CustomResourceDefinition) (*Analyzer, error) {
	a := &Analyzer{byKind: map[schema.GroupKind]*definition{}, newByKind: map[schema.GroupKind]*definition{}, groups: map[string]bool{}, findings: map[string][]Finding{}}
	cache := crdcheck.OpenCheckCache()
	var err error
	if old, err = crdcheck.ServedCRDs(old); err != nil {
		return nil, fmt.Errorf("OLD: %w", err)
	}
	if new, err = crdcheck.ServedCRDs(new); err != nil {
		return nil, fmt.Errorf("NEW: %w", err)
	}
	if a.old, err = definitions(ctx, cache, "OLD", old); err != nil {
		return nil, err
	}
	if a.new, err = definitions(ctx, cache, "NEW", new); err != nil {
		return nil, err
	}
	for _, c := range old {
		d := a.old[c.Name]
		a.oldOrder = append(a.oldOrder, c.Name)
		a.byKind[d.groupKind()] = d
		a.findings[c.Name] = crdFindings(ctx, cache, d, a.new[c.Name])
	}
	for _, c := range new {
		d := a.new[c.Name]
		a.newByKind[d.groupKind()] = d
	}
	for _, side := range []map[string]*definition{a.old, a.new} {
		for _, d := range side {
			a.groups[d.crd.Spec.Group] = true
		}
	}
	return a, nil
}

// definitions validates (through the check cache, in parallel) and indexes
// one side's CRDs, which ServedCRDs has made one per name. The first CRD
// in input order that is invalid is the error.
func definitions(ctx context.Context, cache *crdcheck.CheckCache, side string, crds []*apiextensionsv1.CustomResourceDefinition) (map[string]*definition, error) {
	out := map[string]*definition{}
	validation := cache.ValidateCRDs(ctx, crds)
	for i, c := range crds {
		if errs := validation[i]; len(errs) > 0 {
			return nil, &InvalidCRDError{Side: side, CRD: c.Name, Errors: errs}
		}
		d, err := newDefinition(c)
		if err != nil {
			return nil, &InvalidCRDError{Side: side, CRD: c.Name, Errors: field.ErrorList{field.InternalError(nil, err)}}
		}
		out[c.Name] = d
	}
	return out, nil
}

// Findings are the CRD-level findings, CRD by CRD in OLD's order.
func (a *Analyzer) Findings() []Finding {
	var out []Finding
	for _, name := range a.oldOrder {
		out = append(out, a.findings[name]...)
	}
	return out
}

// DefaultChange is a default added, changed or removed in one CRD.
type DefaultChange struct {
	CRD string `json:"crd"`
	defaultdiff.Change
}

// DefaultChanges lists, CRD by CRD (OLD's order, then NEW's new CRDs), the
// defaults that differ between OLD and NEW (defaultdiff.Diff).
func (a *Analyzer) DefaultChanges(old, new []*apiextensionsv1.CustomResourceDefinition) []DefaultChange {
	var out []DefaultChange
	var names []string
	for _, c := range old {
		names = append(names, c.Name)
	}
	for _, c := range new {
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	for _, name := range names {
		var o, n *apiextensionsv1.CustomResourceDefinition
		if d := a.old[name]; d != nil {
			o = d.crd
		}
		if d := a.new[name]; d != nil {
			n = d.crd
		}
		for _, c := range defaultdiff.Diff(o, n) {
			out = append(out, DefaultChange{CRD: name, Change: c})
		}
	}
	return out
}

// KnowsGroup says whether a CRD of OLD or NEW has the API group.
func (a *Analyzer) KnowsGroup(group string) bool { return a.groups[group] }

// Object runs the four steps on one object of OLD (a copy: obj is not
// modified). A namespaced object without a namespace is created in
// a.Namespace (default), and a cluster-scoped one without its namespace,
// as kubectl sends them and the apiserver stores them. An object at a
// version that OLD does not serve (OLD has no such version, or no CRD of
// its kind) but NEW does is new with the change: it is created under NEW
// (newOnly). The error is ErrNoCRD (wrapped) when no served version of an
// OLD or NEW CRD defines the object, ErrNamespace (wrapped) when kubectl
// would refuse to send it, or an internal error.
func (a *Analyzer) Object(ctx context.Context, obj map[string]any) (*Record, error) {
	if _, _, err := manifest.TypeMeta(obj); err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	def := a.byKind[gvk.GroupKind()]
	if !def.serves(gvk.Version) {
		if nd := a.newByKind[gvk.GroupKind()]; nd.serves(gvk.Version) {
			return a.newOnly(ctx, nd, gvk, u)
		}
		return nil, fmt.Errorf("%w for apiVersion %q, kind %q", ErrNoCRD, u.GetAPIVersion(), u.GetKind())
	}
	p, err := def.versions[gvk.Version].pipeline()
	if err != nil {
		return nil, err
	}
	ns := a.namespace()
	// The input is an object as the apiserver stored it (a dump), and its
	// create under OLD is how it came to be stored: what the server set on
	// it (uid, creationTimestamp, resourceVersion, generation,
	// managedFields) is taken out before kubectl's request is made of it,
	// and put back into what is stored (store), as a GET returns it and an
	// update of what was read sends it. kubectl would clear the
	// resourceVersion (KubectlRequest), as the apiserver would refuse it,
	// and the apiserver overwrites the rest; taking them out here, before
	// KubectlRequest drops the resourceVersion, keeps the dump's in the
	// stored object and in the updates of step 3, as the apiserver holds
	// it, while the create itself is kubectl's, as normalize's is.
	stripped, server := withoutServerSet(obj)
	sent, req, err := p.KubectlRequest(stripped, ns, a.ExplicitNamespace)
	if err != nil {
		return nil, namespaceError{err}
	}
	r := &Record{APIVersion: u.GetAPIVersion(), Kind: gvk.Kind, Name: u.GetName(), CRD: def.crd.Name}
	if r.Name == "" {
		r.GenerateName = u.GetGenerateName()
	}
	if p.Namespaced() {
		r.Namespace = req.Namespace
	}
	err = a.steps(ctx, def, gvk.Version, runtime.DeepCopyJSON(sent), server, req, r)
	// a conversion the API's code fails is the object's: the apiserver
	// answers that request 500, and the steps after it do not run
	var ce *ConversionError
	if errors.As(err, &ce) {
		r.ConversionFailed = &ConversionFailure{Request: ce.Request, From: ce.From, To: ce.To, Message: ce.Err.Error(), Unknown: ce.Setup}
		err = nil
	}
	r.Categories = r.categories()
	r.Fails = r.fails()
	return r, err
}

// namespace is where a namespaced object without one is sent: -n's, or
// default.
func (a *Analyzer) namespace() string {
	if a.Namespace == "" {
		return metav1.NamespaceDefault
	}
	return a.Namespace
}

// serves says whether the CRD d (nil: none) serves the version.
func (d *definition) serves(version string) bool {
	return d != nil && d.versions[version] != nil && d.versions[version].served
}

// newOnly is an object at a version that only NEW serves, of def, a CRD
// of NEW: no object can be stored at it before the change, so it is no
// stored object whose upgrade is in question but one that will be created
// after it (a sample or manifest of the new version, or of a new CRD). It
// is checked as what it will meet, its create under NEW, sent as kubectl
// sends it: accepted, it is new-only and nothing else; refused, it is
// also invalid-under-new, and the command exits 1, as on any refusal.
func (a *Analyzer) newOnly(ctx context.Context, def *definition, gvk schema.GroupVersionKind, u *unstructured.Unstructured) (*Record, error) {
	p, err := def.versions[gvk.Version].pipeline()
	if err != nil {
		return nil, err
	}
	// a dump's server-set metadata is not sent (nor, for this object,
	// put back: it was never stored), as for a create under OLD
	stripped, _ := withoutServerSet(u.Object)
	sent, req, err := p.KubectlRequest(stripped, a.namespace(), a.ExplicitNamespace)
	if err != nil {
		return nil, namespaceError{err}
	}
	r := &Record{APIVersion: u.GetAPIVersion(), Kind: gvk.Kind, Name: u.GetName(), CRD: def.crd.Name}
	if r.Name == "" {
		r.GenerateName = u.GetGenerateName()
	}
	if p.Namespaced() {
		r.Namespace = req.Namespace
	}
	res := p.Create(ctx, sent, req)
	r.InvalidUnderNew = fromErrorList(res.Errors)
	if res.Refused != nil {
		r.InvalidUnderNew = sortProblems(append(r.InvalidUnderNew, fromError(res.Refused)...))
	}
	r.NewOnly = true
	r.Categories = r.categories()
	r.Fails = r.fails()
	return r, nil
}

// steps runs steps 1 to 4 into r; it stops where the next step cannot run.
func (a *Analyzer) steps(ctx context.Context, def *definition, version string, obj map[string]any, server serverSet, req objectpath.Request, r *Record) error {
	st, err := store(ctx, def.versions[version], obj, server, req)
	if err != nil {
		return atRequest(err, RequestCreate)
	}
	r.InvalidUnderOld, r.Stored, r.CRDFindings = st.problems, st.object, a.findings[def.crd.Name]
	if st.undecodable {
		return nil
	}
	newDef := a.new[def.crd.Name]
	if newDef == nil || r.has(FindingUpdateRefused) {
		return nil
	}
	reads := newStoredReads(newDef, st.etcd)
	if converterOf(newDef) != nil {
		// every version NEW serves reads the object, which a LIST there
		// converts: those that fail are found before the object's own
		// read, which may be one of them
		if r.ListFails, err = listFailures(newDef, reads, false); err != nil {
			return err
		}
	}
	rb, err := read(newDef, reads, version, !a.convertAgain)
	if err != nil {
		return err
	}
	after, afterFails, err := afterWriteReads(newDef, reads, rb)
	if err != nil {
		return atRequest(err, RequestReadAfterWrite)
	}
	r.AfterWriteAt, r.ListFails = after, append(r.ListFails, afterFails...)
	r.ReadVersion, r.Read = rb.version, rb.object
	r.Changes = diffObjects(st.object, rb.object).sorted()
	// equal objects have equal YAML, whose diff is empty: an object read
	// as it was stored (the common case) is not encoded twice for nothing
	if stored, read := withoutAPIVersion(st.object), withoutAPIVersion(rb.object); a.fullPath || !reflect.DeepEqual(stored, read) {
		if r.Diff, err = unifiedYAML("stored (OLD)", "read (NEW)", stored, read); err != nil {
			return err
		}
	}
	rb.record(r)
	p, err := newDef.versions[rb.version].pipeline()
	if err != nil {
		return err
	}
	// the no-op update and the updates that find what ratcheting holds
	// send the same body (newBody)
	b := newBody(p, rb.object)
	b.redecode = a.fullPath
	// asIfNew's status write goes first: when it finds nothing, the no-op
	// update's own write of the status need not be sent
	// (statusUpdateFollows)
	_, status := p.Strategies()
	statusWrite := status != nil && hasStatus(rb.object)
	statusAsNewProblems := statusAsNew(ctx, p, b)
	statusFollows := statusWrite && !a.fullPath && statusUpdateFollows(newDef, rb.version, rb.object, statusAsNewProblems)
	if statusFollows {
		a.skips.statusUpdate.Add(1)
	}
	r.Update = noopUpdate(ctx, p, b, statusFollows)
	// asIfNew's main write, unless createdAsRead proves it finds nothing
	mainWrite := a.fullPath || !createdAsRead(def, newDef, version, st, rb, status != nil, r.Update)
	if !mainWrite {
		a.skips.createdAsRead.Add(1)
	}
	if mainWrite || statusWrite {
		var main []Problem
		if mainWrite {
			main = mainAsNew(ctx, p, b)
		}
		r.Ratcheted = heldByRatcheting(ctx, p, b, r.Update.Problems, joinAsNew(main, statusWrite, statusAsNewProblems))
	}
	return nil
}
