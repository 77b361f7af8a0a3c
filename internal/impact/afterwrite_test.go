package impact

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestAfterWriteSpoke: OLD stores v1beta1, NEW stores v1 and serves both.
// After the next write (a no-op update at v1beta1, stored at v1), a GET at
// v1beta1 of a Widget written with length 0 returns length 12: ConvertTo
// writes size 0, which encoding/json omits, and the read defaults it at v1
// where it is now stored. Before the write it read length 0. That is a
// change for v1beta1's readers: loses-fields-after-write. A Widget without
// length gains length 12 (no loss); one with length 7 reads the same. The
// Widget whose ConvertTo fails breaks every LIST and WATCH at v1 while it
// is stored at v1beta1, and at v1beta1 nothing.
func TestAfterWriteSpoke(t *testing.T) {
	conv := testConversion(t)
	recs := analyzeFiles(t, conv, convertData+"old-v1beta1-storage.yaml", filepath.Join(convapi(t), "config", "crd"), convertData+"afterwrite.yaml")
	byName := map[string]*Record{}
	for _, r := range recs {
		byName[r.Name] = r
	}

	zero := byName["zero"]
	aw := onlyAfterWriteAt(t, zero, "v1beta1")
	if got, want := spec(aw.Object), map[string]any{"length": int64(12), "mode": "fast"}; !reflect.DeepEqual(got, want) {
		t.Errorf("zero: at v1beta1 after the write: spec %v, want %v", got, want)
	}
	if want := (Changes{Changed: []string{"spec.length"}}); !reflect.DeepEqual(aw.Changes, want) {
		t.Errorf("zero: changes at v1beta1 after the write %+v, want %+v", aw.Changes, want)
	}
	if !strings.Contains(aw.Diff, "-  length: 0\n") || !strings.Contains(aw.Diff, "+  length: 12\n") {
		t.Errorf("zero: diff\n%s", aw.Diff)
	}
	if !slices.Contains(zero.Categories, LosesAfterWrite) || slices.Contains(zero.Categories, Unchanged) || !zero.Fails {
		t.Errorf("zero: categories %v, fails %v: want loses-fields-after-write, failing", zero.Categories, zero.Fails)
	}

	empty := byName["empty"]
	aw = onlyAfterWriteAt(t, empty, "v1beta1")
	if want := (Changes{Added: []string{"spec.length"}}); !reflect.DeepEqual(aw.Changes, want) {
		t.Errorf("empty: changes at v1beta1 after the write %+v, want %+v", aw.Changes, want)
	}
	if slices.Contains(empty.Categories, LosesAfterWrite) || empty.Fails {
		t.Errorf("empty: categories %v, fails %v: a gain is no loss", empty.Categories, empty.Fails)
	}

	seven := byName["seven"]
	aw = onlyAfterWriteAt(t, seven, "v1beta1")
	if aw.Diff != "" || !reflect.DeepEqual(aw.Changes, Changes{}) || !reflect.DeepEqual(seven.Categories, []string{Unchanged, StorageVersionChanged}) {
		t.Errorf("seven: after the write at v1beta1 %+v, categories %v: want the same read, unchanged", aw, seven.Categories)
	}
	for _, r := range []*Record{zero, empty, seven} {
		if len(r.ListFails) > 0 {
			t.Errorf("%s: listFails %+v", r.Name, r.ListFails)
		}
	}

	broken := byName["broken"]
	want := []ListFailure{{Version: "v1", StoredAt: "v1beta1",
		Message: "conversion webhook for conv.example.com/v1beta1, Kind=Widget failed: conv.example.com/fail-conversion: length cannot be converted"}}
	if !reflect.DeepEqual(broken.ListFails, want) {
		t.Errorf("broken: listFails %+v, want %+v", broken.ListFails, want)
	}
	if f := broken.ConversionFailed; f == nil || f.Request != RequestReadAtStorage {
		t.Errorf("broken: conversionFailed %+v, want its GET at v1", f)
	}
	if !slices.Contains(broken.Categories, BreaksList) || !slices.Contains(broken.Categories, ConversionFailed) || !broken.Fails {
		t.Errorf("broken: categories %v, fails %v", broken.Categories, broken.Fails)
	}
}

