package random

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
)

// TestFillerInteger: the Filler's integers keep to minimum, maximum (each
// exclusive or not) and multipleOf, and reach both ends of their range, so
// that a bound Filler gets wrong shows.
func TestFillerInteger(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name   string
		vv     *structuralschema.ValueValidation
		lo, hi int64 // the range the values must span exactly
	}{
		{"none", nil, -5, 100},
		{"minimum", &structuralschema.ValueValidation{Minimum: f64(10)}, 10, 110}, // 0 to 0 raised to 10 to 110
		{"minimum 0", &structuralschema.ValueValidation{Minimum: f64(0)}, 0, 100},
		{"minimum above the range", &structuralschema.ValueValidation{Minimum: f64(200)}, 200, 300},
		{"fractional minimum", &structuralschema.ValueValidation{Minimum: f64(2.5), Maximum: f64(6)}, 3, 6},
		{"exclusive minimum", &structuralschema.ValueValidation{Minimum: f64(3), ExclusiveMinimum: true, Maximum: f64(6)}, 4, 6},
		{"maximum", &structuralschema.ValueValidation{Maximum: f64(50)}, -5, 50},
		{"maximum below the range", &structuralschema.ValueValidation{Maximum: f64(-10)}, -110, -10},
		{"fractional maximum", &structuralschema.ValueValidation{Minimum: f64(1), Maximum: f64(4.5)}, 1, 4},
		{"exclusive maximum", &structuralschema.ValueValidation{Minimum: f64(1), Maximum: f64(4), ExclusiveMaximum: true}, 1, 3},
		{"both below the range", &structuralschema.ValueValidation{Minimum: f64(-12), Maximum: f64(-10)}, -10, -10},
		{"multipleOf", &structuralschema.ValueValidation{Minimum: f64(7), Maximum: f64(20), MultipleOf: f64(7)}, 7, 14},
		{"multipleOf of negatives", &structuralschema.ValueValidation{Maximum: f64(-1), MultipleOf: f64(5)}, -100, -5},
		{"multipleOf up to the minimum", &structuralschema.ValueValidation{Minimum: f64(8), Maximum: f64(14), MultipleOf: f64(7)}, 14, 14},
		// no multiple in the range: the one below it (the field is then
		// refused and dropped, Version.Valid)
		{"no multiple in the range", &structuralschema.ValueValidation{Minimum: f64(8), Maximum: f64(12), MultipleOf: f64(7)}, 7, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &Filler{Rand: rand.New(rand.NewPCG(1, 2))}
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			zeros := 0
			for range 2000 {
				v := f.integer(tc.vv)
				if v < tc.lo || v > tc.hi {
					t.Fatalf("%d outside [%d, %d]", v, tc.lo, tc.hi)
				}
				if tc.vv != nil && tc.vv.MultipleOf != nil && v%int64(*tc.vv.MultipleOf) != 0 {
					t.Fatalf("%d is no multiple of %v", v, *tc.vv.MultipleOf)
				}
				lo, hi = min(lo, v), max(hi, v)
				if v == 0 {
					zeros++
				}
			}
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("values span [%d, %d], want [%d, %d]", lo, hi, tc.lo, tc.hi)
			}
			// zero (which omitempty loses) one time in five, and more
			// when the range holds it
			if (tc.vv == nil || tc.name == "minimum 0") && (zeros < 300 || zeros > 600) {
				t.Errorf("%d zeros in 2000, want about 400", zeros)
			}
		})
	}
}

