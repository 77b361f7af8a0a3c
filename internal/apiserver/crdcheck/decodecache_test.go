package crdcheck

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
)

// TestMain keeps the package's tests out of the user's cache: LoadCRDs
// reads and fills the decode cache of the user cache directory, here a
// temporary one.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crdcheck-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	_ = os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func sha256Of(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// decodeCorpus is CRD files: the golden CRDs and impact's test files (CRDs,
// Lists of them, other kinds, refused CRDs), as they are and with random
// bytes changed (which may make them invalid, or other CRDs), a file of
// several CRDs, a List, JSON, and invalid files of each kind of error.
func decodeCorpus(t *testing.T) map[string][]byte {
	t.Helper()
	corpus := map[string][]byte{}
	var files []string
	for _, glob := range []string{"../../../testdata/golden/*.yaml", "../../impact/testdata/*.yaml"} {
		f, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	if len(files) < 5 {
		t.Fatalf("too few CRD files: %q", files)
	}
	r := rand.New(rand.NewPCG(11, 12))
	var all bytes.Buffer
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(f)) + "-" + filepath.Base(f)
		corpus[name] = b
		all.WriteString("---\n")
		all.Write(b)
		for i := range 6 {
			changed := bytes.Clone(b)
			for range 1 + i/3 {
				changed[r.IntN(len(changed))] = " :-[]{}\nabckz01\"'&*!|>\t"[r.IntN(23)]
			}
			corpus[fmt.Sprintf("%s-edit%d.yaml", strings.TrimSuffix(name, ".yaml"), i)] = changed
		}
	}
	corpus["all.yaml"] = all.Bytes()
	crd := func(plural string) string {
		return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: " + plural + ".example.com}\n" +
			"spec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: " + plural + ", kind: K" + plural + "}\n" +
			"  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]\n"
	}
	corpus["list.yaml"] = []byte("apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(crd("as"), "\n", "\n  ") + "\n- " + strings.ReplaceAll(crd("bs"), "\n", "\n  ") + "\n")
	corpus["empty-docs.yaml"] = []byte("---\n# only a comment\n---\nnull\n---\n" + crd("cs") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n" + crd("ds"))
	corpus["nocrd.yaml"] = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
	corpus["empty.yaml"] = nil
	var j bytes.Buffer
	for _, p := range []string{"es", "fs"} {
		var v any
		if err := yamlToAny(crd(p), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		j.Write(b)
		j.WriteString("\n")
	}
	corpus["stream.json"] = j.Bytes()
	corpus["dup.yaml"] = []byte(crd("gs") + "metadata: {name: x}\n")
	corpus["unknown.yaml"] = []byte(strings.Replace(crd("hs"), "scope:", "scoop:", 1))
	corpus["v1beta1.yaml"] = []byte(strings.Replace(crd("is"), "/v1\n", "/v1beta1\n", 1))
	corpus["syntax.yaml"] = []byte(crd("js") + "---\na: [\n")
	corpus["int.yaml"] = []byte(strings.Replace(crd("ks"), "served: true", "served: 1", 1))
	return corpus
}

// yamlToAny reads one YAML document as the tests' generic value.
func yamlToAny(doc string, v *any) error {
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return err
	}
	return json.Unmarshal(j, v)
}

// sameRead fails the test unless two reads of a file give the same CRDs,
// at the same places, or the same error.
func sameRead(t *testing.T, what string, got, want []sourcedCRD, gotErr, wantErr error) {
	t.Helper()
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Errorf("%s: error %v, want %v", what, gotErr, wantErr)
		return
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d CRDs, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if got[i].at != want[i].at || !reflect.DeepEqual(got[i].crd, want[i].crd) {
			t.Errorf("%s: CRD %d is %s at %s, want %s at %s (equal: %t)", what, i, got[i].crd.Name, got[i].at,
				want[i].crd.Name, want[i].at, reflect.DeepEqual(got[i].crd, want[i].crd))
		}
	}
}

// TestDecodeCacheIsReadCRDs: reading a file through the decode cache, on a
// miss (which fills it) and on a hit, gives what reading it without one
// gives (the same CRDs, deeply equal, at the same FILE:DOC[:ITEM], or the
// same error), on decodeCorpus; a file read with an error stores nothing,
// and one read clean is a hit the second time, under any name.
func TestDecodeCacheIsReadCRDs(t *testing.T) {
	corpus := decodeCorpus(t)
	dir := t.TempDir()
	fsys := fstest.MapFS{}
	for name, b := range corpus {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		fsys["d/"+name] = &fstest.MapFile{Data: b}
	}
	cache := checkcache.OpenDir(t.TempDir())
	if cache == nil {
		t.Fatal("no cache: the test binary cannot be named")
	}
	osTree := tree{fsys: osFS{}, join: filepath.Join, name: func(p string) string { return p }}
	fsTree := tree{fsys: fsys, join: func(e ...string) string { return strings.Join(e, "/") }, name: func(p string) string { return "git:" + p }}
	outcomes := map[string]int{}
	for name := range corpus {
		p := filepath.Join(dir, name)
		want, wantErr := readFileCached(nil, osTree, p)
		for _, round := range []string{"miss", "hit"} {
			got, err := readFileCached(cache, osTree, p)
			sameRead(t, name+" "+round, got, want, err, wantErr)
		}
		_, hit := readFromCache(cache, osTree, p)
		if hit == (wantErr != nil) {
			t.Errorf("%s: read with error %v, an entry: %t", name, wantErr, hit)
		}
		// the same bytes under another name and in another tree: a hit,
		// with this name's positions
		fsWant, fsWantErr := readFileCached(nil, fsTree, "d/"+name)
		got, err := readFileCached(cache, fsTree, "d/"+name)
		sameRead(t, name+" in an fs.FS", got, fsWant, err, fsWantErr)
		switch {
		case wantErr != nil:
			outcomes["error"]++
		case len(want) == 0:
			outcomes["no CRD"]++
		default:
			outcomes["CRDs"]++
		}
	}
	if outcomes["error"] < 5 || outcomes["no CRD"] < 2 || outcomes["CRDs"] < 10 {
		t.Errorf("outcomes %v: the corpus must have each", outcomes)
	}
	t.Log(outcomes)
}