// TestAfterWriteHub: OLD stores v1, NEW stores v1beta1 and serves both. A
// Widget written at v1 with color reads the same at v1beta1 before and
// after its next write, but at v1 it loses color: the write stores it at
// v1beta1 through ConvertFrom, which drops color.
func TestAfterWriteHub(t *testing.T) {
	conv := testConversion(t)
	r := analyzeFiles(t, conv, filepath.Join(convapi(t), "config", "crd"), convertData+"old-v1beta1-storage.yaml", convertData+"hub.yaml")[0]
	if r.ReadVersion != "v1" || r.AfterWrite == nil || r.AfterWrite.Version != "v1beta1" || r.AfterWrite.Diff != "" {
		t.Fatalf("read at %s, afterWrite %+v: want read at v1, the same at v1beta1 after the write", r.ReadVersion, r.AfterWrite)
	}
	aw := onlyAfterWriteAt(t, r, "v1")
	if want := (Changes{Removed: []string{"spec.color"}}); !reflect.DeepEqual(aw.Changes, want) {
		t.Errorf("at v1 after the write: changes %+v, want %+v", aw.Changes, want)
	}
	if got, want := spec(aw.Object), map[string]any{"size": int64(3), "mode": "slow"}; !reflect.DeepEqual(got, want) {
		t.Errorf("at v1 after the write: spec %v, want %v", got, want)
	}
	if !slices.Contains(r.Categories, LosesAfterWrite) || !r.Fails {
		t.Errorf("categories %v, fails %v", r.Categories, r.Fails)
	}
}

// TestAfterWriteText: the text report says what readers of a version lose
// after the next write, and which LISTs an object breaks; -o json has
// afterWriteAt and listFails; the exit status is 1.
func TestAfterWriteText(t *testing.T) {
	testConversion(t)
	data := filepath.Join(testdataDir(t), "convert")
	t.Chdir(convapi(t))
	o := Options{Convert: []string{"./api/..."}, Old: []string{filepath.Join(data, "old-v1beta1-storage.yaml")}, New: []string{"config/crd"},
		Files: []string{filepath.Join(data, "afterwrite.yaml")}, Verbose: true}
	out, stderr, code := runImpact(t, "", o)
	if code != ExitImpact {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitImpact, stderr)
	}
	for _, s := range []string{
		"Widget default/zero (conv.example.com/v1beta1): loses fields after its next write, storage version changed\n",
		"    after its next write (stored at v1), a GET at v1beta1 changes spec.length: 0 → 12:\n",
		"    --- read at v1beta1 now\n    +++ read at v1beta1 after its next write\n",
		"Widget default/empty (conv.example.com/v1beta1): unchanged, storage version changed\n",
		"    after its next write (stored at v1), a GET at v1beta1 gains spec.length: 12:\n",
		"Widget default/broken (conv.example.com/v1beta1): conversion failed, breaks LIST and WATCH\n",
		"    while it is stored at v1beta1, every LIST and WATCH of the resource at v1 fails, since the apiserver converts every item and this one's conversion fails " +
			"(500 for a LIST read from etcd, as one with a limit is while the watch cache is not ready; 429 \"storage is (re)initializing\" for the other LISTs and every WATCH, " +
			"since the watch cache at v1 cannot initialize): conversion webhook for conv.example.com/v1beta1, Kind=Widget failed: conv.example.com/fail-conversion: length cannot be converted\n",
		"  losing fields after write         1\n",
		"  breaking LIST and WATCH           1\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the report lacks %q:\n%s", s, out)
		}
	}

	o.Output = "json"
	out, _, code = runImpact(t, "", o)
	if code != ExitImpact {
		t.Fatalf("-o json: exit %d", code)
	}
	var broken, zero map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch rec["name"] {
		case "broken":
			broken = rec
		case "zero":
			zero = rec
		}
	}
	if lf, _ := broken["listFails"].([]any); len(lf) != 1 || lf[0].(map[string]any)["version"] != "v1" {
		t.Errorf("broken: listFails %v", broken["listFails"])
	}
	if at, _ := zero["afterWriteAt"].([]any); len(at) != 1 || at[0].(map[string]any)["version"] != "v1beta1" {
		t.Errorf("zero: afterWriteAt %v", zero["afterWriteAt"])
	}
}

// onlyAfterWriteAt is r's one read after the write, at version.
func onlyAfterWriteAt(t *testing.T, r *Record, version string) AfterWriteRead {
	t.Helper()
	if len(r.AfterWriteAt) != 1 || r.AfterWriteAt[0].Version != version {
		t.Fatalf("%s: afterWriteAt %+v, want one read at %s", r.Name, r.AfterWriteAt, version)
	}
	return r.AfterWriteAt[0]
}
