package conversion

import (
	"math/rand/v2"
	"regexp"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// TestPatternString: strings generated from a pattern's syntax tree match
// it, within the lengths asked; the filler uses them.
func TestPatternString(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		pattern  string
		min, max int
	}{
		// cluster-api's apiVersion of a template reference
		{`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[a-z]([-a-z0-9]*[a-z0-9])?$`, 1, 317},
		{`^\[[0-9]+-[0-9]+\]$`, 0, -1},
		{`^[A-Z][a-zA-Z0-9]{2,5}$`, 3, 6},
		{`^(Always|Never|IfNotPresent)$`, 0, -1},
		{`^\d+(\.\d+)?(Mi|Gi)$`, 0, -1},
		{`^[a-z]+(-[a-z]+)*$`, 5, 8},
		{`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`, 0, -1},
		// a repeat without an upper bound, or with one far above its lower
		// bound, repeats at most maxRepeat times more than its lower bound
		{`^a{2,}$`, 2, 2 + maxRepeat},
		{`^b{1,50}$`, 1, 1 + maxRepeat},
	} {
		re := regexp.MustCompile(tc.pattern)
		for range 20 {
			s, ok := patternString(r, tc.pattern, tc.min, tc.max)
			if !ok {
				t.Errorf("%s: no string", tc.pattern)
				break
			}
			if !re.MatchString(s) || len(s) < tc.min || tc.max >= 0 && len(s) > tc.max {
				t.Errorf("%s [%d,%d]: %q", tc.pattern, tc.min, tc.max, s)
			}
		}
	}
	if _, ok := patternString(r, `^a{10}$`, 0, 3); ok {
		t.Error("a string longer than its maximum")
	}
	if _, ok := patternString(r, `(`, 0, -1); ok {
		t.Error("a string for an invalid pattern")
	}
	f := &filler{r: r}
	vv := &structuralschema.ValueValidation{Pattern: `^x[0-9]+$`}
	for range 20 {
		if s := f.str(vv); !regexp.MustCompile(vv.Pattern).MatchString(s) {
			t.Errorf("the filler's %q does not match %s", s, vv.Pattern)
		}
	}
}

// TestMinProperties: the filler gives an object at least minProperties
// properties.
func TestMinProperties(t *testing.T) {
	str := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
	s := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties:      map[string]structuralschema.Structural{"a": str, "b": str, "c": str},
		ValueValidation: &structuralschema.ValueValidation{MinProperties: ptr(int64(2))}}
	f := &filler{r: rand.New(rand.NewPCG(1, 1))}
	for range 50 {
		if m := f.objectValue(s, 1, false); len(m) < 2 {
			t.Fatalf("%d properties: %v", len(m), m)
		}
	}
	// with only required properties (none here), just enough
	f.onlyRequired = true
	if m := f.objectValue(s, 1, false); len(m) != 2 {
		t.Errorf("onlyRequired: %d properties, want 2: %v", len(m), m)
	}
}