// TestFillerStringLength: a string keeps to minLength and maxLength, an
// empty one raised to minLength.
func TestFillerStringLength(t *testing.T) {
	f := &Filler{Rand: rand.New(rand.NewPCG(1, 2))}
	for _, tc := range []struct {
		min, max *int64
		lo, hi   int
	}{
		{ptr(int64(12)), nil, 12, 12}, // words are 1 to 8 letters
		{nil, ptr(int64(3)), 0, 3},
		{ptr(int64(2)), ptr(int64(2)), 2, 2},
	} {
		vv := &structuralschema.ValueValidation{MinLength: tc.min, MaxLength: tc.max}
		lo, hi := 1000, -1
		for range 500 {
			n := len(f.str(vv))
			lo, hi = min(lo, n), max(hi, n)
		}
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("minLength %s maxLength %s: lengths %d to %d, want %d to %d", show(tc.min), show(tc.max), lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestFillerNumber: the Filler's numbers keep to minimum and maximum (an
// exclusive maximum too), are halves (not integers) but for the minimum
// it falls back to, and spread over the range.
func TestFillerNumber(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name   string
		vv     *structuralschema.ValueValidation
		lo, hi float64 // the smallest and largest values there must be
	}{
		{"none", nil, -4.5, 99.5},
		{"minimum", &structuralschema.ValueValidation{Minimum: f64(10)}, 10.5, 99.5},
		{"minimum above the range", &structuralschema.ValueValidation{Minimum: f64(200)}, 200.5, 299.5},
		{"maximum below the range", &structuralschema.ValueValidation{Maximum: f64(-10)}, -109.5, -10.5},
		{"minimum at the range's top", &structuralschema.ValueValidation{Minimum: f64(100)}, 100.5, 199.5},
		{"maximum at the range's bottom", &structuralschema.ValueValidation{Maximum: f64(-5)}, -104.5, -5.5},
		{"fractional maximum", &structuralschema.ValueValidation{Minimum: f64(0), Maximum: f64(2.2)}, 0, 1.5},
		{"maximum a half", &structuralschema.ValueValidation{Minimum: f64(0), Maximum: f64(2.5)}, 0.5, 2.5},
		{"exclusive maximum", &structuralschema.ValueValidation{Minimum: f64(0), Maximum: f64(2.5), ExclusiveMaximum: true}, 0, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &Filler{Rand: rand.New(rand.NewPCG(1, 2))}
			lo, hi := math.Inf(1), math.Inf(-1)
			for range 2000 {
				v := f.number(tc.vv)
				if v < tc.lo || v > tc.hi {
					t.Fatalf("%v outside [%v, %v]", v, tc.lo, tc.hi)
				}
				if v != math.Floor(v)+0.5 && (tc.vv == nil || tc.vv.Minimum == nil || v != *tc.vv.Minimum) {
					t.Fatalf("%v is neither a half nor the minimum", v)
				}
				lo, hi = min(lo, v), max(hi, v)
			}
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("values span [%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

// TestFillerShapes: lists keep to minItems and maxItems (up to 3 items
// otherwise, none beyond the depth cap), sets and list maps have no
// duplicates; objects have their required properties, not the root's
// apiVersion, kind and metadata, and random keys of a map only without
// OnlyRequired; strings keep to minLength and maxLength and are empty
// one time in eight; words have 1 to 8 letters.
func TestFillerShapes(t *testing.T) {
	str := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
	ab := str
	ab.ValueValidation = &structuralschema.ValueValidation{Enum: []structuralschema.JSON{{Object: "a"}, {Object: "b"}}}
	list := func(items structuralschema.Structural, vv *structuralschema.ValueValidation, listType string) *structuralschema.Structural {
		s := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "array"}, Items: &items, ValueValidation: vv}
		if listType != "" {
			s.XListType = &listType
			if listType == "map" {
				s.XListMapKeys = []string{"name"}
			}
		}
		return s
	}
	item := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties:      map[string]structuralschema.Structural{"name": ab, "x": str},
		ValueValidation: &structuralschema.ValueValidation{Required: []string{"name"}}}
	f := &Filler{Rand: rand.New(rand.NewPCG(1, 2))}
	for _, tc := range []struct {
		name   string
		s      *structuralschema.Structural
		depth  int
		lo, hi int
	}{
		{"plain", list(str, nil, ""), 1, 0, 3},
		{"minItems", list(str, &structuralschema.ValueValidation{MinItems: ptr(int64(2))}, ""), 1, 2, 3},
		{"maxItems", list(str, &structuralschema.ValueValidation{MaxItems: ptr(int64(1))}, ""), 1, 0, 1},
		{"maxItems above 3", list(str, &structuralschema.ValueValidation{MaxItems: ptr(int64(9))}, ""), 1, 0, 3},
		{"minItems above 3", list(str, &structuralschema.ValueValidation{MinItems: ptr(int64(5))}, ""), 1, 5, 5},
		{"below the depth cap", list(str, nil, ""), maxDepth, 0, 3},
		{"beyond the depth cap", list(str, &structuralschema.ValueValidation{MinItems: ptr(int64(1))}, ""), maxDepth + 1, 1, 1},
		{"set", list(ab, nil, "set"), 1, 0, 2},
		{"uniqueItems", list(ab, &structuralschema.ValueValidation{UniqueItems: true}, ""), 1, 0, 2},
		{"list map", list(item, nil, "map"), 1, 0, 2},
		{"atomic list of an enum", list(ab, nil, ""), 1, 0, 3},
	} {
		lo, hi := 1000, -1
		for range 300 {
			l := f.array(tc.s, tc.depth)
			lo, hi = min(lo, len(l)), max(hi, len(l))
			if tc.s.XListType != nil || tc.s.ValueValidation != nil && tc.s.ValueValidation.UniqueItems {
				seen := map[string]bool{}
				for _, v := range l {
					k := fmt.Sprint(v) // a list map's item by its key
					if item, ok := v.(map[string]any); ok {
						k = fmt.Sprint(item["name"])
					}
					if seen[k] {
						t.Errorf("%s: %s twice in %v", tc.name, k, l)
					}
					seen[k] = true
				}
			}
		}
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("%s: %d to %d items, want %d to %d", tc.name, lo, hi, tc.lo, tc.hi)
		}
	}

	root := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{"apiVersion": str, "kind": str, "metadata": {Generic: structuralschema.Generic{Type: "object"}},
			"spec": {Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{"req": str, "opt": str},
				ValueValidation: &structuralschema.ValueValidation{Required: []string{"req"}}}},
		ValueValidation: &structuralschema.ValueValidation{Required: []string{"apiVersion", "kind", "metadata", "spec"}}}
	for _, only := range []bool{false, true} {
		g := &Filler{Rand: rand.New(rand.NewPCG(1, 2)), OnlyRequired: only}
		opt := 0
		for range 100 {
			o, _ := g.value(root, 0, true).(map[string]any)
			if len(o) != 1 || o["spec"] == nil {
				t.Fatalf("root %v: want spec alone (apiVersion, kind and metadata are the Filler's object's)", o)
			}
			spec := o["spec"].(map[string]any)
			if _, ok := spec["req"]; !ok {
				t.Fatalf("spec %v without its required req", spec)
			}
			if _, ok := spec["opt"]; ok {
				opt++
			}
		}
		if only && opt > 0 || !only && (opt < 30 || opt > 70) {
			t.Errorf("OnlyRequired %v: opt in %d of 100", only, opt)
		}
		// a root's properties are not the top level's below it
		if o, _ := g.value(root, 1, false).(map[string]any); o["kind"] == nil || o["metadata"] == nil {
			t.Errorf("OnlyRequired %v: an object below the top without its required kind and metadata: %v", only, o)
		}
	}
	if o := f.objectValue(root, maxDepth+1, false); len(o) != 0 {
		t.Errorf("an object beyond the depth cap: %v", o)
	}
	if o := f.objectValue(root, maxDepth, false); len(o) == 0 {
		t.Errorf("an object at the depth cap is empty")
	}
	m := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		AdditionalProperties: &structuralschema.StructuralOrBool{Structural: &str}}
	withProps := *m
	withProps.Properties = map[string]structuralschema.Structural{"p": str}
	keys := map[int]int{}
	for range 300 {
		keys[len(f.objectValue(m, 1, false))]++
		if o := f.objectValue(&withProps, 1, false); len(o) > 1 {
			t.Fatalf("random keys beside properties: %v", o)
		}
		if o := (&Filler{Rand: f.Rand, OnlyRequired: true}).objectValue(m, 1, false); len(o) > 0 {
			t.Fatalf("random keys of a map with OnlyRequired: %v", o)
		}
	}
	if len(keys) != 3 || keys[0] == 0 || keys[2] == 0 {
		t.Errorf("a map's number of keys: %v, want 0 to 2", keys)
	}

	lens := map[int]bool{}
	empty := 0
	for range 800 {
		w := f.word()
		lens[len(w)] = true
		if s := f.str(nil); s == "" {
			empty++
		}
		if s := f.str(&structuralschema.ValueValidation{MinLength: ptr(int64(9))}); len(s) < 9 {
			t.Fatalf("%q below minLength 9", s)
		}
		if s := f.str(&structuralschema.ValueValidation{MaxLength: ptr(int64(2))}); len(s) > 2 {
			t.Fatalf("%q above maxLength 2", s)
		}
	}
	if len(lens) != 8 || !lens[1] || !lens[8] {
		t.Errorf("word lengths %v, want 1 to 8", lens)
	}
	if empty < 60 || empty > 140 {
		t.Errorf("%d empty strings in 800, want about 100", empty)
	}
}

