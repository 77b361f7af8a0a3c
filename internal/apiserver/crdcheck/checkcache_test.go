package crdcheck

import (
	"context"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
)

// messages are errs as sorted text: the validators walk maps in random
// order.
func messages(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	slices.Sort(out)
	return out
}

// entries are the files of the cache directory.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	return out
}

func goldenCRDs(t *testing.T) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crds, err := LoadCRDs("../../../testdata/golden")
	if err != nil || len(crds) == 0 {
		t.Fatalf("LoadCRDs: %d CRDs, %v", len(crds), err)
	}
	return crds
}

// invalidCRD is crd with a CEL rule that does not compile.
func invalidCRD(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	c := crd.DeepCopy()
	c.Spec.Versions[0].Schema.OpenAPIV3Schema.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.nosuchfield >"}}
	return c
}

// TestCheckCacheIsValidateCRD: for valid and invalid CRDs, a run that
// fills the cache, a run that reads it and ValidateCRD itself give the
// same errors; only clean outcomes are stored.
func TestCheckCacheIsValidateCRD(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := openCheckCache(dir)
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range goldenCRDs(t) {
		crds = append(crds, crd, invalidCRD(crd))
	}
	valid := 0
	for _, crd := range crds {
		want := messages(ValidateCRD(ctx, crd))
		if len(want) == 0 {
			valid++
		}
		for run := range 2 {
			if got := messages(c.ValidateCRD(ctx, crd)); !slices.Equal(got, want) {
				t.Errorf("%s, run %d: %q, want %q", crd.Name, run, got, want)
			}
		}
	}
	if valid == 0 || valid == len(crds) {
		t.Fatalf("%d valid CRDs of %d: the corpus must have both", valid, len(crds))
	}
	if got := len(entries(t, dir)); got != valid {
		t.Errorf("%d entries, want one per valid CRD (%d)", got, valid)
	}
	// the entries are what a second cache reads: nothing is validated
	// again, and ValidateCRDs answers the same in the same order
	again := openCheckCache(dir)
	for i, errs := range again.ValidateCRDs(ctx, crds) {
		if got, want := messages(errs), messages(ValidateCRD(ctx, crds[i])); !slices.Equal(got, want) {
			t.Errorf("ValidateCRDs, %s: %q, want %q", crds[i].Name, got, want)
		}
	}
	if got := len(entries(t, dir)); got != valid {
		t.Errorf("%d entries after a second run, want %d", got, valid)
	}
}

// TestCheckCacheOneByte: a valid CRD is cached; the same CRD with one
// byte of its JSON changed (any letter of it, where the result is still a
// CRD) misses the cache, and is validated: its errors, when the change
// made it invalid, are ValidateCRD's.
func TestCheckCacheOneByte(t *testing.T) {
	ctx := context.Background()
	c := openCheckCache(t.TempDir())
	r := rand.New(rand.NewPCG(3, 4))
	invalid := 0
	for _, crd := range goldenCRDs(t) {
		if errs := c.ValidateCRD(ctx, crd); len(errs) > 0 {
			t.Fatalf("%s: %v", crd.Name, errs)
		}
		if !c.c.Clean(c.c.Key("create", crd)) {
			t.Fatalf("%s: a valid CRD was not cached", crd.Name)
		}
		b, err := json.Marshal(crd)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{string(b): true}
		for range 20 {
			i := r.IntN(len(b))
			if b[i] < 'a' || b[i] > 'z' {
				continue
			}
			changed := slices.Clone(b)
			changed[i] = 'a' + (b[i]-'a'+1+byte(r.IntN(25)))%26
			m := &apiextensionsv1.CustomResourceDefinition{}
			if json.Unmarshal(changed, m) != nil {
				continue
			}
			again, _ := json.Marshal(m)
			if seen[string(again)] {
				continue // the same change again, or a field name the decoder matches case-insensitively
			}
			seen[string(again)] = true
			if c.c.Clean(c.c.Key("create", m)) {
				t.Errorf("%s with byte %d changed (%q → %q) hits the cache", crd.Name, i, b[i], changed[i])
			}
			want := messages(ValidateCRD(ctx, m))
			if got := messages(c.ValidateCRD(ctx, m)); !slices.Equal(got, want) {
				t.Errorf("%s with byte %d changed: %q, want %q", crd.Name, i, got, want)
			}
			if len(want) > 0 {
				invalid++
			}
		}
	}
	t.Logf("%d changed CRDs were invalid", invalid)
}

