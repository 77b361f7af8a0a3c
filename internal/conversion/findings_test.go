package conversion

import (
	"errors"
	"go/token"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// TestLossFindingMessages: a value lost, one that appears and one that
// changes each say so, and name the spoke whose conversions are to blame
// whichever side the round trip starts from.
func TestLossFindingMessages(t *testing.T) {
	k := widgetKind(t, widgetCRD(t, nil))
	p := Path{{Name: "spec"}, {Name: "mode"}}
	for _, tc := range []struct {
		version, via  string
		before, after any
		want          string
	}{
		{"v1", "v1beta1", "x", absent, `lost in a round trip v1 → v1beta1 → v1: "x" comes back absent; v1beta1's ConvertTo`},
		{"v1beta1", "v1", "x", absent, `lost in a round trip v1beta1 → v1 → v1beta1: "x" comes back absent; v1beta1's ConvertTo`},
		{"v1", "v1beta1", absent, "y", `appears in a round trip v1 → v1beta1 → v1: an object without it comes back with "y"`},
		{"v1", "v1beta1", "x", "y", `changed in a round trip v1 → v1beta1 → v1: "x" comes back "y"`},
	} {
		f := lossFinding(k, Loss{Version: tc.version, Via: tc.via, Diff: Diff{Path: p, Before: tc.before, After: tc.after}}, noPositions{})
		if !strings.HasPrefix(f.Msg, tc.want) {
			t.Errorf("%s via %s, %s → %s: %q, want %q…", tc.version, tc.via, Show(tc.before), Show(tc.after), f.Msg, tc.want)
		}
	}
}

// TestMismatchFindingStorage: the message says the values are read at the
// storage version when that is not the field's own version and path.
func TestMismatchFindingStorage(t *testing.T) {
	k := widgetKind(t, widgetCRD(t, nil)) // v1 stores
	mode := Path{{Name: "spec"}, {Name: "mode"}}
	size, length := Path{{Name: "spec"}, {Name: "size"}}, Path{{Name: "spec"}, {Name: "length"}}
	for _, tc := range []struct {
		m    Mismatch
		note bool
	}{
		{Mismatch{At: "v1", Other: "v1beta1", Path: mode, OtherPath: mode, StoredPath: mode}, false},
		{Mismatch{At: "v1beta1", Other: "v1", Path: mode, OtherPath: mode, StoredPath: mode}, true},
		{Mismatch{At: "v1", Other: "v1beta1", Path: size, OtherPath: length, StoredPath: mode}, true},
	} {
		tc.m.AtDefault, tc.m.OtherDefault, tc.m.AtStored, tc.m.OtherStored = "a", absent, "a", "b"
		f := mismatchFinding(k, tc.m, noPositions{})
		if got := strings.Contains(f.Msg, "(read at the storage version, v1)"); got != tc.note {
			t.Errorf("%s %s: %q, want the storage note %v", tc.m.At, tc.m.Path, f.Msg, tc.note)
		}
		if !strings.Contains(f.Msg, tc.m.At+` defaults "a", `+tc.m.Other+" gives it no default") {
			t.Errorf("%q: not what each version defaults", f.Msg)
		}
	}
}

// TestSortFindings: by file, line, column, rule, then message.
func TestSortFindings(t *testing.T) {
	mk := func(file string, line, col int, rule, msg string) Finding {
		return Finding{Finding: findings.Finding{Sev: findings.Error, Pos: token.Position{Filename: file, Line: line, Column: col}, Rule: rule, Msg: msg}}
	}
	want := []Finding{
		mk("a.go", 2, 1, "r", "m"),
		mk("b.go", 1, 1, "r", "m"),
		mk("b.go", 1, 2, "r", "m"),
		mk("b.go", 1, 2, "s", "a"),
		mk("b.go", 1, 2, "s", "b"),
		mk("b.go", 3, 1, "a", "a"),
	}
	for _, order := range [][]int{{5, 4, 3, 2, 1, 0}, {2, 0, 4, 1, 5, 3}, {0, 1, 2, 3, 4, 5}} {
		fs := make([]Finding, len(order))
		for i, j := range order {
			fs[i] = want[j]
		}
		sortFindings(fs)
		for i := range fs {
			if fs[i].String() != want[i].String() {
				t.Errorf("from %v: at %d %s, want %s", order, i, fs[i], want[i])
			}
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWriteError: a write that fails is an error, in text and in JSON.
func TestWriteError(t *testing.T) {
	fs := []Finding{{Finding: findings.Finding{Sev: findings.Error, Rule: RuleLostField, Msg: "m"}}}
	for _, format := range []string{"text", "json"} {
		if err := Write(failingWriter{}, fs, format); err == nil {
			t.Errorf("%s: no error from a failed write", format)
		}
	}
}

// TestNeedsSetup: without --setup, the conversion-failed findings become
// one conversion-needs-setup finding per setup call of main, at the call,
// that names the kinds, versions and counts and the first error, without
// the objects (in -o json only); the other findings stay, and nothing
// changes when no setup call is missing.
func TestNeedsSetup(t *testing.T) {
	object := map[string]any{"apiVersion": "conv.example.com/v1", "kind": "Widget", "spec": map[string]any{"size": 3}}
	failed := func(kind, from, to string, n int) Finding {
		return Finding{Finding: findings.Finding{Sev: findings.Error, Rule: RuleFailed, Msg: "the conversion fails; e.g. " + Show(object), Pos: token.Position{Filename: "api.go", Line: 3}},
			Kind: kind, Versions: []string{from, to}, Values: []any{object, "unit not set"}, Witness: object, objects: n}
	}
	fs := func() []Finding {
		return []Finding{
			failed("Widget.conv.example.com", "v1", "v1beta1", 7),
			{Finding: findings.Finding{Sev: findings.Error, Rule: RuleLostField, Msg: "lost"}},
			failed("Widget.conv.example.com", "v1", "v1beta1", 2),
			failed("Gadget.conv.example.com", "v2", "v1", 1),
		}
	}
	if got := needsSetup(fs(), nil); len(got) != 4 || got[0].Rule != RuleFailed {
		t.Errorf("no setup call missing: %v", got)
	}
	calls := []convprog.SetupCall{
		{Name: "initScheme", Var: "scheme", Pos: token.Position{Filename: "main.go", Line: 7, Column: 2}},
		{Name: "other", Var: "x", Pos: token.Position{Filename: "main.go", Line: 9, Column: 2}},
	}
	got := needsSetup(fs(), calls)
	if len(got) != 3 || got[0].Rule != RuleLostField || got[0].Msg != "lost" {
		t.Fatalf("want the loss and one finding per setup call: %v", got)
	}
	want := "the conversions of 10 objects fail in this run, which lacks main's setup, so whether they fail with it is unknown: " +
		"Gadget.conv.example.com (1 object from v2 to v1), Widget.conv.example.com (9 objects from v1 to v1beta1); errors: unit not set (10 objects); " +
		"main calls initScheme, which sets state the conversions read (scheme)"
	for i, c := range calls {
		f := got[i+1]
		if f.Rule != RuleNeedsSetup || f.Pos != c.Pos || f.GoPath != c.Name || f.Kind != "Gadget.conv.example.com, Widget.conv.example.com" {
			t.Errorf("finding at %s: %+v", c.Pos, f)
		}
		if strings.Contains(f.String(), `"apiVersion"`) {
			t.Errorf("the text names an object: %s", f)
		}
		if len(f.Values) != 2 || f.Witness == nil {
			t.Errorf("-o json lacks the examples: values %v, witness %v", f.Values, f.Witness)
		}
	}
	if !strings.HasPrefix(got[1].Msg, want) {
		t.Errorf("message:\n%s\nwant it to start:\n%s", got[1].Msg, want)
	}
}
