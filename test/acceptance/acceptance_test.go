package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/conversion"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/diaglines"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/mutants"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// The objects of each served version: its samples (at most maxSamples, the
// first in file order) and randomObjects random ones (made valid under
// controller-gen's CRD where they can be); for each of them deleteMutants
// objects with one to three random properties deleted and misspellMutants
// with a random key misspelt; and for each required property they have
// (at most maxRequiredSites, those that controller-gen-default defaults
// otherwise first) one object without it and one with its key misspelt.
// Tuned so that the eleven first modules took about 90 s of CPU, generation
// included; the 38 take about 8 minutes on 2 cores shared with others'
// builds (docs/testing.md).
const (
	randomObjects   = 6
	deleteMutants   = 4
	misspellMutants = 2
	maxSamples      = 12
	// extraRaws more random objects of each version are written, not
	// created: their required properties that no other object has get
	// mutants
	extraRaws = 24
	// maxRequiredSites bounds the required properties of one version that
	// get a mutant each (without it, and misspelt); more are picked at
	// random.
	maxRequiredSites = 60
)

// defaultSeed is the seed of the random objects and mutants;
// ACCEPTANCE_SEED=<n> replays another.
const defaultSeed = 1929

// reportDisagreements is how many disagreements each module prints in
// full (object, fields, both answers); the others are counted by field.
const reportDisagreements = 12

func TestAcceptance(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches real API modules, generates their CRDs twice and creates objects under both; skipped with -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ref := realapistest.ReferenceBinary(t, root)
	ours := realapistest.OursBinary(t)
	seed := uint64(defaultSeed)
	if s := os.Getenv("ACCEPTANCE_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("ACCEPTANCE_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (ACCEPTANCE_SEED=<n> for another)", seed)

	start := time.Now()
	mods := realapis.Acceptance()
	if names := os.Getenv("ACCEPTANCE_MODULES"); names != "" {
		keep := strings.Split(names, ",")
		mods = slices.DeleteFunc(mods, func(m realapis.Module) bool { return !slices.Contains(keep, m.Name) })
		t.Logf("ACCEPTANCE_MODULES=%s: %d modules", names, len(mods))
	}
	// The modules are prepared in the background (downloads,
	// prepParallel at a time) and run in their order, GOMAXPROCS at a
	// time, each as soon as its workspace is ready.
	preps := prepareAll(t, mods)
	reports := make([]*report, len(mods))
	for i, m := range mods {
		reports[i] = &report{module: m}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, goruntime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				t.Run(mods[i].Name, func(t *testing.T) { acceptance(t, ref, ours, preps[i], seed, reports[i]) })
			}
		})
	}
	for i := range mods {
		next <- i
	}
	close(next)
	wg.Wait()
	t.Logf("all %d modules: %s", len(mods), time.Since(start).Round(time.Millisecond))
	t.Log("same acceptance and literals, per module:\n" + acceptanceTable(reports))
	t.Log("controller-gen-default's findings, per module (check 3):\n" + findingsTable(reports))
}

// ignoredMarkerMsg is the start of an unknown-marker or misplaced-marker
// finding's message: the marker as written (its definition's name, for a
// misplaced one), then why it is reported.
var ignoredMarkerMsg = regexp.MustCompile(`(\+kubebuilder:[^\s:]\S*?):? (?:controller-gen defines no such marker|is a marker of|the text after it)`)

// checkIgnoredMarkers: each unknown-marker and misplaced-marker finding is
// at a comment line of the module's source that holds the marker it names
// (the position is the comment's, on code its authors wrote), and the
// marker is one that controller-tools' collector reads as a marker: the
// line starts with "//", then blanks, then "+".
func checkIgnoredMarkers(t *testing.T, found []diaglines.Finding) {
	t.Helper()
	for _, f := range found {
		if f.Rule != "unknown-marker" && f.Rule != "misplaced-marker" {
			continue
		}
		m := ignoredMarkerMsg.FindStringSubmatch(f.Message)
		if m == nil || f.File == "" {
			t.Errorf("%s finding without a marker or a position: %s:%d: %s", f.Rule, f.File, f.Line, f.Message)
			continue
		}
		b, err := os.ReadFile(f.File)
		if err != nil {
			t.Error(err)
			continue
		}
		lines := strings.Split(string(b), "\n")
		if f.Line < 1 || f.Line > len(lines) {
			t.Errorf("%s:%d: no such line, for %s", f.File, f.Line, m[1])
			continue
		}
		text, ok := strings.CutPrefix(strings.TrimSpace(lines[f.Line-1]), "//")
		if !ok || !strings.HasPrefix(strings.TrimSpace(text), m[1]) {
			t.Errorf("%s:%d: %q is not the marker comment %s", f.File, f.Line, lines[f.Line-1], m[1])
		}
	}
}

