package impact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
)

var update = flag.Bool("update", false, "rewrite the golden files of the --convert tests")

// convapi is the test API with a hub and a spoke (testdata/convapi).
func convapi(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata", "convapi"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const convertData = "testdata/convert/"

// testConversion builds (or takes from the cache) and starts convapi's
// conversion program; the test is skipped, saying why, without a go
// command or when a module download is refused, and under -short: a
// --convert test builds a program (or more), seconds to tens of seconds
// each, which the unit tier leaves out.
func testConversion(t *testing.T) *convProgram {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds the conversion program: run without -short (make test-integration)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command: --convert builds a program with it")
	}
	var log bytes.Buffer
	start := time.Now()
	c, err := startProgram(context.Background(), convprog.Options{Dir: convapi(t), Patterns: []string{"./api/..."}, Log: &log})
	if log.Len() > 0 {
		t.Logf("%s", strings.TrimSpace(log.String()))
	}
	var be *convprog.BuildError
	if errors.As(err, &be) {
		for _, s := range []string{"dial tcp", "proxyconnect", "no such host", "i/o timeout", "GOPROXY=off", "module lookup disabled"} {
			if strings.Contains(be.Output, s) {
				t.Skipf("the go command could not download modules (%s): %v", s, err)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("conversion program ready in %s", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("convProgram.Close: %v", err)
		}
	})
	return c
}

// analyzeFiles runs the analyzer of OLD and NEW (with conv, if not nil) on
// the objects of file; each of set adjusts that analyzer first.
func analyzeFiles(t *testing.T, conv *convProgram, oldPath, newPath, file string, set ...func(*Analyzer)) []*Record {
	t.Helper()
	ctx := context.Background()
	old, err := crdcheck.LoadCRDs(oldPath)
	if err != nil {
		t.Fatal(err)
	}
	new, err := crdcheck.LoadCRDs(newPath)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(ctx, old, new)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range set {
		f(a)
	}
	if conv != nil {
		names, err := a.useConversion(conv)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"widgets.conv.example.com"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("useConversion = %v, want %v", names, want)
		}
	}
	inputs, err := readInputs([]string{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []*Record
	for _, in := range inputs {
		r, err := a.Object(ctx, in.Object)
		if err != nil {
			t.Fatalf("%s: %v", in.Source, err)
		}
		out = append(out, r)
	}
	return out
}

// TestConvertRenamedField: a Widget stored at v1beta1 with length 7, read
// at v1 (NEW no longer serves v1beta1): the API's ConvertTo renames length
// to size, so v1 reads size 7, not v1's default 12 nor nothing; without
// --convert, length is pruned and size is absent, as before.
func TestConvertRenamedField(t *testing.T) {
	conv := testConversion(t)
	oldPath, newPath := convertData+"old-v1beta1-storage.yaml", convertData+"new-v1beta1-not-served.yaml"

	with := analyzeFiles(t, conv, oldPath, newPath, convertData+"spoke.yaml")[0]
	if with.ReadVersion != "v1" || with.Conversion != ConversionProgram {
		t.Fatalf("--convert: read at %q, conversion %q", with.ReadVersion, with.Conversion)
	}
	if got, want := spec(with.Read), map[string]any{"size": int64(7), "mode": "fast"}; !reflect.DeepEqual(got, want) {
		t.Errorf("--convert: read at v1, spec = %v, want %v (length renamed by ConvertTo; mode defaulted in v1beta1, where the object is stored, before conversion)", got, want)
	}
	if with.AtStorageVersion == nil || with.AtStorageVersion.Version != "v1" || !reflect.DeepEqual(with.AtStorageVersion.Object, with.Read) {
		t.Errorf("--convert: atStorageVersion = %+v, want the read at v1", with.AtStorageVersion)
	}
	if with.AfterWrite == nil || !reflect.DeepEqual(spec(with.AfterWrite.Object), spec(with.Read)) || with.AfterWrite.Diff != "" {
		t.Errorf("--convert: afterWrite = %+v, want the same spec", with.AfterWrite)
	}

	without := analyzeFiles(t, nil, oldPath, newPath, convertData+"spoke.yaml")[0]
	if got, want := spec(without.Read), map[string]any{"mode": "fast"}; without.ReadVersion != "v1" || !reflect.DeepEqual(got, want) {
		t.Errorf("None: read at %s, spec = %v, want %v (length pruned by v1's schema)", without.ReadVersion, got, want)
	}
	if without.Conversion != "" || without.AtStorageVersion != nil || without.AfterWrite != nil {
		t.Errorf("None: conversion %q, atStorageVersion %v, afterWrite %v: want none", without.Conversion, without.AtStorageVersion, without.AfterWrite)
	}
	if !slices.Contains(without.Categories, LosesFields) {
		t.Errorf("None: categories %v, want loses-fields", without.Categories)
	}
}

// TestConvertStorageVersionView: read at its own version, v1beta1, a
// Widget stored at v1beta1 is unchanged; at NEW's storage version, v1, a
// controller reads it converted: size 7.
func TestConvertStorageVersionView(t *testing.T) {
	conv := testConversion(t)
	r := analyzeFiles(t, conv, convertData+"old-v1beta1-storage.yaml", filepath.Join(convapi(t), "config", "crd"), convertData+"spoke.yaml")[0]
	if r.ReadVersion != "v1beta1" || !reflect.DeepEqual(spec(r.Read), map[string]any{"length": int64(7), "mode": "fast"}) {
		t.Errorf("read at %s: %v", r.ReadVersion, r.Read)
	}
	at := r.AtStorageVersion
	if at == nil || at.Version != "v1" {
		t.Fatalf("atStorageVersion = %+v", at)
	}
	if got, want := spec(at.Object), map[string]any{"size": int64(7), "mode": "fast"}; !reflect.DeepEqual(got, want) {
		t.Errorf("at v1: spec = %v, want %v", got, want)
	}
	if !strings.Contains(at.Diff, "-  length: 7\n") || !strings.Contains(at.Diff, "+  size: 7\n") {
		t.Errorf("at v1: diff\n%s\nwant length 7 out, size 7 in", at.Diff)
	}
}

// TestConvertHubOnlyField: NEW moves storage back to the spoke, v1beta1,
// and stops serving v1. A Widget stored at v1 with color and size 3 is read
// at v1beta1: the API's ConvertFrom keeps size as length 3 and drops
// color, which v1beta1 cannot hold; without --convert, both are pruned.
func TestConvertHubOnlyField(t *testing.T) {
	conv := testConversion(t)
	oldPath, newPath := filepath.Join(convapi(t), "config", "crd"), convertData+"new-v1beta1-storage-v1-not-served.yaml"

	with := analyzeFiles(t, conv, oldPath, newPath, convertData+"hub.yaml")[0]
	if got, want := spec(with.Stored), map[string]any{"size": int64(3), "color": "red", "mode": "slow"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored under OLD: spec = %v, want %v", got, want)
	}
	if got, want := spec(with.Read), map[string]any{"length": int64(3), "mode": "slow"}; with.ReadVersion != "v1beta1" || !reflect.DeepEqual(got, want) {
		t.Errorf("--convert: read at %s, spec = %v, want %v", with.ReadVersion, got, want)
	}
	// counted at v1, color is lost and size is not
	if with.ChangesAt != "v1" || !reflect.DeepEqual(with.Changes, Changes{Removed: []string{"spec.color"}}) || !slices.Contains(with.Categories, LosesFields) {
		t.Errorf("--convert: changes at %q: %+v, categories %v: want spec.color removed alone", with.ChangesAt, with.Changes, with.Categories)
	}
	without := analyzeFiles(t, nil, oldPath, newPath, convertData+"hub.yaml")[0]
	if got, want := spec(without.Read), map[string]any{"mode": "slow"}; !reflect.DeepEqual(got, want) {
		t.Errorf("None: read spec = %v, want %v", got, want)
	}
	if without.ChangesAt != "" || !slices.Contains(without.Changes.Removed, "spec.size") {
		t.Errorf("None: changes at %q: %+v: want spec.size removed", without.ChangesAt, without.Changes)
	}

	// created at v1 under an OLD that stores v1beta1: the create itself
	// goes through ConvertFrom, which keeps size as length and drops color
	oldPath, newPath = convertData+"old-v1beta1-storage.yaml", filepath.Join(convapi(t), "config", "crd")
	with = analyzeFiles(t, conv, oldPath, newPath, convertData+"hub.yaml")[0]
	if got, want := spec(with.Stored), map[string]any{"size": int64(3), "mode": "slow"}; !reflect.DeepEqual(got, want) {
		t.Errorf("--convert: created at v1, stored at v1beta1 under OLD, GET at v1: spec = %v, want %v", got, want)
	}
	without = analyzeFiles(t, nil, oldPath, newPath, convertData+"hub.yaml")[0]
	if got, want := spec(without.Stored), map[string]any{"mode": "slow"}; !reflect.DeepEqual(got, want) {
		t.Errorf("None: created at v1, stored at v1beta1 under OLD, GET at v1: spec = %v, want %v", got, want)
	}
}

// TestConvertJSON: -o json adds conversion, atStorageVersion, afterWrite and afterWriteAt
// under --convert, and nothing else: without it, a record has the same
// fields as before.
func TestConvertJSON(t *testing.T) {
	testConversion(t) // builds the program, or skips
	data := filepath.Join(testdataDir(t), "convert")
	t.Chdir(convapi(t))
	o := Options{Old: []string{filepath.Join(data, "old-v1beta1-storage.yaml")}, New: []string{"config/crd"}, Output: "json", Files: []string{filepath.Join(data, "spoke.yaml")}}

	out, stderr, code := runImpact(t, "", withConvert(o, "./api/..."))
	if code != ExitOK {
		t.Fatalf("--convert: exit %d, stderr:\n%s", code, stderr)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if rec["conversion"] != "program" {
		t.Errorf("conversion = %v", rec["conversion"])
	}
	at, _ := rec["atStorageVersion"].(map[string]any)
	if at["version"] != "v1" || !reflect.DeepEqual(spec(at["object"].(map[string]any)), map[string]any{"size": float64(7), "mode": "fast"}) {
		t.Errorf("atStorageVersion = %v", at)
	}
	if _, ok := rec["afterWrite"].(map[string]any); !ok {
		t.Errorf("afterWrite = %v", rec["afterWrite"])
	}

	out, _, code = runImpact(t, "", o)
	var plain map[string]any
	if err := json.Unmarshal([]byte(out), &plain); err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	var keys, plainKeys []string
	for k := range rec {
		keys = append(keys, k)
	}
	for k := range plain {
		plainKeys = append(plainKeys, k)
	}
	slices.Sort(keys)
	slices.Sort(plainKeys)
	added := slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return slices.Contains(plainKeys, k) })
	if want := []string{"afterWrite", "afterWriteAt", "atStorageVersion", "conversion"}; !reflect.DeepEqual(added, want) {
		t.Errorf("--convert adds the fields %v, want %v", added, want)
	}
	for _, k := range plainKeys {
		if !slices.Contains(keys, k) {
			t.Errorf("--convert drops the field %q", k)
		}
	}
}

// TestConvertText is the text report under --convert (golden: go test
// -run TestConvertText -update rewrites it), and the same report without
// --convert.
func TestConvertText(t *testing.T) {
	testConversion(t)
	data := filepath.Join(testdataDir(t), "convert")
	t.Chdir(convapi(t))
	for _, c := range []struct {
		name, golden string
		convert      []string
	}{
		{"convert", "report-convert.txt", []string{"./api/v1", "./api/v1beta1"}},
		{"none", "report-none.txt", nil},
		{"convert, v1beta1 served", "report-convert-served.txt", []string{"./api/..."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newCRD := filepath.Join(data, "new-v1beta1-not-served.yaml")
			if strings.HasSuffix(c.name, "served") {
				newCRD = "config/crd"
			}
			o := Options{Convert: c.convert, Old: []string{filepath.Join(data, "old-v1beta1-storage.yaml")}, New: []string{newCRD},
				Files: []string{filepath.Join(data, "spoke.yaml"), filepath.Join(data, "hub.yaml")}, Verbose: true}
			out, stderr, code := runImpact(t, "", o)
			if code != ExitImpact && code != ExitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			out = strings.ReplaceAll(out, data+string(filepath.Separator), "")
			golden := filepath.Join(data, c.golden)
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("report:\n%s\nwant (%s):\n%s", out, golden, want)
			}
		})
	}
}

