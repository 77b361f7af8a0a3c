package model

import (
	"go/ast"
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
)

// Recursive types.
//
// A struct type that holds itself, through its fields, pointers, list
// items, map values and inline structs, is recursive. A CRD schema cannot
// express it (controller-gen's flattener leaves the property where the
// type comes back without a type, which the apiserver refuses), and a
// default on it applies again inside every value it creates: the Go
// defaulter would never stop. Such defaults are refused
// (RuleRecursiveDefault), and the crd generator says why the type cannot
// be a CRD (RuleRecursiveType).

// Step is one edge of the graph of struct types: a field of a struct,
// through pointers, list items and map values, to the struct type it
// holds; or an inline (embedded) struct, whose fields are its parent's.
type Step struct {
	// Owner is the Go type that declares the field.
	Owner string
	// Name is the field's JSON name; for an inline field, its Go name.
	Name string
	// Items counts the list items and map values between the field and
	// To: []*Node is 1, map[string][]Node is 2.
	Items  int
	Inline bool
	To     TypeIdent
}

func (s Step) String() string {
	if s.Inline {
		return s.Owner + "." + s.Name + " (inline)"
	}
	return s.Owner + "." + s.Name + strings.Repeat("[*]", s.Items)
}

// Cycle is a path of steps from a struct type back to itself.
type Cycle []Step

// String names the cycle by its fields, and the type it comes back to:
// "Node.next → Node", "Tree.children[*] → Tree", "A.b → B.a → A".
func (c Cycle) String() string {
	parts := make([]string, 0, len(c)+1)
	for _, s := range c {
		parts = append(parts, s.String())
	}
	if len(c) > 0 {
		parts = append(parts, c[len(c)-1].To.Name)
	}
	return strings.Join(parts, " → ")
}

// edges are the steps out of the struct type id, in field order.
func (m *Model) edges(id TypeIdent) []Step {
	if es, ok := m.graph[id]; ok {
		return es
	}
	info := m.idx.TypeInfo(id)
	if info == nil || id.Package.TypesInfo == nil {
		m.graph[id] = nil
		return nil
	}
	var out []Step
	for _, fi := range info.Fields {
		if fi.Name != "" && m.idx.IgnoreUnexportedFields() && !ast.IsExported(fi.Name) {
			continue
		}
		tag, ok := jsontag.Parse(fi.Tag)
		if !ok {
			continue
		}
		t := id.Package.TypesInfo.TypeOf(fi.RawField.Type)
		if t == nil {
			continue
		}
		st := Step{Owner: info.Name, Name: tag.Name}
		if tag.Inline {
			st.Inline, st.Name = true, fi.Name
			if st.Name == "" { // embedded: named after its type
				st.Name = strings.TrimPrefix(types.ExprString(fi.RawField.Type), "*")
				st.Name = st.Name[strings.LastIndex(st.Name, ".")+1:]
			}
		}
		to, items, ok := m.holds(m.ShapeOf(t, id.Package), id.Package)
		if !ok || (st.Inline && items > 0) {
			continue
		}
		st.To, st.Items = to, items
		out = append(out, st)
	}
	m.graph[id] = out
	return out
}

// holds is the struct type that a value of shape sh, written in package
// pkg, holds through list items and map values, and how many of those lie
// between.
func (m *Model) holds(sh Shape, pkg *loader.Package) (TypeIdent, int, bool) {
	items := 0
	for sh.Kind == KindList || sh.Kind == KindMap {
		sh = m.ShapeOf(sh.Elem, pkg)
		items++
	}
	if sh.Kind != KindStruct || !sh.HasIdent {
		return TypeIdent{}, 0, false
	}
	return sh.Ident, items, true
}

// scc numbers the strongly connected component of id in the graph of
// struct types: Tarjan's algorithm, run from id over what it reaches and
// is not numbered yet (components numbered by an earlier run stay as they
// are: no new cycle can run through them).
func (m *Model) scc(id TypeIdent) int {
	if c, ok := m.comp[id]; ok {
		return c
	}
	index := map[TypeIdent]int{}
	low := map[TypeIdent]int{}
	onStack := map[TypeIdent]bool{}
	var stack []TypeIdent
	var visit func(v TypeIdent)
	visit = func(v TypeIdent) {
		index[v] = len(index)
		low[v] = index[v]
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range m.edges(v) {
			w := e.To
			if _, done := m.comp[w]; done {
				continue
			}
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		c := m.comps
		m.comps++
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			m.comp[w] = c
			if w == v {
				return
			}
		}
	}
	visit(id)
	return m.comp[id]
}

// path is the shortest path of steps from one struct type to another of
// its component; nil when there is none.
func (m *Model) path(from, to TypeIdent) Cycle {
	c := m.scc(from)
	type prev struct {
		at   TypeIdent
		step Step
	}
	came := map[TypeIdent]prev{}
	seen := map[TypeIdent]bool{from: true}
	for queue := []TypeIdent{from}; len(queue) > 0; queue = queue[1:] {
		for _, e := range m.edges(queue[0]) {
			if seen[e.To] || m.scc(e.To) != c {
				continue
			}
			seen[e.To] = true
			came[e.To] = prev{queue[0], e}
			if e.To != to {
				queue = append(queue, e.To)
				continue
			}
			var out Cycle
			for w := to; w != from; w = came[w].at {
				out = append(Cycle{came[w].step}, out...)
			}
			return out
		}
	}
	return nil
}

// TypeCycle is the shortest cycle from the struct type id back to itself;
// ok is false when id is not recursive.
func (m *Model) TypeCycle(id TypeIdent) (cycle Cycle, ok bool) {
	c := m.scc(id)
	for _, e := range m.edges(id) {
		if m.scc(e.To) != c {
			continue
		}
		cyc := Cycle{e}
		if e.To != id {
			rest := m.path(e.To, id)
			if rest == nil {
				continue
			}
			cyc = append(cyc, rest...)
		}
		if cycle == nil || len(cyc) < len(cycle) {
			cycle = cyc
		}
	}
	return cycle, cycle != nil
}

// FieldCycle is the shortest cycle that starts with the field f: from the
// type that declares f, through f, back to that type; ok is false when f
// lies on no cycle.
func (m *Model) FieldCycle(f *Field) (Cycle, bool) {
	from := TypeIdent{Package: f.Pkg, Name: f.Owner}
	to, items, ok := m.holds(f.Shape, f.Pkg)
	if !ok {
		return nil, false
	}
	step := Step{Owner: f.Owner, Name: f.Tag.Name, Items: items, To: to}
	if to == from {
		return Cycle{step}, true
	}
	if m.scc(to) != m.scc(from) {
		return nil, false
	}
	rest := m.path(to, from)
	if rest == nil {
		return nil, false
	}
	return append(Cycle{step}, rest...), true
}