// structDefaultFindings are the struct-default-not-empty findings a
// module has, and why each is one.
var structDefaultFindings = map[string]struct {
	n   int
	why string
}{
	"cluster-api-provider-azure": {1, "exp/api/v1beta1 AzureMachinePoolSpec.Strategy, `json:\"strategy,omitempty\"`: " +
		"+kubebuilder:default={type: \"RollingUpdate\", rollingUpdate: {maxSurge: 1, maxUnavailable: 0, deletePolicy: Oldest}}; " +
		"a Go client always sends strategy (encoding/json does not omit a struct), whose fields' own defaults give type RollingUpdate " +
		"and no rollingUpdate, while a manifest without strategy gets rollingUpdate too"},
	"karpenter": {1, "pkg/apis/v1 NodePoolSpec.Disruption, `json:\"disruption\"`: +kubebuilder:default:={consolidateAfter: \"0s\"}; " +
		"a Go client always sends disruption, whose consolidateAfter (NillableDuration, no omitempty) it writes \"Never\" when unset, " +
		"while a manifest without disruption gets \"0s\""},
	"capsule": {1, "api/v1beta2 CapsuleConfigurationSpec.CapsuleResources, `json:\"overrides,omitzero\"`: " +
		"+kubebuilder:default={TLSSecretName: ..., mutatingWebhookConfigurationName: ..., validatingWebhookConfigurationName: ...}, " +
		"a non-{} default on a non-pointer struct, which KEP-1929 forbids whatever the tag (docs/lint.md); " +
		"a warning for +kubebuilder:default"},
}

// prepParallel is how many modules are prepared (downloaded and loaded
// once by go list) at a time: mostly waiting on the module proxy.
const prepParallel = 4

// prep is one module's workspace, prepared in the background.
type prep struct {
	module realapis.Module
	done   chan struct{}
	ws     *realapis.Workspace
	err    error
	took   time.Duration
}

// prepareAll starts preparing every module, each in its own workspace
// (its dependencies at the versions of its own go.mod), prepParallel at a
// time.
func prepareAll(t *testing.T, mods []realapis.Module) []*prep {
	ctx := t.Context()
	sem := make(chan struct{}, prepParallel)
	var out []*prep
	for _, m := range mods {
		p := &prep{module: m, done: make(chan struct{})}
		dir := t.TempDir()
		out = append(out, p)
		go func() {
			defer close(p.done)
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				p.err = ctx.Err()
				return
			}
			defer func() { <-sem }()
			start := time.Now()
			p.ws, p.err = realapis.Prepare(ctx, dir, m)
			p.took = time.Since(start)
		}()
	}
	// after the test (its context canceled, which stops them), wait for
	// them before the temporary directories are removed
	t.Cleanup(func() {
		for _, p := range out {
			<-p.done
		}
	})
	return out
}

// report is what one module's run found.
type report struct {
	module  realapis.Module
	skipped bool
	took    time.Duration
	crds    int
	// versions checked, objects by origin
	versions                                      int
	requiredSites, sitesLeftOut, rawSites         int
	newDefaultSites, schemaNewDefaultSites        int
	unreached                                     []string
	samples, random, deleted, misspelt, refusedBy int
	noSamples                                     bool
	// disagreements by how they differ, and by the kinds of difference
	// in their fields (one disagreement may show two)
	byHow, byKind map[string]int
	// distinct sites: how + CRD + version + the first field where the
	// answers differ (indexes as [*])
	sites int
	// literals: defaults of controller-gen's CRD checked, and those
	// controller-gen-default writes otherwise (or not at all)
	literals, literalDiffs int
	// check 3
	stderrLines int
	findings    map[tallyKey]int
	// failed says which generator exited non-zero
	failed string
	// check 4: files of controller-gen, those that controller-gen-default
	// implicitDefaults=false writes alike but for ref() defaults, and
	// those it writes otherwise (or not at all, or only it writes)
	files, refOnlyFiles, byteDiffs int
	// check 5: sets of versions of one CRD whose schemas controller-gen
	// writes alike, and those whose schemas differ in ours
	versionGroups, versionDiffs int
}

// The kinds of disagreement.
const (
	refRefusesOursAccepts = mutants.RefRefusesOursAccepts
	refAcceptsOursRefuses = mutants.RefAcceptsOursRefuses
	otherFields           = mutants.OtherFields
)

