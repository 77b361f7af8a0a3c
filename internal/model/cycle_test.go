package model

import (
	"slices"
	"testing"
)

// TestTypeCycle: a struct type that holds itself, through fields,
// pointers, list items, map values and inline structs, is recursive; the
// cycle is the shortest, named by its fields.
func TestTypeCycle(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		typ, want string // "" for not recursive
	}{
		{"Node", "Node.next → Node"},
		{"Tree", "Tree.children[*] → Tree"},
		{"Graph", "Graph.nodes[*][*] → Graph"},
		{"A", "A.b → B.as[*] → A"},
		{"B", "B.as[*] → A.b → B"},
		{"Outer", "Outer.Embedded (inline) → Embedded.back → Outer"},
		{"Embedded", "Embedded.back → Outer.Embedded (inline) → Embedded"},
		{"Multi", "Multi.self → Multi"}, // the shortest, though not the first
		{"MultiB", "MultiB.back → Multi.long → MultiB"},
		{"Twice", "Twice.x → Twice"}, // of two as short, the first
		{"Leaf", ""},
		{"Reaches", ""},
		{"Precedence", ""},
		{"Window", ""},
		{"Typed", ""}, // not a struct
	} {
		cyc, ok := m.TypeCycle(typeID(t, m, tc.typ))
		if got := cyc.String(); ok != (tc.want != "") || got != tc.want {
			t.Errorf("TypeCycle(%s) = %q, %v; want %q", tc.typ, got, ok, tc.want)
		}
	}
}

// TestFieldCycle: a field lies on a cycle when the type it holds leads
// back to the type that declares it; the cycle starts with the field.
func TestFieldCycle(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field, want string
	}{
		{"Node.next", "Node.next → Node"},
		{"Node.name", ""},
		{"Tree.children", "Tree.children[*] → Tree"},
		{"Graph.nodes", "Graph.nodes[*][*] → Graph"},
		{"A.b", "A.b → B.as[*] → A"},
		{"B.as", "B.as[*] → A.b → B"},
		{"B.leaf", ""},
		{"Outer.back", "Embedded.back → Outer.Embedded (inline) → Embedded"}, // declared by Embedded
		{"Embedded.back", "Embedded.back → Outer.Embedded (inline) → Embedded"},
		{"Outer.leaf", ""},
		{"Reaches.node", ""},
		{"Reaches.trees", ""},
		{"Reaches.graph", ""},
		{"Reaches.a", ""},
		{"Reaches.outer", ""},
		{"FieldNode.leaf", ""},
		{"Rules.duration", ""}, // a known type, not a struct to the rules
	} {
		cyc, ok := m.FieldCycle(field(t, m, tc.field))
		if got := cyc.String(); ok != (tc.want != "") || got != tc.want {
			t.Errorf("FieldCycle(%s) = %q, %v; want %q", tc.field, got, ok, tc.want)
		}
	}
}

// TestCycleQueriesAgree: asking in any order gives the same components
// (Tarjan's algorithm runs from each new type over what is not numbered
// yet).
func TestCycleQueriesAgree(t *testing.T) {
	names := []string{"Reaches", "Leaf", "B", "A", "Outer", "Node", "Graph", "Tree", "Embedded"}
	first := newModel(t, Options{Implicit: true})
	want := map[string]string{}
	for _, n := range names {
		c, _ := first.TypeCycle(typeID(t, first, n))
		want[n] = c.String()
	}
	for i := range names {
		m := newModel(t, Options{Implicit: true})
		for j := range names {
			n := names[(i+j)%len(names)]
			if c, _ := m.TypeCycle(typeID(t, m, n)); c.String() != want[n] {
				t.Errorf("starting at %s: TypeCycle(%s) = %q, want %q", names[i], n, c.String(), want[n])
			}
		}
	}
}

// ignoring is an index with the crd generator's ignoreUnexportedFields.
type ignoring struct{ Index }

func (ignoring) IgnoreUnexportedFields() bool { return true }

// TestIgnoreUnexportedFields: with crd:ignoreUnexportedFields, an
// unexported field is no property, no edge of the graph of types, and its
// markers are not read.
func TestIgnoreUnexportedFields(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		m := newModelOf(t, Options{Implicit: true}, func(x Index) Index {
			if ignore {
				return ignoring{x}
			}
			return x
		})
		id := typeID(t, m, "Hidden")
		var names []string
		for _, f := range m.Fields(id) {
			names = append(names, f.Tag.Name)
		}
		want := []string{"name", "next", "other"}
		if ignore {
			want = want[:1]
		}
		if !slices.Equal(names, want) {
			t.Errorf("ignore %v: fields %v, want %v", ignore, names, want)
		}
		if c, ok := m.TypeCycle(id); ok == ignore {
			t.Errorf("ignore %v: TypeCycle(Hidden) = %q, %v", ignore, c, ok)
		}
		// the markers of the unexported field other are dropped with a
		// word either way: encoding/json ignores it
		want = []string{"error ignored-field-default: +default=1 and +default=2: the field is unexported: encoding/json ignores it, so no Go client sends or reads it, " +
			"and crd:ignoreUnexportedFields=true leaves it out of the CRD: the default applies to nothing. Fix: remove the marker, or export the field"}
		if !ignore {
			want = []string{
				`error json-name-mismatch: json tag "next,omitempty": controller-gen writes "next" into the CRD, encoding/json (Go clients) no key: encoding/json ignores an unexported field`,
				"error ignored-field-default: +default=1 and +default=2: the field is unexported: encoding/json ignores it, so no Go client sends or reads it, " +
					"while controller-gen writes it into the CRD, where the default would be stored in objects no Go client reads it from. Fix: remove the marker, or export the field",
				"error conflicting-defaults: two different settings: +implicitDefaults=false and +implicitDefaults=true; keep one",
			}
		}
		matchFindings(t, "Hidden", m.StructFindings(id), want...)
		// nor do they take a default, explicit or implicit, where
		// controller-gen writes them into the CRD
		for _, f := range m.Fields(id)[1:] {
			if c := m.CheckField(f, goSchema(f.Shape, f.Type)); !c.Refused || c.Explicit != nil || c.Rule != RuleIgnoredFieldDefault {
				t.Errorf("ignore %v: CheckField(%s) = %+v, want refused (%s)", ignore, f.GoPath(), c, RuleIgnoredFieldDefault)
			}
		}
	}
}

// TestPath: the shortest path between two types of one component; none
// to a type of another component, or one not reached.
func TestPath(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct{ from, to, want string }{
		{"A", "B", "A.b → B"},
		{"B", "A", "B.as[*] → A"},
		{"Multi", "MultiB", "Multi.long → MultiB"},
		{"Leaf", "Node", ""},
		{"Reaches", "Node", ""}, // reached, but in another component
		{"Node", "Tree", ""},
	} {
		if got := m.path(typeID(t, m, tc.from), typeID(t, m, tc.to)).String(); got != tc.want {
			t.Errorf("path(%s, %s) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}
