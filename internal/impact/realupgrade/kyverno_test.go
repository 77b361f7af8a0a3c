package realupgrade

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden reports under testdata/ from this run")

// The adoption upgrade the grouped report is pinned on: a Kyverno cluster
// at kyvernoOld, whose CRDs are the ones that release ships (controller-gen's
// output), upgraded to realapis.Kyverno's version with its CRDs generated
// by controller-gen-default, as a project that switches generators
// upgrades. realapis.Kyverno is one of test/acceptance's modules
// (realapis.Wider), so the dependencies of its API packages are in the
// module cache already; this test adds only the kyvernoOld module (about
// 10 MB), for its CRDs and its samples.
const kyvernoOld = "v1.19.0"

// kyvernoSampleDirs are the directories of kyvernoOld whose manifests are
// the stored objects: the CLI's test data, policies that users write.
var kyvernoSampleDirs = []string{"cmd/cli", "test/cli"}

// kyvernoCRDDirs are the directories of the CRDs that kyvernoOld ships for
// the groups realapis.Kyverno generates (kyverno.io, wgpolicyk8s.io,
// reports.kyverno.io; not policies.kyverno.io, whose API is another
// module, github.com/kyverno/api).
var kyvernoCRDDirs = []string{"config/crds/kyverno", "config/crds/policyreport", "config/crds/reports"}

// kyvernoGolden is the grouped text report of the upgrade, as this test
// last accepted it (-update rewrites it).
var kyvernoGolden = filepath.Join("testdata", "kyverno-"+kyvernoOld+"-"+realapis.Kyverno.Version+".txt")

const (
	// kyvernoMinObjects: the samples must hold enough objects of OLD's
	// CRDs for the grouping to matter (189 when this test was written).
	kyvernoMinObjects = 150
	// kyvernoMaxLines is what the grouped report must fit in: a screen
	// or two, where the per-object report had 3,487 lines.
	kyvernoMaxLines = 150
)