func acceptance(t *testing.T, ref, ours string, p *prep, seed uint64, rep *report) {
	m := p.module
	waitStart := time.Now()
	<-p.done
	start := time.Now()
	defer func() { rep.took = time.Since(start) }()
	ws, err := p.ws, p.err
	if err != nil {
		if errors.Is(err, realapis.ErrFetch) && os.Getenv("CI") != "true" {
			rep.skipped = true
			t.Skipf("the Go module proxy refused %s or one of its dependencies, and the module cache does not hold it "+
				"(run once with the proxy reachable; offline afterwards). Under CI=true this fails.\n%v", m, err)
		}
		t.Fatal(err)
	}
	t.Logf("prepared %s in %s (waited %s for it)", m, p.took.Round(time.Millisecond), start.Sub(waitStart).Round(time.Millisecond))

	out := t.TempDir()
	dirRef, dirOurs := filepath.Join(out, "controller-gen"), filepath.Join(out, "controller-gen-default")
	dirPlain := filepath.Join(out, "controller-gen-default-implicitDefaults-false")
	// the three runs go side by side: controller-gen, controller-gen-default
	// with the project's options, and with crd:implicitDefaults=false
	var wg sync.WaitGroup
	var refOut, oursOut, plainOut string
	var refErr, oursErr, plainErr error
	genStart := time.Now()
	wg.Go(func() { refOut, refErr = generate(t.Context(), ws, ref, m.Args(dirRef)) })
	wg.Go(func() { oursOut, oursErr = generate(t.Context(), ws, ours, m.Args(dirOurs)) })
	wg.Go(func() {
		plainOut, plainErr = generate(t.Context(), ws, ours, m.Args(dirPlain, "implicitDefaults=false"))
	})
	wg.Wait()
	t.Logf("generated with controller-gen %s and controller-gen-default %s (and implicitDefaults=false): %s", realapis.ReferenceVersion, m.CRDArg(),
		time.Since(genStart).Round(time.Millisecond))
	// 0. exit status: wherever controller-gen succeeds with the project's
	// options, controller-gen-default succeeds with them
	if refErr != nil {
		rep.failed = "controller-gen fails"
		t.Fatalf("controller-gen %s: %v; the module cannot be compared with the project's options (pick another version in internal/testsupport/realapis)\n%s",
			strings.Join(m.Args(dirRef), " "), refErr, head(refOut, 40))
	}
	// where the apiserver refuses controller-gen's own CRDs for something
	// else than a default (two storage versions; a CEL rule over the cost
	// budget of this Kubernetes version), controller-gen-default's error
	// is the one the issue allows: it says so, and writes nothing
	if oursErr != nil {
		if why, ok := refusedAsWritten(t, dirRef, oursOut); ok {
			rep.failed = "controller-gen's CRDs are refused by the apiserver: " + why
			t.Logf("%s: controller-gen-default refuses what the apiserver refuses in controller-gen's CRDs, and says so: %s", m.Name, why)
			return
		}
	}
	var failed []string
	if oursErr != nil {
		failed = append(failed, m.CRDArg())
		t.Errorf("controller-gen-default exits non-zero where controller-gen %s exits 0 with the same options: %s: %v\n%s",
			realapis.ReferenceVersion, strings.Join(m.Args(dirOurs), " "), oursErr, head(errorLines(oursOut), 40))
	}
	if plainErr != nil {
		failed = append(failed, m.CRDArg("implicitDefaults=false"))
		t.Errorf("controller-gen-default exits non-zero where controller-gen %s exits 0: %s: %v\n%s",
			realapis.ReferenceVersion, strings.Join(m.Args(dirPlain, "implicitDefaults=false"), " "), plainErr, head(errorLines(plainOut), 40))
	}
	if len(failed) > 0 {
		rep.failed = "controller-gen-default exits non-zero: " + strings.Join(failed, "; ")
	}
	if oursErr != nil {
		t.FailNow()
	}

	// 4. byte identity with crd:implicitDefaults=false
	if plainErr == nil {
		rep.files, rep.refOnlyFiles, rep.byteDiffs = byteIdentity(t, ws, m, dirRef, dirPlain)
	}

	// 3. findings
	found, _ := diaglines.Parse(oursOut)
	rep.findings = tally(found)
	// No advice that would change an API for nothing: on these APIs every
	// non-{} default on a non-pointer struct is one the apiserver applies
	// to Go clients' objects too (a status under the status subresource,
	// flux) or one that only repeats the struct's own defaults
	// (external-secrets' Target), so struct-default-not-empty, whose fix is
	// "make the field a pointer", must not fire; but for the findings of
	// structDefaultFindings, each with its reason.
	want := structDefaultFindings[m.Name]
	got := 0
	for k, n := range rep.findings {
		if k.Rule == "struct-default-not-empty" {
			got += n
		}
	}
	switch {
	case got != want.n && want.n == 0:
		t.Errorf("%s: %d struct-default-not-empty findings, want none: each asks to change a type whose default Go clients and manifests already agree on", m.Name, got)
	case got != want.n:
		t.Errorf("%s: %d struct-default-not-empty findings, want %d: %s", m.Name, got, want.n, want.why)
	}
	checkIgnoredMarkers(t, found)
	if s := strings.TrimRight(oursOut, "\n"); s != "" {
		rep.stderrLines = strings.Count(s, "\n") + 1
	}

	refCRDs, err := crdcheck.LoadCRDs(dirRef)
	if err != nil {
		t.Fatal(err)
	}
	oursCRDs, err := crdcheck.LoadCRDs(dirOurs)
	if err != nil {
		t.Fatal(err)
	}
	oursByName := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, c := range oursCRDs {
		oursByName[c.Name] = c
	}
	if len(refCRDs) != len(oursCRDs) {
		t.Errorf("controller-gen wrote %d CRDs, controller-gen-default %d", len(refCRDs), len(oursCRDs))
	}
	rep.crds = len(refCRDs)

	// 2. literals
	var literalDiffs []string
	for _, rc := range refCRDs {
		oc := oursByName[rc.Name]
		if oc == nil {
			t.Errorf("%s: controller-gen-default wrote no CRD %s", m.Name, rc.Name)
			continue
		}
		n, diffs := literals(rc, oc)
		rep.literals += n
		literalDiffs = append(literalDiffs, diffs...)
	}
	rep.literalDiffs = len(literalDiffs)
	if len(literalDiffs) > 0 {
		t.Errorf("%s: %d of controller-gen's %d defaults are not written byte for byte by controller-gen-default:\n\t%s",
			m.Name, len(literalDiffs), rep.literals, strings.Join(literalDiffs, "\n\t"))
	} else {
		t.Logf("%s: controller-gen's %d defaults written byte for byte", m.Name, rep.literals)
	}

	// 5. versions whose schemas controller-gen writes alike stay alike
	var versionDiffs []string
	for _, rc := range refCRDs {
		if oc := oursByName[rc.Name]; oc != nil {
			n, broken, diffs := sameVersions(rc, oc)
			rep.versionGroups += n
			rep.versionDiffs += broken
			versionDiffs = append(versionDiffs, diffs...)
		}
	}
	if len(versionDiffs) > 0 {
		t.Errorf("%s: versions whose schemas controller-gen writes alike differ in controller-gen-default's CRDs:\n\t%s", m.Name, strings.Join(versionDiffs, "\n\t"))
	} else if rep.versionGroups > 0 {
		t.Logf("%s: %d sets of versions with the same schema in controller-gen's CRDs, the same in controller-gen-default's", m.Name, rep.versionGroups)
	}

	// 1. same acceptance
	samples, sampleLog := findSamples(ws.Dirs[m.Name], refCRDs)
	t.Log(sampleLog)
	rep.noSamples = len(samples) == 0

	var jobs []versionJob
	for _, rc := range refCRDs {
		oc := oursByName[rc.Name]
		if oc == nil {
			continue
		}
		if approve(rc) && approve(oc) {
			t.Logf("%s: %s is in a protected group: approved (%s) for the comparison, as the project's release pipeline does", m.Name, rc.Name, apiApproved)
		}
		if rc.Spec.Group == "" {
			// a kind in a package without +groupName (gatekeeper's
			// unversioned types): no apiserver takes it, so there is
			// nothing to compare; crd writes it unchecked, and says so
			if !strings.Contains(oursOut, "CRD "+rc.Name+": its package declares no +groupName") {
				t.Errorf("%s: controller-gen's CRD %s has no group, and controller-gen-default does not say so [crd-without-group]", m.Name, rc.Name)
			}
			t.Logf("%s: controller-gen's CRD %s has no group (its package has no +groupName), not compared; controller-gen-default warns", m.Name, rc.Name)
			continue
		}
		if errs := crdcheck.ValidateCRD(t.Context(), rc); len(errs) > 0 {
			t.Errorf("%s: controller-gen's CRD %s is invalid, not compared: %v", m.Name, rc.Name, errs.ToAggregate())
			continue
		}
		if errs := crdcheck.ValidateCRD(t.Context(), oc); len(errs) > 0 {
			t.Errorf("%s: controller-gen-default's CRD %s is invalid: %v", m.Name, rc.Name, errs.ToAggregate())
			continue
		}
		jobs = append(jobs, versionJobs(t, rc, oc, samples, seed)...)
	}
	rep.versions = len(jobs)
	results := make([]versionResult, len(jobs))
	objStart := time.Now()
	var next sync.Mutex
	i := 0
	var wg2 sync.WaitGroup
	for range goruntime.GOMAXPROCS(0) {
		wg2.Go(func() {
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(jobs) {
					return
				}
				results[j] = jobs[j].run(t.Context())
			}
		})
	}
	wg2.Wait()

	var all []disagreement
	for _, r := range results {
		if r.err != nil {
			t.Errorf("%s: %v", m.Name, r.err)
		}
		rep.samples += r.counts[originSample]
		rep.random += r.counts[originRandom]
		rep.deleted += r.counts[originDeleted]
		rep.misspelt += r.counts[originMisspelt]
		rep.refusedBy += r.refusedRandom
		rep.requiredSites += r.requiredSites
		rep.sitesLeftOut += r.sitesLeftOut
		rep.rawSites += r.rawSites
		rep.newDefaultSites += r.newDefaultSites
		rep.schemaNewDefaultSites += r.schemaNewDefaultSites
		rep.unreached = append(rep.unreached, r.unreached...)
		all = append(all, r.disagreements...)
	}
	total := rep.samples + rep.random + rep.deleted + rep.misspelt
	t.Logf("%s: %d CRDs, %d versions, %d objects (%d samples, %d random of which %d stay refused by controller-gen's CRD, %d with properties deleted, %d with a key misspelt; each of %d required properties deleted and misspelt alone: %d defaulted by controller-gen-default only, %d found only in random objects before they were made valid, %d more left out), each created under both CRDs in %s",
		m.Name, rep.crds, rep.versions, total, rep.samples, rep.random, rep.refusedBy, rep.deleted, rep.misspelt,
		rep.requiredSites, rep.newDefaultSites, rep.rawSites, rep.sitesLeftOut, time.Since(objStart).Round(time.Millisecond))

	if len(rep.unreached) > 0 {
		slices.Sort(rep.unreached)
		t.Logf("%s: %d of the %d required properties that controller-gen-default defaults otherwise are in no object (not under %d levels of the filler, or inside what it never writes):\n\t%s",
			m.Name, len(rep.unreached), rep.schemaNewDefaultSites, fillerDepth, strings.Join(rep.unreached[:min(20, len(rep.unreached))], "\n\t"))
	}
	rep.byHow = map[string]int{}
	sites := map[string][]disagreement{}
	var siteKeys []string
	rep.byKind = map[string]int{}
	for _, d := range all {
		rep.byHow[d.How]++
		for _, k := range d.kinds() {
			rep.byKind[k]++
		}
		k := d.How + " | " + d.crd + " " + d.version + " | " + indexRx.ReplaceAllString(d.Site(), "[*]")
		if sites[k] == nil {
			siteKeys = append(siteKeys, k)
		}
		sites[k] = append(sites[k], d)
	}
	rep.sites = len(siteKeys)
	if len(all) == 0 {
		t.Logf("%s: both CRDs agree on all %d objects", m.Name, total)
		return
	}
	slices.Sort(siteKeys)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %d of %d objects get different answers (%s; fields with %s); at %d distinct fields (how | CRD version | the first field where the answers differ: objects):",
		m.Name, len(all), total, howSummary(rep.byHow), kindSummary(rep.byKind), len(siteKeys))
	for _, k := range siteKeys {
		fmt.Fprintf(&sb, "\n\t%s: %d", k, len(sites[k]))
	}
	fmt.Fprintf(&sb, "\nthe first %d, one per field:", min(reportDisagreements, len(siteKeys)))
	for _, k := range siteKeys[:min(reportDisagreements, len(siteKeys))] {
		sb.WriteString("\n" + sites[k][0].String())
	}
	t.Error(sb.String())
}