// testdataDir is this package's testdata, absolute.
func testdataDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAfterWriteReuse: the object after its next write is the same whether
// the write's conversion is taken from the read at the storage version or
// asked of the API's code again.
func TestAfterWriteReuse(t *testing.T) {
	conv := testConversion(t)
	for _, c := range []struct{ old, new, file string }{
		{convertData + "old-v1beta1-storage.yaml", filepath.Join(convapi(t), "config", "crd"), convertData + "spoke.yaml"},
		{convertData + "old-v1beta1-storage.yaml", filepath.Join(convapi(t), "config", "crd"), convertData + "hub.yaml"},
		{convertData + "old-v1beta1-storage.yaml", convertData + "new-v1beta1-not-served.yaml", convertData + "spoke.yaml"},
		{filepath.Join(convapi(t), "config", "crd"), convertData + "new-v1beta1-storage-v1-not-served.yaml", convertData + "hub.yaml"},
	} {
		reused := analyzeFiles(t, conv, c.old, c.new, c.file)[0]
		asked := analyzeFiles(t, conv, c.old, c.new, c.file, func(a *Analyzer) { a.convertAgain = true })[0]
		if reused.AfterWrite == nil || !reflect.DeepEqual(reused.AfterWrite, asked.AfterWrite) {
			t.Errorf("%s under %s: afterWrite reused %+v, asked %+v", c.file, c.new, reused.AfterWrite, asked.AfterWrite)
		}
	}
}