// TestDecodeCacheBadEntries: an entry that is damaged (a byte changed,
// truncated, emptied, another file's), or well formed but holding JSON
// that does not decode as a CRD, or positions that are not, is a miss: the
// file is read as without a cache, and the entry written again.
func TestDecodeCacheBadEntries(t *testing.T) {
	corpus := decodeCorpus(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "all.yaml")
	if err := os.WriteFile(p, corpus["all.yaml"], 0o644); err != nil {
		t.Fatal(err)
	}
	osTree := tree{fsys: osFS{}, join: filepath.Join, name: func(p string) string { return p }}
	want, wantErr := readFileCached(nil, osTree, p)
	if wantErr != nil || len(want) < 2 {
		t.Fatalf("all.yaml: %d CRDs, %v", len(want), wantErr)
	}
	cache := checkcache.OpenDir(t.TempDir())
	key := cache.DataKey(dataCRDs, sha256Of(corpus["all.yaml"]))
	if _, err := readFileCached(cache, osTree, p); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(cache.Path(key))
	if err != nil {
		t.Fatalf("no entry: %v", err)
	}
	value, ok := cache.Load(key)
	if !ok {
		t.Fatal("the entry does not load")
	}
	decoded, ok := decodeDecoded(value)
	if !ok || len(decoded) != len(want) {
		t.Fatalf("the entry holds %d CRDs (%t), want %d", len(decoded), ok, len(want))
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 1
	reencode := func(edit func([]decodedCRD) []decodedCRD) []byte {
		d := make([]decodedCRD, len(decoded))
		copy(d, decoded)
		return encodeDecoded(edit(d))
	}
	for _, tc := range []struct {
		what  string
		entry []byte // the file, or
		value []byte // a value stored whole
	}{
		{what: "a byte changed", entry: flipped},
		{what: "truncated", entry: good[:len(good)-10]},
		{what: "empty", entry: []byte{}},
		{what: "a clean outcome's", entry: []byte(key)},
		{what: "garbage", value: []byte("crds 2\nnot an entry")},
		{what: "unknown field", value: reencode(func(d []decodedCRD) []decodedCRD {
			d[1].json = append([]byte(`{"unknown":1,`), d[1].json[1:]...)
			return d
		})},
		{what: "not JSON", value: reencode(func(d []decodedCRD) []decodedCRD { d[0].json = []byte("{"); return d })},
		{what: "document 0", value: reencode(func(d []decodedCRD) []decodedCRD { d[0].doc = 0; return d })},
		{what: "trailing bytes", value: append(reencode(func(d []decodedCRD) []decodedCRD { return d }), 'x')},
	} {
		if tc.value != nil {
			cache.Store(key, tc.value)
		} else if err := os.WriteFile(cache.Path(key), tc.entry, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, hit := readFromCache(cache, osTree, p); hit {
			t.Errorf("%s: a hit", tc.what)
		}
		got, err := readFileCached(cache, osTree, p)
		sameRead(t, tc.what, got, want, err, wantErr)
		if again, _ := os.ReadFile(cache.Path(key)); !bytes.Equal(again, good) {
			t.Errorf("%s: the entry is not written again", tc.what)
		}
	}
}

// TestDecodeCacheOffAndConcurrent: CONTROLLER_GEN_DEFAULT_CHECK_CACHE=off
// stores nothing; runs that fill the cache at once read what a run
// without it reads, and leave one entry per file, no temporary file.
func TestDecodeCacheOffAndConcurrent(t *testing.T) {
	corpus := decodeCorpus(t)
	dir := t.TempDir()
	n := 0
	for name, b := range corpus {
		if strings.HasPrefix(name, "golden-") && !strings.Contains(name, "-edit") {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	cacheHome := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheHome)
	t.Setenv(checkcache.Env, "off")
	want, wantErr := LoadCRDs(dir)
	if wantErr != nil || len(want) == 0 {
		t.Fatalf("%d CRDs, %v", len(want), wantErr)
	}
	entries := func() []string {
		e, _ := filepath.Glob(filepath.Join(cacheHome, "controller-gen-default", "checks", "*", "*"))
		return e
	}
	if e := entries(); len(e) != 0 {
		t.Fatalf("the cache is off, and holds %q", e)
	}
	t.Setenv(checkcache.Env, "")
	var wg sync.WaitGroup
	got := make([][]any, 6)
	for i := range got {
		wg.Go(func() {
			crds, err := LoadCRDs(dir)
			got[i] = []any{crds, err}
		})
	}
	wg.Wait()
	for i, g := range got {
		if g[1] != nil || !reflect.DeepEqual(g[0], want) {
			t.Errorf("run %d: %v, or other CRDs", i, g[1])
		}
	}
	if e := entries(); len(e) != n {
		t.Errorf("%d entries for %d files: %q", len(e), n, e)
	}
	if crds, err := LoadCRDs(dir); err != nil || !reflect.DeepEqual(crds, want) {
		t.Errorf("from the cache: %v, or other CRDs", err)
	}
}
