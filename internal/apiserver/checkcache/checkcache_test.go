package checkcache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func crd(name string) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

// counter is a check that counts its runs and finds out.
func counter(runs *int, out ...string) func() []string {
	return func() []string { *runs++; return out }
}

// entries are the files of the cache directory, temporary ones included.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	out, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRunStoresCleanOnly is the policy: a check that finds something runs
// on every call and stores nothing; a clean outcome is stored, and the
// check does not run again on the same CRDs under the same name.
func TestRunStoresCleanOnly(t *testing.T) {
	dir := t.TempDir()
	c := OpenDir(dir)
	crds := []*apiextensionsv1.CustomResourceDefinition{crd("a"), crd("b")}
	runs := 0
	for range 2 {
		if got := Run(c, "update", crds, counter(&runs, "refused")); len(got) != 1 {
			t.Fatalf("the finding is lost: %q", got)
		}
	}
	if runs != 2 || len(entries(t, dir)) != 0 {
		t.Errorf("a finding was cached: %d runs, want 2; entries %q", runs, entries(t, dir))
	}
	Run(c, "update", crds, counter(&runs))
	if got := Run(c, "update", crds, counter(&runs, "never run")); got != nil || runs != 3 {
		t.Errorf("a clean outcome was not cached: %d runs, want 3; %q", runs, got)
	}
	if len(entries(t, dir)) != 1 {
		t.Errorf("entries %q, want one", entries(t, dir))
	}
}

// TestKeyTellsApart: another check name, the CRDs in another order, fewer
// CRDs, or one letter of a CRD's JSON changed is another entry; the same
// check on equal CRDs is the same, in another Cache of the same directory.
func TestKeyTellsApart(t *testing.T) {
	dir := t.TempDir()
	c := OpenDir(dir)
	a, b := crd("a"), crd("b")
	key := c.Key("update", a, b)
	others := map[string]string{
		"another check":       c.Key("create", a, b),
		"another order":       c.Key("update", b, a),
		"fewer CRDs":          c.Key("update", a),
		"one letter changed":  c.Key("update", a, crd("c")),
		"a name split in two": c.Key("update", crd("ab")),
	}
	for what, k := range others {
		if k == key || k == "" {
			t.Errorf("%s: key %q, the same as %q", what, k, key)
		}
	}
	if again := OpenDir(dir).Key("update", crd("a"), crd("b")); again != key {
		t.Errorf("equal CRDs: key %q, want %q", again, key)
	}
}

// TestDamagedEntry: a file at an entry's path that is not what the cache
// writes (empty, truncated, another key) misses, and Run rewrites it.
func TestDamagedEntry(t *testing.T) {
	c := OpenDir(t.TempDir())
	crds := []*apiextensionsv1.CustomResourceDefinition{crd("a")}
	key := c.Key("create", crds...)
	c.MarkClean(key)
	if !c.Clean(key) {
		t.Fatal("no entry")
	}
	for _, content := range []string{"", key[:10], strings.Repeat("0", len(key))} {
		if err := os.WriteFile(c.Path(key), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.Clean(key) {
			t.Errorf("entry %q hits", content)
		}
	}
	runs := 0
	Run(c, "create", crds, counter(&runs))
	if runs != 1 || !c.Clean(key) {
		t.Errorf("a damaged entry is not rewritten: %d runs", runs)
	}
}

// TestOff: CONTROLLER_GEN_DEFAULT_CHECK_CACHE=off turns the cache off; a
// nil cache runs every check and stores nothing. Open is in the user cache
// directory, controller-gen-default/checks.
func TestOff(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", base)
	t.Setenv("HOME", base) // os.UserCacheDir on macOS
	c := Open()
	if c == nil {
		t.Fatal("no cache without the variable")
	}
	if userDir, _ := os.UserCacheDir(); c.dir != filepath.Join(userDir, "controller-gen-default", "checks") {
		t.Errorf("the cache is in %s", c.dir)
	}
	t.Setenv(Env, "off")
	c = Open()
	if c != nil {
		t.Fatal("a cache with the variable off")
	}
	runs := 0
	crds := []*apiextensionsv1.CustomResourceDefinition{crd("a")}
	Run(c, "create", crds, counter(&runs))
	Run(c, "create", crds, counter(&runs))
	if runs != 2 || c.Key("create", crds...) != "" || len(entries(t, base)) != 0 {
		t.Errorf("the nil cache: %d runs, want 2; entries %q", runs, entries(t, base))
	}
}

// TestConcurrent: runs that fill the same entries at once each get their
// check's outcome, and leave exactly one entry per clean CRD and no
// temporary file.
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	const n = 8
	for range 4 {
		wg.Go(func() {
			c := OpenDir(dir)
			for i := range n {
				x := crd(fmt.Sprint(i))
				var out []string
				if i%2 == 1 {
					out = []string{"refused"}
				}
				if got := Run(c, "create", []*apiextensionsv1.CustomResourceDefinition{x}, func() []string { return out }); len(got) != len(out) {
					t.Errorf("CRD %d: %q, want %q", i, got, out)
				}
			}
		})
	}
	wg.Wait()
	if got := entries(t, dir); len(got) != n/2 {
		t.Errorf("entries %q, want %d", got, n/2)
	}
}

// TestStoreLoad: a value stored is loaded as it was; another digest or
// another name is another entry; a damaged entry (a byte changed, cut
// short, a clean outcome's) misses; a nil cache stores nothing.
func TestStoreLoad(t *testing.T) {
	dir := t.TempDir()
	c := OpenDir(dir)
	key := c.DataKey("crds", []byte("digest"))
	if key == c.DataKey("crds", []byte("digesT")) || key == c.DataKey("other", []byte("digest")) || key != c.DataKey("crds", []byte("digest")) {
		t.Fatal("keys do not tell data apart")
	}
	if _, ok := c.Load(key); ok {
		t.Fatal("a hit in an empty cache")
	}
	value := []byte("crds 1\n1 0 2\n{}\n")
	c.Store(key, value)
	got, ok := c.Load(key)
	if !ok || string(got) != string(value) {
		t.Fatalf("loaded %q, %t; want %q", got, ok, value)
	}
	if c.Clean(key) {
		t.Error("a value's entry is a clean outcome")
	}
	good, err := os.ReadFile(c.Path(key))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{good[:len(good)-1], append(append([]byte(nil), good[:len(good)-2]...), 'x', '\n'), []byte(key), nil} {
		if err := os.WriteFile(c.Path(key), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Load(key); ok {
			t.Errorf("entry %q loads %q", bad, got)
		}
	}
	var none *Cache
	none.Store(none.DataKey("crds", []byte("digest")), value)
	if _, ok := none.Load(none.DataKey("crds", []byte("digest"))); ok {
		t.Error("a nil cache hits")
	}
	for _, e := range entries(t, dir) {
		if strings.Contains(filepath.Base(e), ".tmp-") {
			t.Errorf("a temporary file is left: %s", e)
		}
	}
}
