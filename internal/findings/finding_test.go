package findings

import (
	"bytes"
	"encoding/json"
	"go/token"
	"strings"
	"testing"
)

var field = Finding{Sev: Warning, Pos: token.Position{Filename: "api/v1/types.go", Line: 12, Column: 2},
	GoPath: "WidgetSpec.Size", JPath: "spec.size", Rule: "omitempty-struct", Msg: "omitempty has no effect: use omitzero", Fix: FixOmitzero}

// TestString: go vet style at the field; a finding about a CRD alone has
// no position and no Go path; ParseLine reads both back.
func TestString(t *testing.T) {
	crd := Finding{Sev: Error, Rule: "crd-removed", Msg: "NEW has no such CRD", CRD: "widgets.example.com"}
	for _, c := range []struct {
		f    Finding
		want string
	}{
		{field, "api/v1/types.go:12:2: warning: WidgetSpec.Size (spec.size): omitempty has no effect: use omitzero [omitempty-struct]"},
		{crd, "error: NEW has no such CRD [crd-removed]"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		l, ok := ParseLine(c.f.String())
		if !ok || l.Pos.Filename != c.f.Pos.Filename || l.Pos.Line != c.f.Pos.Line || l.Pos.Column != c.f.Pos.Column ||
			l.Sev != c.f.Sev || l.Rule != c.f.Rule || !strings.HasSuffix(c.f.String(), l.Text) {
			t.Errorf("ParseLine(%q) = %+v, %v", c.f.String(), l, ok)
		}
		if StripRule(l.Text) == l.Text {
			t.Errorf("StripRule(%q) kept the tag", l.Text)
		}
	}
	if got := field.Body(); got != "warning: WidgetSpec.Size (spec.size): omitempty has no effect: use omitzero [omitempty-struct]" {
		t.Errorf("Body: %s", got)
	}
	if _, ok := ParseLine("go: downloading example.com v1"); ok {
		t.Error("ParseLine read a line of another shape")
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, []Finding{field}); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || len(got) != 1 {
		t.Fatalf("%v: %s", err, b.String())
	}
	for k, v := range map[string]any{"file": "api/v1/types.go", "line": 12.0, "column": 2.0, "severity": "warning",
		"rule": "omitempty-struct", "field": "WidgetSpec.Size", "path": "spec.size", "message": field.Msg, "fix": "omitzero"} {
		if got[0][k] != v {
			t.Errorf("%s: %v, want %v", k, got[0][k], v)
		}
	}
	b.Reset()
	if err := WriteJSON(&b, nil); err != nil || b.String() != "[]\n" {
		t.Errorf("no findings: %q, %v", b.String(), err)
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	f := field
	f.Msg = "a | b with `code`"
	if err := WriteMarkdown(&b, []Finding{f, {Sev: Note, Rule: "conversion-webhook", CRD: "widgets.example.com", Msg: "webhook"}}); err != nil {
		t.Fatal(err)
	}
	want := "| position | severity | rule | field | message |\n| --- | --- | --- | --- | --- |\n" +
		"| `api/v1/types.go:12:2` | warning | `omitempty-struct` | `WidgetSpec.Size` (`spec.size`) | a \\| b with `code` |\n" +
		"| | note | `conversion-webhook` | CRD `widgets.example.com` | webhook |\n"
	if got := strings.ReplaceAll(b.String(), "|  |", "| |"); got != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, []Finding{field, field}); err != nil {
		t.Fatal(err)
	}
	if b.String() != field.String()+"\n"+field.String()+"\n" {
		t.Errorf("%q", b.String())
	}
}
