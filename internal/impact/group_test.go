package impact

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// fakeClient is a Go client that sends each object with the fields of
// sends added where the object has none.
type fakeClient map[string]any

func (f fakeClient) Encode(_ schema.GroupVersionKind, obj map[string]any) (map[string]any, bool) {
	spec, _ := obj["spec"].(map[string]any)
	out := maps.Clone(spec)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range f {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return map[string]any{"spec": out}, true
}

func widget(name string, added []string, read map[string]any) *Record {
	return &Record{Source: name + ".yaml:1", APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: name,
		CRD: "widgets.example.com", Categories: []string{GainsDefaults}, Changes: Changes{Added: added}, Read: read}
}

// TestGrouper: defaults are grouped by CRD, path with list items as [*],
// and value, each object once per group; the groups are sorted news
// first, then by objects; each gets its effect.
func TestGrouper(t *testing.T) {
	items := func(vs ...any) map[string]any {
		var l []any
		for _, v := range vs {
			l = append(l, map[string]any{"x": v})
		}
		return map[string]any{"spec": map[string]any{"items": l}, "status": map[string]any{"ready": false}}
	}
	g := newGrouper(nil)
	g.add(widget("a", []string{"spec.items[0].x", "spec.items[1].x", "status"}, items("", "")))
	g.add(widget("b", []string{"spec.items[0].x", "status"}, items("")))
	g.add(widget("c", []string{"spec.items[0].x"}, items("fast")))
	g.add(&Record{Kind: "Widget", Name: "d", Categories: []string{Unchanged}})
	got := g.sorted()
	want := []struct {
		path, value string
		effect      Effect
		objects     int
		examples    string
	}{
		{"spec.items[*].x", `"fast"`, EffectNews, 1, "Widget default/c"},
		{"spec.items[*].x", `""`, EffectZero, 2, "Widget default/a, Widget default/b"},
		{"status", `{"ready":false}`, EffectStatus, 2, "Widget default/a, Widget default/b"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d groups, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Path != w.path || g.Value != w.value || g.Effect != w.effect || g.Objects != w.objects || strings.Join(g.Examples, ", ") != w.examples ||
			g.CRD != "widgets.example.com" || strings.Join(g.Versions, ",") != "v1" {
			t.Errorf("group %d = %+v, want %+v", i, *g, w)
		}
	}
}

// TestGoSends: with the Go client known, a default is its own when the
// object as the Go client sends it already holds the value there, at the
// object's version; else it is news, zero or not.
func TestGoSends(t *testing.T) {
	g := newGrouper(fakeClient{"s": "", "a": map[string]any{"b": ""}, "n": 0.0})
	read := map[string]any{"spec": map[string]any{"s": "", "a": map[string]any{"b": "", "c": int64(0)}, "n": int64(0), "p": false, "x": "y"},
		"status": map[string]any{"z": ""}}
	r := widget("w", []string{"spec.s", "spec.a", "spec.n", "spec.p", "spec.x", "status"}, read)
	r.Stored = map[string]any{"spec": map[string]any{}}
	g.add(r)
	other := widget("v", []string{"spec.s"}, read) // read at another version: the Go client's version is not known
	other.Stored, other.ReadVersion, other.CRD = map[string]any{}, "v2", "other"
	g.add(other)
	want := map[string]Effect{
		"widgets.example.com spec.s": EffectGoSends,
		"widgets.example.com spec.n": EffectGoSends, // 0 and 0.0 are the same JSON
		"widgets.example.com spec.a": EffectNews,    // c is not sent
		"widgets.example.com spec.p": EffectNews,    // a pointer: the Go client sends nothing
		"widgets.example.com spec.x": EffectNews,
		"widgets.example.com status": EffectStatus,
		"other spec.s":               EffectZero,
	}
	got := map[string]Effect{}
	for _, grp := range g.sorted() {
		got[grp.CRD+" "+grp.Path] = grp.Effect
	}
	if !maps.Equal(got, want) {
		t.Errorf("effects:\n%v\nwant:\n%v", got, want)
	}
}

func TestIsZeroValue(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{"", true}, {"a", false}, {false, true}, {true, false}, {int64(0), true}, {int64(3), false}, {0.0, true}, {1.5, false},
		{map[string]any{}, true}, {map[string]any{"a": map[string]any{"b": ""}}, true}, {map[string]any{"a": 1.0}, false},
		{[]any{}, false}, {nil, false},
	} {
		if got := isZeroValue(c.v); got != c.want {
			t.Errorf("isZeroValue(%#v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestWriteGroups: a line per effect present, a line per group up to the
// effect's limit, then one line for the rest.
func TestWriteGroups(t *testing.T) {
	g := newGrouper(nil)
	for k := range 12 { // object k gains spec.f00 … spec.fk
		added, spec := []string{"status"}, map[string]any{}
		for i := range k + 1 {
			f := fmt.Sprintf("f%02d", i)
			added, spec[f] = append(added, "spec."+f), ""
		}
		g.add(widget(fmt.Sprintf("o%02d", k), added, map[string]any{"spec": spec, "status": map[string]any{}}))
	}
	var b bytes.Buffer
	writeGroups(&indented{w: &b}, g.sorted(), 12)
	var want strings.Builder
	want.WriteString("12 objects gain defaults on read under NEW, in 13 groups (CRD, path, value):\n")
	want.WriteString("  zero values, which a Go client sends for a non-pointer field without omitempty (--types checks which): 12 groups\n")
	for i := range 10 {
		fmt.Fprintf(&want, "    %6d  widgets.example.com v1: spec.f%02d = \"\"  e.g. Widget default/o%02d, Widget default/o%02d, Widget default/o%02d\n", 12-i, i, i, i+1, i+2)
	}
	want.WriteString("         3  in 2 more groups (-v or -o json shows each object's)\n")
	want.WriteString("  under status: shown on read until the controller's first status write: 1 group\n")
	want.WriteString("        12  widgets.example.com v1: status = {}  e.g. Widget default/o00, Widget default/o01, Widget default/o02\n")
	if b.String() != want.String() {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want.String())
	}
}

// TestWriteGroupsOneMore: one group past the limit is shown on its own
// line, which is no longer than the line that would count it.
func TestWriteGroupsOneMore(t *testing.T) {
	g := newGrouper(nil)
	spec := map[string]any{}
	var added []string
	for i := range groupsShown[EffectZero] + 1 {
		f := fmt.Sprintf("f%02d", i)
		added, spec[f] = append(added, "spec."+f), ""
	}
	g.add(widget("w", added, map[string]any{"spec": spec}))
	var b bytes.Buffer
	writeGroups(&indented{w: &b}, g.sorted(), 1)
	if n := strings.Count(b.String(), "  e.g. "); n != groupsShown[EffectZero]+1 || strings.Contains(b.String(), "more group") {
		t.Errorf("%d groups shown, want all %d:\n%s", n, groupsShown[EffectZero]+1, b.String())
	}
}