// TestFillerDepthCap: however deep a schema nests objects and lists, the
// Filler fills maxDepth+1 levels below the value it starts at and leaves
// the next one empty, a property it must write (required, or for
// minProperties) included. (A list keeps its minItems at any depth:
// TestFillerShapes.)
func TestFillerDepthCap(t *testing.T) {
	nest := func(wrap func(structuralschema.Structural) structuralschema.Structural) *structuralschema.Structural {
		s := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}}
		for range maxDepth + 4 {
			s = wrap(s)
		}
		return &s
	}
	required := nest(func(c structuralschema.Structural) structuralschema.Structural {
		return structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
			Properties: map[string]structuralschema.Structural{"c": c}, ValueValidation: &structuralschema.ValueValidation{Required: []string{"c"}}}
	})
	minProps := nest(func(c structuralschema.Structural) structuralschema.Structural {
		return structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
			Properties: map[string]structuralschema.Structural{"c": c}, ValueValidation: &structuralschema.ValueValidation{MinProperties: ptr(int64(1))}}
	})
	// levels counts the values that hold something, from v down
	var levels func(v any) int
	levels = func(v any) int {
		switch v := v.(type) {
		case map[string]any:
			if c, ok := v["c"]; ok {
				return 1 + levels(c)
			}
		}
		return 0
	}
	for name, s := range map[string]*structuralschema.Structural{"required": required, "minProperties": minProps} {
		f := &Filler{Rand: rand.New(rand.NewPCG(1, 2)), OnlyRequired: true}
		if got := levels(f.value(s, 0, false)); got != maxDepth+1 {
			t.Errorf("%s: %d levels filled, want %d", name, got, maxDepth+1)
		}
	}
	// a map's random keys and a list's random items: at most as deep, and
	// as deep in some of 2,000 draws
	maps := nest(func(c structuralschema.Structural) structuralschema.Structural {
		return structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
			AdditionalProperties: &structuralschema.StructuralOrBool{Structural: &c}}
	})
	lists := nest(func(c structuralschema.Structural) structuralschema.Structural {
		return structuralschema.Structural{Generic: structuralschema.Generic{Type: "array"}, Items: &c}
	})
	var deepest func(v any) int
	deepest = func(v any) int {
		n := 0
		switch v := v.(type) {
		case map[string]any:
			for _, c := range v {
				n = max(n, 1+deepest(c))
			}
		case []any:
			for _, c := range v {
				n = max(n, 1+deepest(c))
			}
		}
		return n
	}
	for name, s := range map[string]*structuralschema.Structural{"additionalProperties": maps, "items": lists} {
		f := &Filler{Rand: rand.New(rand.NewPCG(1, 2))}
		most := 0
		for range 2000 {
			most = max(most, deepest(f.value(s, 0, false)))
		}
		if most != maxDepth+1 {
			t.Errorf("%s: %d levels at most, want %d", name, most, maxDepth+1)
		}
	}
}