// fillerDepth is conversion's filler's maxDepth: it writes nothing deeper.
const fillerDepth = 8

// requiredNewDefaults are the sites (paths, list items as [*], map values
// as .*) of the required properties of controller-gen's schema s that
// controller-gen-default's o defaults otherwise.
func requiredNewDefaults(s, o *structuralschema.Structural, at string) []string {
	if s == nil || o == nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		sp, op := s.Properties[k], mutants.Property(o, k)
		if op == nil {
			continue
		}
		site := k
		if at != "" {
			site = at + "." + k
		}
		if at == "" && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		if s.ValueValidation != nil && slices.Contains(s.ValueValidation.Required, k) &&
			op.Default.Object != nil && !reflect.DeepEqual(sp.Default.Object, op.Default.Object) {
			out = append(out, site)
		}
		out = append(out, requiredNewDefaults(&sp, op, site)...)
	}
	if s.Items != nil && o.Items != nil {
		out = append(out, requiredNewDefaults(s.Items, o.Items, at+"[*]")...)
	}
	if s.AdditionalProperties != nil && o.AdditionalProperties != nil {
		out = append(out, requiredNewDefaults(s.AdditionalProperties.Structural, o.AdditionalProperties.Structural, at+".*")...)
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var indexRx = regexp.MustCompile(`\[\d+\]`)

// apiApproved is the annotation that the apiserver requires on CRDs of
// *.k8s.io and *.kubernetes.io groups, and the value approve gives it.
const apiApproved = "api-approved.kubernetes.io"

// approve adds the api-approved.kubernetes.io annotation to crd when its
// group needs one and it has none, and says so. gateway-api's own generator
// (pkg/generator) writes it into its release CRDs; controller-gen writes
// none, and the apiserver refuses such CRDs without it.
func approve(crd *apiextensionsv1.CustomResourceDefinition) bool {
	if !apihelpers.IsProtectedCommunityGroup(crd.Spec.Group) || crd.Annotations[apiApproved] != "" {
		return false
	}
	if crd.Annotations == nil {
		crd.Annotations = map[string]string{}
	}
	crd.Annotations[apiApproved] = "unapproved, added by the acceptance test for the comparison"
	return true
}

func kindSummary(byKind map[string]int) string {
	var parts []string
	for _, k := range []string{kindRequired, kindOursOnly, kindOther} {
		if byKind[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d", k, byKind[k]))
		}
	}
	return strings.Join(parts, ", ")
}

func howSummary(byHow map[string]int) string {
	var parts []string
	for _, h := range []string{refRefusesOursAccepts, refAcceptsOursRefuses, otherFields} {
		if byHow[h] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", byHow[h], h))
		}
	}
	return strings.Join(parts, ", ")
}