// TestConvertUnusable: --convert with packages that do not load, or
// outside a module, exits 2 and says why; with packages of no CRD of OLD
// or NEW, it warns and reports as without it.
func TestConvertUnusable(t *testing.T) {
	testConversion(t)
	data := testdataDir(t)
	o := Options{Old: []string{filepath.Join(data, "old.yaml")}, New: []string{filepath.Join(data, "new.yaml")}, Files: []string{filepath.Join(data, "objects.yaml")}}
	plain, _, plainCode := runImpact(t, "", o)

	t.Run("no module", func(t *testing.T) {
		t.Chdir(t.TempDir())
		_, stderr, code := runImpact(t, "", withConvert(o, "./api/..."))
		if code != ExitUnusable || !strings.Contains(stderr, "impact: --convert ./api/...: ") || !strings.Contains(stderr, "is in no Go module") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
	t.Chdir(convapi(t))
	t.Run("no package", func(t *testing.T) {
		out, stderr, code := runImpact(t, "", withConvert(o, "./nosuch/..."))
		if code != ExitUnusable || out != "" || !strings.Contains(stderr, "./nosuch/...") {
			t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
		}
	})
	t.Run("no CRD of the kinds", func(t *testing.T) {
		out, stderr, code := runImpact(t, "", withConvert(o, "./api/..."))
		if !strings.Contains(stderr, "warning: --convert ./api/...: no CRD of OLD or NEW has a kind the API's code converts (Widget.conv.example.com)") {
			t.Errorf("stderr:\n%s", stderr)
		}
		if code != plainCode || out != plain {
			t.Errorf("exit %d (want %d), stdout differs from the run without --convert:\n%s", code, plainCode, out)
		}
	})
}

// TestConvertFailure: a Widget whose ConvertTo fails is a record of its
// own, conversion-failed with the request it fails (its GET at v1, the
// version NEW reads it at), where the apiserver answers 500; the run goes
// on to the next object and exits 1. In the text report, the table counts
// it.
func TestConvertFailure(t *testing.T) {
	testConversion(t)
	data := filepath.Join(testdataDir(t), "convert")
	t.Chdir(convapi(t))
	o := Options{Convert: []string{"./api/..."}, Old: []string{filepath.Join(data, "old-v1beta1-storage.yaml")},
		New: []string{filepath.Join(data, "new-v1beta1-not-served.yaml")}, Files: []string{filepath.Join(data, "fails.yaml")}}
	o.Output = "json"
	out, stderr, code := runImpact(t, "", o)
	if code != ExitImpact {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitImpact, stderr)
	}
	var recs []Record
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		recs = append(recs, r)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2:\n%s", len(recs), out)
	}
	broken, seven := recs[0], recs[1]
	want := &ConversionFailure{Request: RequestRead, From: "conv.example.com/v1beta1", To: "conv.example.com/v1",
		Message: "conversion webhook for conv.example.com/v1beta1, Kind=Widget failed: conv.example.com/fail-conversion: length cannot be converted"}
	if !reflect.DeepEqual(broken.ConversionFailed, want) || !slices.Contains(broken.Categories, ConversionFailed) || !broken.Fails {
		t.Errorf("broken: conversionFailed %+v, categories %v, fails %v; want %+v", broken.ConversionFailed, broken.Categories, broken.Fails, want)
	}
	if broken.Update != nil || broken.ReadVersion != "" {
		t.Errorf("broken: the steps after the failed read ran: readVersion %q, update %+v", broken.ReadVersion, broken.Update)
	}
	if seven.ConversionFailed != nil || seven.ReadVersion != "v1" || seven.AtStorageVersion == nil || spec(seven.AtStorageVersion.Object)["size"] != float64(7) {
		t.Errorf("seven: conversionFailed %+v, read at %q, at the storage version %+v: want converted at v1, size 7", seven.ConversionFailed, seven.ReadVersion, seven.AtStorageVersion)
	}

	o.Output, o.Verbose = "text", true
	text, _, _ := runImpact(t, "", o)
	for _, s := range []string{"Widget default/broken (conv.example.com/v1beta1): conversion failed",
		"the API's code fails to convert it (the apiserver answers 500): GET under NEW: converting conv.example.com/v1beta1 to conv.example.com/v1: ",
		"  conversion failed                 1"} {
		if !strings.Contains(text, s) {
			t.Errorf("text report lacks %q:\n%s", s, text)
		}
	}
}