// TestCheckCacheConcurrent: runs that validate the same CRDs at once all
// get the right answer, and leave one whole entry per CRD, no temporary
// file.
func TestCheckCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	crds := goldenCRDs(t)[:4]
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			c := openCheckCache(dir)
			for i, errs := range c.ValidateCRDs(ctx, crds) {
				if len(errs) > 0 {
					t.Errorf("%s: %v", crds[i].Name, errs)
				}
			}
		})
	}
	wg.Wait()
	got := entries(t, dir)
	if len(got) != len(crds) {
		t.Errorf("entries %q, want %d", got, len(crds))
	}
	c := openCheckCache(dir)
	for _, crd := range crds {
		if !c.c.Clean(c.c.Key("create", crd)) {
			t.Errorf("%s: no whole entry", crd.Name)
		}
	}
}

// TestCheckCacheDamagedEntry: an entry that is not what the cache writes
// (truncated, empty) misses.
func TestCheckCacheDamagedEntry(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := openCheckCache(dir)
	crd := goldenCRDs(t)[0]
	key := c.c.Key("create", crd)
	c.c.MarkClean(key)
	if !c.c.Clean(key) {
		t.Fatal("no entry")
	}
	for _, content := range []string{"", key[:10], strings.Repeat("0", len(key))} {
		if err := writeFile(c.c.Path(key), content); err != nil {
			t.Fatal(err)
		}
		if c.c.Clean(key) {
			t.Errorf("entry %q hits", content)
		}
	}
	if errs := c.ValidateCRD(ctx, crd); len(errs) > 0 || !c.c.Clean(key) {
		t.Errorf("a damaged entry is not rewritten: %v", errs)
	}
}

// TestCheckCacheOff: CONTROLLER_GEN_DEFAULT_CHECK_CACHE=off turns it off,
// and a nil cache validates every time.
func TestCheckCacheOff(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if OpenCheckCache() == nil {
		t.Fatal("no cache without the variable")
	}
	t.Setenv(checkcache.Env, "off")
	c := OpenCheckCache()
	if c != nil {
		t.Fatal("a cache with the variable off")
	}
	crd := invalidCRD(goldenCRDs(t)[0])
	if got, want := messages(c.ValidateCRD(context.Background(), crd)), messages(ValidateCRD(context.Background(), crd)); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("nil cache: %q, want %q", got, want)
	}
}

// TestCachedUpdateCheck: Cached stores clean outcomes of any check, by
// its name and CRDs, and never a finding.
func TestCachedUpdateCheck(t *testing.T) {
	c := openCheckCache(t.TempDir())
	crds := goldenCRDs(t)[:2]
	runs := 0
	check := func(out ...string) func() []string {
		return func() []string { runs++; return out }
	}
	Cached(c, "update", crds, check("refused"))
	Cached(c, "update", crds, check("refused"))
	if runs != 2 {
		t.Errorf("a finding was cached: %d runs, want 2", runs)
	}
	Cached(c, "update", crds, check())
	Cached(c, "update", crds, check("never run"))
	if runs != 3 {
		t.Errorf("a clean outcome was not cached: %d runs, want 3", runs)
	}
	if got := Cached(c, "update", []*apiextensionsv1.CustomResourceDefinition{crds[1], crds[0]}, check("other order")); len(got) != 1 {
		t.Errorf("the CRDs in another order hit: %v", got)
	}
	if got := Cached(c, "other", crds, check("other check")); len(got) != 1 {
		t.Errorf("another check hits: %v", got)
	}
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

// openCheckCache is a check cache in dir.
func openCheckCache(dir string) *CheckCache { return wrap(checkcache.OpenDir(dir)) }