// generate runs a generator in the workspace and returns its stderr and
// stdout.
func generate(ctx context.Context, ws *realapis.Workspace, bin string, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := ws.Command(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// literals compares the defaults of controller-gen's CRD ref with those
// of ours at the same schema paths, byte for byte: it returns how many ref
// has and a line for each that ours writes otherwise or not at all.
func literals(ref, ours *apiextensionsv1.CustomResourceDefinition) (n int, diffs []string) {
	for _, rv := range ref.Spec.Versions {
		var ov *apiextensionsv1.CustomResourceDefinitionVersion
		for i := range ours.Spec.Versions {
			if ours.Spec.Versions[i].Name == rv.Name {
				ov = &ours.Spec.Versions[i]
			}
		}
		if rv.Schema == nil || rv.Schema.OpenAPIV3Schema == nil {
			continue
		}
		var oursSchema *apiextensionsv1.JSONSchemaProps
		if ov != nil && ov.Schema != nil {
			oursSchema = ov.Schema.OpenAPIV3Schema
		}
		realapistest.WalkDefaults("", rv.Schema.OpenAPIV3Schema, oursSchema, func(p string, r, o *apiextensionsv1.JSON) {
			n++
			switch {
			case o == nil:
				diffs = append(diffs, fmt.Sprintf("%s %s %s: controller-gen: %s, controller-gen-default: none", ref.Name, rv.Name, p, r.Raw))
			case !bytes.Equal(r.Raw, o.Raw):
				diffs = append(diffs, fmt.Sprintf("%s %s %s: controller-gen: %s, controller-gen-default: %s", ref.Name, rv.Name, p, r.Raw, o.Raw))
			}
		})
	}
	return n, diffs
}

// sample is an object of the repository's own YAML files.
type sample struct {
	source     string // file:doc, relative to the module's directory
	apiVersion string
	kind       string
	obj        map[string]any
	dups       []string
}

// findSamples reads every YAML file in dir (the module's directory in the
// module cache) as kubectl reads it and keeps the objects whose apiVersion
// and kind are a served version of one of crds. It says what it found in
// a line for the log.
func findSamples(dir string, crds []*apiextensionsv1.CustomResourceDefinition) ([]sample, string) {
	served := map[string]bool{}
	for _, c := range crds {
		for _, v := range c.Spec.Versions {
			if v.Served {
				served[c.Spec.Group+"/"+v.Name+" "+c.Spec.Names.Kind] = true
			}
		}
	}
	var out []sample
	files, matching, others, unreadable := 0, 0, 0, 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != dir && (n == "vendor" || n == "node_modules" || strings.HasPrefix(n, ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		files++
		rel, _ := filepath.Rel(dir, p)
		f, err := os.Open(p)
		if err != nil {
			unreadable++
			return nil
		}
		defer f.Close()
		matched := false
		for o, err := range manifest.All(rel, f) {
			if err != nil {
				unreadable++ // a template, or not Kubernetes YAML: the rest of the file is skipped
				break
			}
			av, _ := o.Object["apiVersion"].(string)
			k, _ := o.Object["kind"].(string)
			if !served[av+" "+k] {
				others++
				continue
			}
			matched = true
			out = append(out, sample{source: o.Source(), apiVersion: av, kind: k, obj: o.Object, dups: o.Duplicates})
		}
		if matched {
			matching++
		}
		return nil
	})
	if len(out) == 0 {
		return nil, fmt.Sprintf("samples: none: the module's zip holds %d YAML files, none with an object of its CRDs (%d other objects, %d files or documents not readable as Kubernetes YAML)",
			files, others, unreadable)
	}
	return out, fmt.Sprintf("samples: %d objects of the module's CRDs in %d of its %d YAML files (%d other objects skipped, %d files or documents not readable as Kubernetes YAML)",
		len(out), matching, files, others, unreadable)
}

// The origins of objects.
const (
	originSample   = "sample"
	originRandom   = "random"
	originDeleted  = "deleted"
	originMisspelt = "misspelt"
)

// object is one object to create under both CRDs.
type object struct {
	origin string
	// what says where it comes from: the sample's file:doc or random
	// object's number, and the mutation.
	what string
	obj  map[string]any
	dups []string
}

// versionJob is one served version of one CRD, with its samples.
type versionJob struct {
	crd, version string
	ref          *conversion.Version
	// refPipe and ours are the version's create paths in controller-gen's
	// and controller-gen-default's CRDs
	refPipe, ours *objectpath.Pipeline
	// schema and oursSchema are the version's structural schemas in
	// controller-gen's and controller-gen-default's CRDs
	schema, oursSchema *structuralschema.Structural
	samples            []sample
	seed               uint64
}

type versionResult struct {
	counts        map[string]int
	refusedRandom int
	// requiredSites are the required properties mutated one by one,
	// sitesLeftOut those left out over maxRequiredSites
	requiredSites, sitesLeftOut int
	// rawSites are the required properties that only raws have;
	// newDefaultSites those that controller-gen-default defaults otherwise
	rawSites, newDefaultSites int
	// schemaNewDefaultSites are the required properties of the schema that
	// controller-gen-default defaults otherwise; unreached those of them
	// that no object has
	schemaNewDefaultSites int
	unreached             []string
	disagreements         []disagreement
	err                   error
}

// versionJobs are the served versions of controller-gen's CRD ref and
// controller-gen-default's ours, each with the samples of its kind.
func versionJobs(t *testing.T, ref, ours *apiextensionsv1.CustomResourceDefinition, samples []sample, seed uint64) []versionJob {
	t.Helper()
	var served []string
	storage := ""
	for _, v := range ref.Spec.Versions {
		if v.Served {
			served = append(served, v.Name)
		}
		if v.Storage {
			storage = v.Name
		}
	}
	if !slices.Contains(served, storage) {
		t.Errorf("%s: the storage version %s is not served; not compared", ref.Name, storage)
		return nil
	}
	spokes := slices.DeleteFunc(slices.Clone(served), func(v string) bool { return v == storage })
	kind, err := conversion.NewKind(ref, storage, spokes)
	if err != nil {
		t.Errorf("%s: controller-gen's CRD: %v", ref.Name, err)
		return nil
	}
	internal, err := crdcheck.ToInternal(ref)
	if err != nil {
		t.Errorf("%s: %v", ref.Name, err)
		return nil
	}
	oursInternal, err := crdcheck.ToInternal(ours)
	if err != nil {
		t.Errorf("%s: %v", ours.Name, err)
		return nil
	}
	var out []versionJob
	for _, v := range served {
		p, err := objectpath.New(ours, v)
		if err != nil {
			t.Errorf("%s version %s: controller-gen-default's CRD: %v", ours.Name, v, err)
			continue
		}
		s, err := objectpath.StorageSchema(internal, v)
		if err != nil {
			t.Errorf("%s version %s: %v", ref.Name, v, err)
			continue
		}
		oursS, err := objectpath.StorageSchema(oursInternal, v)
		if err != nil {
			t.Errorf("%s version %s: %v", ours.Name, v, err)
			continue
		}
		refP, err := objectpath.New(ref, v)
		if err != nil {
			t.Errorf("%s version %s: controller-gen's CRD: %v", ref.Name, v, err)
			continue
		}
		j := versionJob{crd: ref.Name, version: v, ref: kind.Versions[v], refPipe: refP, ours: p, schema: s, oursSchema: oursS, seed: seed}
		for _, s := range samples {
			if s.apiVersion == ref.Spec.Group+"/"+v && s.kind == ref.Spec.Names.Kind && len(j.samples) < maxSamples {
				j.samples = append(j.samples, s)
			}
		}
		out = append(out, j)
	}
	return out
}

// run creates the version's objects under both CRDs and compares the
// answers.
func (j versionJob) run(ctx context.Context) versionResult {
	h := fnv.New64a()
	h.Write([]byte(j.crd + " " + j.version))
	r := rand.New(rand.NewPCG(j.seed, h.Sum64()))
	res := versionResult{counts: map[string]int{}}

	var bases []object
	for i, s := range j.samples {
		obj, what := s.obj, "sample "+s.source
		if meta, _ := obj["metadata"].(map[string]any); meta["name"] == nil && meta["generateName"] == nil {
			// a snapshot of a spec (external-secrets' tests/__snapshot__:
			// metadata: {}): named, as whoever creates it must
			obj = runtime.DeepCopyJSON(obj)
			meta = map[string]any{}
			if m, ok := obj["metadata"].(map[string]any); ok {
				meta = m
			}
			meta["name"] = fmt.Sprintf("sample-%d", i)
			obj["metadata"] = meta
			what += " (named sample-" + strconv.Itoa(i) + ")"
		}
		bases = append(bases, object{origin: originSample, what: what, obj: obj, dups: s.dups})
	}
	// raws are the random objects as the filler wrote them, before Valid
	// dropped what controller-gen's CRD refuses in them: the fallback for
	// the required properties that no base has (kueue's v1beta1
	// ClusterQueue loses spec.resourceGroups, and with it nominalQuota, to
	// the CEL rules the filler does not satisfy)
	var raws []object
	for i := range randomObjects {
		raw := j.ref.Random(r, i)
		_, sent, _, ok := j.ref.Valid(ctx, raw)
		what := fmt.Sprintf("random object %d", i)
		if !ok {
			// what the filler cannot make valid (patterns, CEL rules) is
			// compared as it is
			res.refusedRandom++
			what += " (refused by controller-gen's CRD)"
		}
		bases = append(bases, object{origin: originRandom, what: what, obj: sent})
		raws = append(raws, object{origin: originRandom, what: fmt.Sprintf("random object %d as the filler wrote it", i), obj: raw})
	}
	// more of them, which are not created themselves: the filler sets an
	// optional property half of the time, spec included
	for i := randomObjects; i < randomObjects+extraRaws; i++ {
		raws = append(raws, object{origin: originRandom, what: fmt.Sprintf("random object %d as the filler wrote it", i), obj: j.ref.Random(r, i)})
	}
	objs := slices.Clone(bases)
	// every required property the bases have, by site: one mutant without
	// it and one with its key misspelt, from a base picked at random
	type at struct {
		base object
		p    mutants.Prop
	}
	required := map[string][]at{}
	baseProps := make([][]mutants.Prop, len(bases))
	for i, b := range bases {
		baseProps[i] = mutants.Props(b.obj, j.schema, j.oursSchema)
		for _, p := range baseProps[i] {
			if p.Required {
				required[p.Site] = append(required[p.Site], at{b, p})
			}
		}
	}
	inBases := len(required)
	fromRaw := map[string][]at{}
	for _, b := range raws {
		for _, p := range mutants.Props(b.obj, j.schema, j.oursSchema) {
			if _, ok := required[p.Site]; p.Required && !ok {
				fromRaw[p.Site] = append(fromRaw[p.Site], at{b, p})
			}
		}
	}
	maps.Copy(required, fromRaw)
	res.rawSites = len(required) - inBases
	all := requiredNewDefaults(j.schema, j.oursSchema, "")
	res.schemaNewDefaultSites = len(all)
	for _, site := range all {
		if _, ok := required[site]; !ok {
			res.unreached = append(res.unreached, j.crd+" "+j.version+" "+site)
		}
	}
	// those that controller-gen-default defaults otherwise come first:
	// there a missing property can be answered otherwise
	sites := slices.Sorted(maps.Keys(required))
	if len(sites) > maxRequiredSites {
		r.Shuffle(len(sites), func(a, b int) { sites[a], sites[b] = sites[b], sites[a] })
		slices.SortStableFunc(sites, func(a, b string) int {
			return boolInt(!required[a][0].p.NewDefault) - boolInt(!required[b][0].p.NewDefault)
		})
		res.sitesLeftOut = len(sites) - maxRequiredSites
		sites = sites[:maxRequiredSites]
		slices.Sort(sites)
	}
	for _, site := range sites {
		if required[site][0].p.NewDefault {
			res.newDefaultSites++
		}
		a := required[site][r.IntN(len(required[site]))]
		b := a.base
		if m, ok := mutants.Without(b.obj, a.p); ok {
			objs = append(objs, object{origin: originDeleted, what: b.what + ", without the required " + a.p.String(), obj: m, dups: b.dups})
		}
		if m, to, ok := mutants.Misspelt(b.obj, a.p); ok {
			objs = append(objs, object{origin: originMisspelt, what: fmt.Sprintf("%s, the required %s misspelt %s", b.what, a.p, to), obj: m, dups: b.dups})
		}
	}
	res.requiredSites = len(sites)
	// and random mutants of every base
	for i, b := range bases {
		ps := baseProps[i]
		for range deleteMutants {
			m, deleted := mutants.Delete(r, b.obj, ps)
			if len(deleted) == 0 {
				break
			}
			objs = append(objs, object{origin: originDeleted, what: b.what + ", without " + strings.Join(deleted, ", "), obj: m, dups: b.dups})
		}
		for range misspellMutants {
			m, from, to, ok := mutants.Misspell(r, b.obj, ps)
			if !ok {
				break
			}
			objs = append(objs, object{origin: originMisspelt, what: fmt.Sprintf("%s, %s misspelt %s", b.what, from, to), obj: m, dups: b.dups})
		}
	}
	for _, o := range objs {
		res.counts[o.origin]++
		ra := mutants.Create(ctx, j.refPipe, o.obj, o.dups)
		oa := mutants.Create(ctx, j.ours, o.obj, o.dups)
		if d, ok := mutants.Compare(ra, oa); !ok {
			res.disagreements = append(res.disagreements, disagreement{crd: j.crd, version: j.version, obj: o, Diff: d})
		}
	}
	return res
}

// disagreement is an object the two CRDs answer differently.
type disagreement struct {
	crd, version string
	obj          object
	mutants.Diff
}

// The kinds of difference, by what the fields where the answers differ
// hold.
const (
	kindRequired = "a Required value that controller-gen-default's CRD does not give"
	kindOursOnly = "an error that only controller-gen-default's CRD gives"
	kindOther    = "another error that only controller-gen's CRD gives"
)

// kinds are the kinds of difference d shows.
func (d disagreement) kinds() []string {
	var out []string
	if d.SilencedRequired > 0 {
		out = append(out, kindRequired)
	}
	if d.OursOnly > 0 {
		out = append(out, kindOursOnly)
	}
	if len(out) == 0 {
		out = append(out, kindOther)
	}
	return out
}

func (d disagreement) String() string {
	b, _ := json.Marshal(d.obj.obj)
	obj := string(b)
	if len(obj) > 1500 {
		obj = obj[:1500] + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return fmt.Sprintf("  %s %s, %s: %s at %s\n    controller-gen:         %s\n    controller-gen-default: %s\n    object: %s",
		d.crd, d.version, d.obj.what, d.How, strings.Join(d.Fields, ", "), cut(d.Ref.String(), 600), cut(d.Ours.String(), 600), obj)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func head(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n... (%d more lines)", len(lines)-n)
}

func acceptanceTable(reports []*report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| module | CRDs | versions | samples | random | deleted | misspelt | disagreements | Required value not given by ours | error given by ours only | distinct fields | defaults | literal diffs | files identical with implicitDefaults=false | same-schema version sets kept | time |\n")
	fmt.Fprintf(&b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range reports {
		if r.skipped || r.byHow == nil {
			why := "(not run)"
			if r.failed != "" {
				why = r.failed
			}
			fmt.Fprintf(&b, "| %s | %s |||||||||||||||\n", r.module.Name, why)
			continue
		}
		samples := strconv.Itoa(r.samples)
		if r.noSamples {
			samples = "none in zip"
		}
		dis := howSummary(r.byHow)
		if dis == "" {
			dis = "0"
		}
		identical := fmt.Sprintf("%d of %d", r.files-r.byteDiffs, r.files)
		switch {
		case r.failed != "":
			identical = r.failed
		case r.refOnlyFiles > 0:
			identical += fmt.Sprintf(" (%d but for ref() defaults)", r.refOnlyFiles)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %d | %d | %d | %s | %d | %d | %d | %d | %d | %s | %d of %d | %s |\n", r.module.Name, r.crds, r.versions, samples,
			r.random, r.deleted, r.misspelt, dis, r.byKind[kindRequired], r.byKind[kindOursOnly], r.sites, r.literals, r.literalDiffs,
			identical, r.versionGroups-r.versionDiffs, r.versionGroups, r.took.Round(100*time.Millisecond))
	}
	return b.String()
}

func findingsTable(reports []*report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| module | stderr lines | errors | warnings | notes | by severity and rule |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range reports {
		if r.findings == nil {
			fmt.Fprintf(&b, "| %s | (not run) |||||\n", r.module.Name)
			continue
		}
		keys := make([]tallyKey, 0, len(r.findings))
		sev := map[string]int{}
		for k, n := range r.findings {
			keys = append(keys, k)
			sev[k.Severity] += n
		}
		order := map[string]int{"error": 0, "warning": 1, "note": 2}
		slices.SortFunc(keys, func(a, c tallyKey) int {
			if d := order[a.Severity] - order[c.Severity]; d != 0 {
				return d
			}
			if d := r.findings[c] - r.findings[a]; d != 0 {
				return d
			}
			return strings.Compare(a.Rule, c.Rule)
		})
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %s %d", k.Severity, k.Rule, r.findings[k]))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", r.module.Name, r.stderrLines, sev["error"], sev["warning"], sev["note"], strings.Join(parts, ", "))
	}
	return b.String()
}

// refusedAsCause is what controller-gen-default says when the apiserver
// refuses a CRD as controller-gen writes it too (crdgen's failure).
const refusedAsCause = "crd: the apiserver refuses these CRDs, as controller-gen writes them too"

// refusedAsWritten reports whether the apiserver's validation refuses a
// CRD that controller-gen wrote into dir, and controller-gen-default's
// output says that this is why it wrote nothing; why is the first error.
func refusedAsWritten(t *testing.T, dir, oursOut string) (why string, ok bool) {
	crds, err := crdcheck.LoadCRDs(dir)
	if err != nil || !strings.Contains(oursOut, refusedAsCause) {
		return "", false
	}
	for _, c := range crds {
		if errs := crdcheck.ValidateCRD(t.Context(), c); len(errs) > 0 {
			msg := errs[0].Error()
			if len(msg) > 160 {
				msg = msg[:160] + "…"
			}
			return c.Name + ": " + msg, true
		}
	}
	return "", false
}