// TestKyvernoAdoptionReport runs impact's text report (grouped, the
// default) and -o json on an adoption upgrade (OLD: the CRDs Kyverno
// kyvernoOld ships, written by controller-gen; NEW: controller-gen-default
// on realapis.Kyverno's API packages) with Kyverno's own samples, most of
// which gain the same few defaults, and checks that the grouped report
// says what the per-object records say, in a few screens: the same exit
// status; every object with a category that needs a look, and no other,
// on a line of its own; as many objects gaining defaults as the records
// and the table; and each group's object count as the records have it.
// The report itself is a golden file. With the API's Go types (--types),
// zero values that a Go client already sends become go-client-sends.
func TestKyvernoAdoptionReport(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches kyverno at two releases and generates its CRDs; skipped with -short")
	}
	ctx := t.Context()
	bin := testkit.GeneratorOrEnv(t)
	golden, err := filepath.Abs(kyvernoGolden)
	if err != nil {
		t.Fatal(err)
	}

	// NEW: the generator on realapis.Kyverno, as test/acceptance runs it.
	m := realapis.Kyverno
	ws, err := realapis.Prepare(ctx, t.TempDir(), m)
	if err != nil {
		skipIfFetch(t, err)
		t.Fatal(err)
	}
	newCRDs := filepath.Join(t.TempDir(), "crd")
	start := time.Now()
	if b, err := ws.Command(ctx, bin, m.Args(newCRDs)...).CombinedOutput(); err != nil {
		t.Fatalf("controller-gen-default %s on %s: %v\n%s", strings.Join(m.Args(newCRDs), " "), m, err, b)
	}
	t.Logf("generated the CRDs of %s in %s", m, time.Since(start).Round(time.Millisecond))

	// OLD: the CRDs kyvernoOld ships, and its samples, named as in
	// Kyverno's repository (the report names each object by its file).
	oldRoot := moduleDir(t, ctx, m.Path, kyvernoOld)
	t.Chdir(oldRoot)
	files, objects := kyvernoSamples(t, kyvernoCRDDirs, newCRDs)
	t.Logf("%d sample files, %d objects of OLD's CRDs", len(files), objects)
	if objects < kyvernoMinObjects {
		t.Fatalf("%d objects in the samples of kyverno %s, want at least %d", objects, kyvernoOld, kyvernoMinObjects)
	}

	opts := impact.Options{Old: kyvernoCRDDirs, New: []string{newCRDs}, SkipOtherGroups: true, Files: files}
	run := func(output string) (code int, stdout, stderr string) {
		t.Helper()
		o := opts
		o.Output = output
		var out, errOut bytes.Buffer
		start := time.Now()
		code = impact.Run(ctx, o, nil, &out, &errOut)
		t.Logf("impact -o %s: exit %d, %d lines, in %s", output, code, strings.Count(out.String(), "\n"), time.Since(start).Round(time.Millisecond))
		return code, out.String(), errOut.String()
	}
	jsonCode, jsonOut, jsonErr := run("json")
	records := decodeRecords(t, jsonOut)
	code, text, textErr := run("text")
	if rep := os.Getenv("IMPACT_REPORT"); rep != "" {
		// the report, and the files it reads (from kyvernoOld's root)
		for ext, content := range map[string]string{".kyverno.txt": text, ".kyverno-files.txt": strings.Join(files, "\n") + "\n"} {
			if err := os.WriteFile(rep+ext, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep := parseGrouped(t, text)

	// Two samples are invalid under OLD: Kyverno's CLI tests of invalid
	// policies, which fail as much with Kyverno's own CRDs of
	// realapis.Kyverno's version. Nothing else fails, and the samples have
	// no duplicate field to warn about.
	t.Run("exit status 1, and nothing on stderr but -o json's table", func(t *testing.T) {
		if code != impact.ExitImpact || jsonCode != impact.ExitImpact {
			t.Errorf("exit %d (text), %d (-o json), want %d", code, jsonCode, impact.ExitImpact)
		}
		if textErr != "" {
			t.Errorf("the text report wrote to stderr:\n%s", textErr)
		}
		if jsonErr != rep.table {
			t.Errorf("stderr of -o json:\n%s\nwant the table the text report ends with:\n%s", jsonErr, rep.table)
		}
	})

	t.Run("the report fits in 150 lines", func(t *testing.T) {
		if n := strings.Count(text, "\n"); n > kyvernoMaxLines {
			t.Errorf("the text report has %d lines, want at most %d; it ends:\n%s", n, kyvernoMaxLines, lastLines(text, 20))
		}
	})

	t.Run("every object to look at is named, and no other", func(t *testing.T) {
		want := map[string]record{}
		failing := 0
		for _, r := range records {
			if r.Fails {
				failing++
			}
			if r.needsLook() {
				want[r.Source] = r
			} else if r.Fails {
				t.Errorf("%s fails (%s) but has no category that needs a look", r.Source, strings.Join(r.Categories, ", "))
			}
		}
		if failing == 0 {
			t.Errorf("no object fails in -o json: this check checks nothing; pick samples with one")
		}
		for src := range rep.named {
			if _, ok := want[src]; !ok {
				t.Errorf("the report names %s to look at; -o json has it %s", src, categoriesOf(records, src))
			}
		}
		for src, r := range want {
			line, ok := rep.named[src]
			if !ok {
				t.Errorf("the report does not name %s: %s %s (%s)", src, r.Kind, r.objectName(), strings.Join(r.Categories, ", "))
				continue
			}
			if prefix := src + ": " + r.Kind + " " + r.objectName() + " (" + r.APIVersion + "): "; !strings.HasPrefix(line, prefix) {
				t.Errorf("the report's line of %s:\n%s\nwant it to start %q", src, line, prefix)
			}
		}
		if rep.namedCount != len(rep.named) {
			t.Errorf("the report says %d objects to look at and names %d", rep.namedCount, len(rep.named))
		}
		// An object held by ratcheting alone would be named and not fail;
		// these samples have none: the objects named are those that fail.
		if len(want) != failing {
			t.Errorf("%d objects need a look, %d fail: the samples changed, or the report names objects that do not fail", len(want), failing)
		}
	})

	gaining := 0
	for _, r := range records {
		if slices.Contains(r.Categories, impact.GainsDefaults) {
			gaining++
		}
	}
	t.Run("as many objects gain defaults as the table and -o json say", func(t *testing.T) {
		shown, ok := tableRow(rep.table, "gaining defaults")
		if !ok {
			t.Fatalf("the table has no %q row:\n%s", "gaining defaults", rep.table)
		}
		if rep.gaining != gaining || shown != gaining {
			t.Errorf("the report says %d objects gain defaults, its table %d; -o json has %d", rep.gaining, shown, gaining)
		}
		if gaining < len(records)/2 {
			t.Errorf("%d of %d objects gain defaults: not the upgrade this test is about", gaining, len(records))
		}
	})

	t.Run("each group counts the objects whose read adds its default", func(t *testing.T) {
		checkGroupCounts(t, rep, records)
	})

	t.Run("golden", func(t *testing.T) {
		if *update {
			if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
		}
		if text != string(want) {
			t.Errorf("the report differs from %s (go test -run %s -update rewrites it); got:\n%s", kyvernoGolden, t.Name(), text)
		}
	})
	t.Logf("%d objects, %d gaining defaults in %d groups, %d named; %d lines", len(records), gaining, rep.groupCount, len(rep.named), strings.Count(text, "\n"))

	// Every zero value NEW's CRDs add to Kyverno's samples is one that a
	// Go client of Kyverno's types (kyverno's CLI, its controllers) sends
	// already: --types says so, and changes nothing else.
	t.Run("with --types, the zero values are those a Go client sends", func(t *testing.T) {
		var abs []string
		for _, f := range files {
			abs = append(abs, filepath.Join(oldRoot, f))
		}
		args := []string{"impact", "--skip-other-groups", "--new", newCRDs}
		for _, d := range kyvernoCRDDirs {
			args = append(args, "--old", filepath.Join(oldRoot, d))
		}
		// the API's packages, loaded in the module that builds them
		args = append(append(args, "--types", strings.Join(m.Patterns(), ",")), abs...)
		cmd := ws.Command(ctx, bin, args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		start := time.Now()
		err := cmd.Run()
		took := time.Since(start)
		t.Logf("impact --types: %v, %d lines, in %s", err, strings.Count(out.String(), "\n"), took.Round(time.Millisecond))
		if rep := os.Getenv("IMPACT_REPORT"); rep != "" {
			if err := os.WriteFile(rep+".kyverno-types.txt", out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if cmd.ProcessState.ExitCode() != impact.ExitImpact {
			t.Fatalf("impact --types: %v, want exit %d; stderr:\n%s", err, impact.ExitImpact, errOut.String())
		}
		if errOut.Len() > 0 {
			t.Errorf("impact --types wrote to stderr:\n%s", errOut.String())
		}
		// the files were given from the workspace: named from oldRoot
		typedText := strings.ReplaceAll(out.String(), oldRoot+string(filepath.Separator), "")
		typed := parseGrouped(t, typedText)
		if typed.gaining != rep.gaining || !maps.Equal(typed.named, rep.named) {
			t.Errorf("--types changed the objects gaining defaults (%d, was %d) or those to look at:\n%s\nwas:\n%s", typed.gaining, rep.gaining, typed.namedText, rep.namedText)
		}
		moved := 0
		for key, g := range rep.groups {
			if tg, ok := typed.groups[key]; ok && g.effect == impact.EffectZero && tg.effect == impact.EffectGoSends {
				moved++
				if tg.objects != g.objects {
					t.Errorf("%s: %d objects with --types, %d without", key, tg.objects, g.objects)
				}
			}
		}
		if moved == 0 {
			t.Errorf("no zero-value group became go-client-sends with --types; the report:\n%s", typedText)
		}
		zero := rep.effectGroups[impact.EffectZero]
		if typed.effectGroups[impact.EffectZero] != 0 || typed.effectGroups[impact.EffectNews] != rep.effectGroups[impact.EffectNews] ||
			typed.effectGroups[impact.EffectGoSends] != zero || typed.effectGroups[impact.EffectStatus] != rep.effectGroups[impact.EffectStatus] {
			t.Errorf("groups by effect with --types: %v; without: %v; want the %d zero-value groups go-client-sends, the others as they were; the report:\n%s",
				typed.effectGroups, rep.effectGroups, zero, typedText)
		}
		t.Logf("%d zero-value groups became go-client-sends with --types, %d of them listed", zero, moved)
	})
}

// record is what this test reads of a line of `impact -o json`.
type record struct {
	Source      string   `json:"source"`
	APIVersion  string   `json:"apiVersion"`
	Kind        string   `json:"kind"`
	Namespace   string   `json:"namespace"`
	Name        string   `json:"name"`
	CRD         string   `json:"crd"`
	Categories  []string `json:"categories"`
	Fails       bool     `json:"fails"`
	ReadVersion string   `json:"readVersion"`
	Changes     struct {
		Added []string `json:"added"`
	} `json:"changes"`
}

func (r record) objectName() string { return manifest.ObjectName(r.Namespace, r.Name, "") }

// quietCategories are those that name no object in the grouped report.
var quietCategories = []string{impact.Unchanged, impact.GainsDefaults, impact.StorageVersionChanged, impact.NewOnly}

// needsLook says whether r has a category that the grouped report names
// its object for: any but the quiet ones.
func (r record) needsLook() bool {
	for _, c := range r.Categories {
		if !slices.Contains(quietCategories, c) {
			return true
		}
	}
	return false
}

func categoriesOf(records []record, source string) string {
	for _, r := range records {
		if r.Source == source {
			return "as " + strings.Join(r.Categories, ", ")
		}
	}
	return "nowhere"
}

func decodeRecords(t *testing.T, out string) []record {
	t.Helper()
	var records []record
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("impact -o json: %v: %.200s", err, sc.Text())
		}
		records = append(records, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return records
}

// groupedReport is what this test reads of the grouped text report.
type groupedReport struct {
	gaining    int // objects gaining defaults, as its header says
	groupCount int // groups, as its header says
	// effectGroups are the groups of each effect, as its line says
	effectGroups map[impact.Effect]int
	// groups are the listed group lines, by "CRD path = value"
	groups map[string]groupLine
	// hidden are the objects counted in "N more groups" lines, and their
	// groups, by effect
	hiddenObjects, hiddenGroups map[impact.Effect]int
	// named are the lines of the objects to look at, by source
	named      map[string]string
	namedText  string
	namedCount int
	table      string // from "objects" to the end, the conversion note excepted
}

// groupLine is a group's line: objects, CRD, versions, path = value.
type groupLine struct {
	effect         impact.Effect
	objects        int
	crd, path      string
	versions       []string
	value, example string
}

var (
	gainingHeader = regexp.MustCompile(`^(\d+) objects? gain defaults on read under NEW, in (\d+) groups? \(CRD, path, value\):$`)
	effectHeader  = regexp.MustCompile(`^  (.*): (\d+) groups?$`)
	groupRow      = regexp.MustCompile(`^    +(\d+)  (\S+) (\S+): (\S+) = (.*?)  e\.g\. (.*)$`)
	hiddenRow     = regexp.MustCompile(`^    +(\d+)  in (\d+) more groups? \(`)
	namedHeader   = regexp.MustCompile(`^(\d+) objects? to look at \(`)
)

// effectTexts are the effects by the start of their line in the report.
var effectTexts = map[string]impact.Effect{
	"change what a client that applies manifests reads":        impact.EffectNews,
	"zero values, which a Go client sends":                     impact.EffectZero,
	"under status":                                             impact.EffectStatus,
	"zero values a Go client of the API's types already sends": impact.EffectGoSends,
}

func parseGrouped(t *testing.T, text string) groupedReport {
	t.Helper()
	rep := groupedReport{groups: map[string]groupLine{}, effectGroups: map[impact.Effect]int{}, hiddenObjects: map[impact.Effect]int{}, hiddenGroups: map[impact.Effect]int{},
		named: map[string]string{}}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	section := ""
	var effect impact.Effect
	for i, l := range lines {
		if m := gainingHeader.FindStringSubmatch(l); m != nil {
			rep.gaining, _ = strconv.Atoi(m[1])
			rep.groupCount, _ = strconv.Atoi(m[2])
			section = "groups"
			continue
		}
		if m := namedHeader.FindStringSubmatch(l); m != nil {
			rep.namedCount, _ = strconv.Atoi(m[1])
			section = "named"
			continue
		}
		if strings.HasPrefix(l, "objects ") {
			rep.table = strings.Join(lines[i:len(lines)-1], "\n") + "\n"
			break
		}
		switch section {
		case "groups":
			if m := effectHeader.FindStringSubmatch(l); m != nil {
				effect = ""
				for prefix, e := range effectTexts {
					if strings.HasPrefix(m[1], prefix) {
						effect = e
					}
				}
				if effect == "" {
					t.Fatalf("unknown effect line in the report: %s", l)
				}
				rep.effectGroups[effect], _ = strconv.Atoi(m[2])
				continue
			}
			if m := hiddenRow.FindStringSubmatch(l); m != nil {
				rep.hiddenObjects[effect], _ = strconv.Atoi(m[1])
				rep.hiddenGroups[effect], _ = strconv.Atoi(m[2])
				continue
			}
			m := groupRow.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("unreadable line in the report's groups: %q", l)
			}
			n, _ := strconv.Atoi(m[1])
			g := groupLine{effect: effect, objects: n, crd: m[2], versions: strings.Split(m[3], ","), path: m[4], value: m[5], example: m[6]}
			rep.groups[g.crd+" "+g.path+" = "+g.value] = g
		case "named":
			if !strings.HasPrefix(l, "  ") {
				t.Fatalf("unreadable line among the objects to look at: %q", l)
			}
			src, _, _ := strings.Cut(strings.TrimPrefix(l, "  "), ": ")
			rep.named[src] = strings.TrimPrefix(l, "  ")
			rep.namedText += l + "\n"
		}
	}
	if rep.table == "" {
		t.Fatalf("the report has no table; it ends:\n%s", lastLines(text, 20))
	}
	return rep
}

// checkGroupCounts checks the report's groups against the records: each
// listed group counts the records of its CRD, read at one of its
// versions, that add its path (list items as [*]); and all groups, those
// counted in "more groups" lines too, count as many (object, CRD, path)
// as the records add. The records have the paths read adds, not the
// values: a (CRD, path) must have one value in the report's groups.
func checkGroupCounts(t *testing.T, rep groupedReport, records []record) {
	t.Helper()
	index := regexp.MustCompile(`\[[0-9]+\]`)
	perPath := map[string]int{} // CRD path -> listed groups
	for _, g := range rep.groups {
		perPath[g.crd+" "+g.path]++
	}
	for key, n := range perPath {
		if n > 1 {
			t.Errorf("%d groups of %s have different values: the records cannot tell them apart", n, key)
		}
	}
	adds := 0 // (object, CRD, path) added, in all
	count := map[string]int{}
	for _, r := range records {
		seen := map[string]bool{}
		for _, p := range r.Changes.Added {
			seen[r.CRD+" "+index.ReplaceAllString(p, "[*]")] = true
		}
		adds += len(seen)
		for _, g := range rep.groups {
			v := r.ReadVersion
			if v == "" {
				_, v, _ = strings.Cut(r.APIVersion, "/")
			}
			if seen[g.crd+" "+g.path] && slices.Contains(g.versions, v) {
				count[g.crd+" "+g.path]++
			}
		}
	}
	total, groups := 0, len(rep.groups)
	for key, g := range rep.groups {
		total += g.objects
		if n := count[g.crd+" "+g.path]; n != g.objects {
			t.Errorf("the report counts %d objects for %s; -o json has %d whose read adds %s", g.objects, key, n, g.path)
		}
	}
	for e, n := range rep.hiddenObjects {
		total += n
		groups += rep.hiddenGroups[e]
	}
	for e, n := range rep.effectGroups {
		listed := 0
		for _, g := range rep.groups {
			if g.effect == e {
				listed++
			}
		}
		if listed+rep.hiddenGroups[e] != n {
			t.Errorf("the report says %d groups of %s, lists %d and counts %d more", n, e, listed, rep.hiddenGroups[e])
		}
	}
	if total != adds {
		t.Errorf("the report's groups count %d (object, path) in all; -o json has %d", total, adds)
	}
	if groups != rep.groupCount {
		t.Errorf("the report says %d groups and shows or counts %d", rep.groupCount, groups)
	}
}

// tableRow is the number of the summary table's row named label.
func tableRow(table, label string) (int, bool) {
	for _, l := range strings.Split(table, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), label+" "); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// kyvernoSamples are the manifests under kyvernoSampleDirs (relative to
// the current directory, kyvernoOld's root) that impact takes with
// --skip-other-groups, and the number of their objects of OLD's CRDs:
// files that impact's own reader (package manifest) reads without an
// error, that hold an object of OLD's CRDs, and whose objects of OLD's and
// NEW's groups all have a kind and version that OLD serves. Kyverno's test
// data also holds files that are not manifests (Helm values, templates
// with placeholders) and objects of policies.kyverno.io, whose CRDs are
// another module's: impact would exit 2 on them.
func kyvernoSamples(t *testing.T, oldCRDs []string, newCRDs string) ([]string, int) {
	t.Helper()
	oldSet, err := crdcheck.LoadCRDs(oldCRDs...)
	if err != nil {
		t.Fatal(err)
	}
	newSet, err := crdcheck.LoadCRDs(newCRDs)
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{} // apiVersion + " " + kind
	groups := map[string]bool{}
	for _, c := range oldSet {
		groups[c.Spec.Group] = true
		for _, v := range c.Spec.Versions {
			if v.Served {
				served[c.Spec.Group+"/"+v.Name+" "+c.Spec.Names.Kind] = true
			}
		}
	}
	for _, c := range newSet {
		groups[c.Spec.Group] = true
	}

	var files []string
	objects := 0
	for _, dir := range kyvernoSampleDirs {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" && ext != ".json" {
				return nil
			}
			n, ok, err := sampleObjects(p, served, groups)
			if err != nil {
				return err
			}
			if ok {
				files = append(files, p)
				objects += n
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	return files, objects
}

// sampleObjects reads file as impact does: ok when it reads without an
// error and its objects of groups are all served by OLD (served), n of them.
func sampleObjects(file string, served, groups map[string]bool) (n int, ok bool, err error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	for o, err := range manifest.All(file, f) {
		if err != nil {
			return 0, false, nil
		}
		apiVersion, kind, err := manifest.TypeMeta(o.Object)
		if err != nil {
			return 0, false, nil
		}
		group, _, found := strings.Cut(apiVersion, "/")
		if !found || !groups[group] {
			continue // another group: skipped with --skip-other-groups
		}
		if !served[apiVersion+" "+kind] {
			return 0, false, nil
		}
		n++
	}
	return n, n > 0, nil
}
