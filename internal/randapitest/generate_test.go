package randapitest

import (
	"bytes"
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