// TestFillerObject: the Filler's object has its apiVersion, kind, name
// (and namespace), and labels in a third of the objects, none with
// OnlyRequired.
func TestFillerObject(t *testing.T) {
	s := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}}
	for _, only := range []bool{false, true} {
		f := &Filler{Rand: rand.New(rand.NewPCG(1, 2)), OnlyRequired: only}
		labelled := 0
		for i := range 3000 {
			o := f.Object(s, "example.com/v1", "Widget", i%2 == 0, i)
			meta := o["metadata"].(map[string]any)
			if o["apiVersion"] != "example.com/v1" || o["kind"] != "Widget" || meta["name"] != fmt.Sprintf("obj-%d", i) ||
				(meta["namespace"] == "default") != (i%2 == 0) {
				t.Fatalf("object %d: %v", i, o)
			}
			if meta["labels"] != nil {
				labelled++
			}
		}
		if only && labelled > 0 || !only && (labelled < 900 || labelled > 1100) {
			t.Errorf("OnlyRequired %v: %d of 3,000 objects labelled, want a third", only, labelled)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// show is a bound for a message: its value, or none.
func show(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// TestFillerFormats: a string of each format Filler knows is one the
// apiserver's validation of a custom resource (validation.NewSchemaValidator,
// as the registry strategy builds it) accepts for that format; each
// format but the three the validator does not know is checked (a string
// of no format is refused).
func TestFillerFormats(t *testing.T) {
	formats := []string{"date-time", "date", "duration", "int-or-string", "byte", "uuid", "ipv4", "ip", "hostname",
		"dns1123subdomain", "ipv6", "cidr", "mac", "uri", "email", "datetime", "uuid3", "uuid4", "uuid5"}
	f := &Filler{Rand: rand.New(rand.NewPCG(1, 2))}
	for _, format := range formats {
		v, _, err := validation.NewSchemaValidator(&apiextensions.JSONSchemaProps{Type: "string", Format: format})
		if err != nil {
			t.Fatal(err)
		}
		unknown := format == "int-or-string" || format == "ip" || format == "dns1123subdomain"
		if errs := validation.ValidateCustomResource(nil, "not of any format!", v); (len(errs) == 0) != unknown {
			t.Errorf("format %s: a string of no format refused %t, want %t", format, len(errs) > 0, !unknown)
		}
		for range 20 {
			s := f.str(&structuralschema.ValueValidation{Format: format})
			if errs := validation.ValidateCustomResource(nil, s, v); len(errs) > 0 {
				t.Errorf("format %s: %q refused: %v", format, s, errs)
				break
			}
		}
	}
}
