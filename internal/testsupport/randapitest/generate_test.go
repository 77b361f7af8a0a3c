package randapitest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// TestGenerateIsReproducible: the same Config gives the same source, which
// is what makes a seed replayable; shrinking a copy of a kind leaves the
// original alone.
func TestGenerateIsReproducible(t *testing.T) {
	cfg := Config{Seed: 42, Kinds: 12, KindsPerPackage: 5, ZeroDefaults: 0.01}
	first, second := Generate(cfg), Generate(cfg)
	if len(first.Packages) != 3 {
		t.Fatalf("%d packages, want 3", len(first.Packages))
	}
	for i, p := range first.Packages {
		a, err := p.TypesSource()
		if err != nil {
			t.Fatal(err)
		}
		b, err := second.Packages[i].TypesSource()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("package %s: two runs of the same Config differ", p.Dir)
		}
	}

	k := first.Packages[0].Kinds[0]
	before, _ := k.Pkg.TypesSource()
	small := k.Only()
	for _, s := range small.Steps() {
		if small.Uses(s.Owner) {
			s.Apply()
		}
	}
	after, _ := k.Pkg.TypesSource()
	if !bytes.Equal(before, after) {
		t.Fatal("shrinking a kind's copy changed the original")
	}
	if _, err := small.Pkg.TypesSource(); err != nil {
		t.Fatal(err)
	}
	if src, err := HarnessSource(first.Kinds()); err != nil {
		t.Fatal(err)
	} else if !bytes.Contains(src, []byte("SetObjectDefaults_"+k.Name)) {
		t.Fatalf("the harness does not default %s", k.Name)
	}
}

// TestOldSeedsUnchanged pins the API of the seeds docs/testing.md names:
// the shapes of real APIs (Shapes), off at zero, draw nothing from the
// random source, so a Config without them gives the API it gave before
// they were added (the sources' SHA-256).
func TestOldSeedsUnchanged(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Seed: 42, Kinds: 80, IsZero: 0.2}, "863e2f79000255ae1fbd8962c2624414efb8b92bcf021eccce9245e4af8f8c96"},
		{Config{Seed: 7, Kinds: 40, IsZero: 0.2}, "d01d08f4e1d8f525fb90e49696ee660b6fa8cd74bda2b629deab0023af4b0e37"},
	} {
		h := sha256.New()
		for _, p := range Generate(c.cfg).Packages {
			files, err := p.Files()
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range slices.Sorted(maps.Keys(files)) {
				fmt.Fprintf(h, "%s/%s\n%s", p.Dir, name, files[name])
			}
		}
		if got := fmt.Sprintf("%x", h.Sum(nil)); got != c.want {
			t.Errorf("seed %d: the API's sources hash to %s, not %s: a change to randapi moved an old seed's API", c.cfg.Seed, got, c.want)
		}
	}
}

// TestShapesReproducible: an API with the shapes of real APIs is
// reproducible too, every package's source parses, and a kind of a later
// version, alone (shrinking's start), keeps the packages of the types it
// uses from others.
func TestShapesReproducible(t *testing.T) {
	cfg := Shapes(Config{Seed: 3, Kinds: 24, KindsPerPackage: 6, IsZero: 0.2})
	first, second := Generate(cfg), Generate(cfg)
	for i, p := range first.Packages {
		a, err := p.TypesSource()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := second.Packages[i].TypesSource()
		if !bytes.Equal(a, b) {
			t.Fatalf("package %s: two runs of the same Config differ", p.Dir)
		}
	}
	var later *Kind
	for _, k := range first.Kinds() {
		for _, n := range k.types() {
			if n.Pkg != k.Pkg && later == nil {
				later = k
			}
		}
	}
	if later == nil {
		t.Fatal("no kind uses a type of another package: Shapes shares none")
	}
	small := later.Only()
	if len(small.API().Packages) < 2 {
		t.Fatalf("kind %s alone: %d packages, want its own and those of the types it uses", later.Key(), len(small.API().Packages))
	}
	for _, p := range small.API().Packages {
		if _, err := p.TypesSource(); err != nil {
			t.Fatal(err)
		}
	}
}
