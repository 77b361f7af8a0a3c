package random

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// TestPatternString: strings generated from a pattern's syntax tree match
// it, within the lengths asked; Filler uses them.
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
		// lengths at their bounds
		{`^ab$`, 2, 2},
		// a string of 513 bytes: the one written after 512
		{`^a{512}b$`, 0, -1},
		// nested as deep as regexp/syntax allows
		{strings.Repeat("(", 999) + "a" + strings.Repeat(")", 999), 1, 1},
	} {
		re := regexp.MustCompile(tc.pattern)
		for range 20 {
			s, ok := PatternString(r, tc.pattern, tc.min, tc.max)
			if !ok {
				t.Errorf("%s: no string", tc.pattern)
				break
			}
			if !re.MatchString(s) || len(s) < tc.min || tc.max >= 0 && len(s) > tc.max {
				t.Errorf("%s [%d,%d]: %q", tc.pattern, tc.min, tc.max, s)
			}
		}
	}
	if _, ok := PatternString(r, `^a{10}$`, 0, 3); ok {
		t.Error("a string longer than its maximum")
	}
	if _, ok := PatternString(r, `(`, 0, -1); ok {
		t.Error("a string for an invalid pattern")
	}
	if _, ok := PatternString(r, `^a{1000}$`, 0, -1); ok {
		t.Error("a string over 512 bytes")
	}
	f := &Filler{Rand: r}
	vv := &structuralschema.ValueValidation{Pattern: `^x[0-9]+$`}
	for range 20 {
		if s := f.str(vv); !regexp.MustCompile(vv.Pattern).MatchString(s) {
			t.Errorf("Filler's %q does not match %s", s, vv.Pattern)
		}
	}
}

// TestPatternRepeat: a repeat without an upper bound, or with one far above
// its lower bound, repeats from its lower bound to maxRepeat times more, each
// count drawn; ? as {0,1}, * and + from 0 and 1 to maxRepeat. (The syntax
// tree is not simplified: regexp/syntax's Simplify rewrites a{1,50} as 49
// nested a? and a{2,} as aa+.)
func TestPatternRepeat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for pattern, want := range map[string][]int{
		`^a{2,}$`:    {2, 3, 4, 5},
		`^a{1,50}$`:  {1, 2, 3, 4},
		`^a{2,3}$`:   {2, 3},
		`^a{2}$`:     {2},
		`^a{0}b$`:    {1},
		`^a{1,4}$`:   {1, 2, 3, 4},
		`^a?$`:       {0, 1},
		`^a*$`:       {0, 1, 2, 3},
		`^a+$`:       {1, 2, 3},
		`^(ab){2,}$`: {4, 6, 8, 10},
	} {
		// the generator's strings, before PatternString checks them
		_, tree := compiledPattern(pattern)
		seen := map[int]bool{}
		for range 200 {
			var b strings.Builder
			genRegexp(r, tree, &b)
			seen[b.Len()] = true
		}
		var got []int
		for n := range seen {
			got = append(got, n)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: lengths %v, want %v", pattern, got, want)
		}
	}
}

// TestClassRune: a class's rune is printable ASCII (! to ~) when the class
// has some, in one of its ranges otherwise, each range's runes drawn.
func TestClassRune(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		ranges []rune
		want   string // every rune drawn, in order
	}{
		{[]rune{0, unicode.MaxRune}, "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"},
		{[]rune{'a', 'a', 0x100, 0x200}, "a"},
		{[]rune{0x100, 0x101}, "\u0100\u0101"},
		{[]rune{' ', ' ', 'x', 'z', 0x7f, 0x80}, "xyz"},
		{[]rune{'\t', '\n'}, "\t\n"},
		{nil, "a"},
	} {
		seen := map[rune]bool{}
		for range 2000 {
			seen[classRune(r, tc.ranges)] = true
		}
		var got []rune
		for c := range seen {
			got = append(got, c)
		}
		slices.Sort(got)
		if string(got) != tc.want {
			t.Errorf("%U: drew %d runes (%.40q…), want %q", tc.ranges, len(got), string(got), tc.want)
		}
	}
}

// TestMinProperties: Filler gives an object at least minProperties
// properties.
func TestMinProperties(t *testing.T) {
	str := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
	s := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties:      map[string]structuralschema.Structural{"a": str, "b": str, "c": str},
		ValueValidation: &structuralschema.ValueValidation{MinProperties: ptr(int64(2))}}
	f := &Filler{Rand: rand.New(rand.NewPCG(1, 1))}
	for range 50 {
		if m := f.objectValue(s, 1, false); len(m) < 2 {
			t.Fatalf("%d properties: %v", len(m), m)
		}
	}
	// with only required properties (none here), just enough
	f.OnlyRequired = true
	if m := f.objectValue(s, 1, false); len(m) != 2 {
		t.Errorf("OnlyRequired: %d properties, want 2: %v", len(m), m)
	}
}
