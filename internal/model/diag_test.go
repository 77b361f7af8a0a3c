package model

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagnostics: findings once per place, rule and message; sorted by
// position; errors always printed; the user's warnings listed, other
// modules' counted in one line unless all are asked for; notes only when
// asked for; nothing printed twice by two reports.
func TestDiagnostics(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	at := func(file string, line, col int) token.Position {
		return token.Position{Filename: filepath.Join(wd, file), Line: line, Column: col}
	}
	fs := []Finding{
		{Sev: Warning, Pos: at("b.go", 3, 2), GoPath: "B.X", JPath: "spec.x", Rule: "r1", Msg: "own warning", Own: true},
		{Sev: Error, Pos: at("a.go", 9, 1), GoPath: "A.Y", Rule: "r2", Msg: "own error", Own: true},
		{Sev: Error, Pos: at("a.go", 2, 5), GoPath: "A.Z", Rule: "r2", Msg: "earlier line", Own: true},
		{Sev: Error, Pos: at("a.go", 2, 3), GoPath: "A.W", Rule: "r2", Msg: "earlier column", Own: true},
		{Sev: Warning, Pos: token.Position{Filename: "/elsewhere/k8s.go", Line: 1, Column: 1}, GoPath: "K.V", Rule: "r3", Msg: "foreign", Own: false},
		{Sev: Warning, Pos: token.Position{Filename: "/elsewhere/k8s.go", Line: 2, Column: 1}, GoPath: "K.W", Rule: "r4", Msg: "foreign 2", Own: false},
		{Sev: Note, Pos: at("c.go", 1, 1), GoPath: "C.N", Rule: "r5", Msg: "a note", Own: true},
		{Sev: Note, Pos: token.Position{Filename: "/elsewhere/k8s.go", Line: 3, Column: 1}, GoPath: "K.N", Rule: "r5", Msg: "foreign note", Own: false},
	}
	ds := NewDiagnostics()
	for _, f := range fs {
		ds.Add(f)
		ds.Add(f) // once
	}
	dup := fs[0]
	dup.JPath = "spec.other" // the same place, rule and message: the same finding
	ds.Add(dup)
	if len(ds.List()) != len(fs) {
		t.Fatalf("%d findings, want %d", len(ds.List()), len(fs))
	}
	if !ds.HasErrors() {
		t.Error("HasErrors() = false")
	}
	var b strings.Builder
	if !ds.Report(&b, ReportOptions{Hint: "crd:allFindings=true"}) {
		t.Error("Report with errors returned false")
	}
	want := "a.go:2:3: error: A.W: earlier column [r2]\n" +
		"a.go:2:5: error: A.Z: earlier line [r2]\n" +
		"a.go:9:1: error: A.Y: own error [r2]\n" +
		"b.go:3:2: warning: B.X (spec.x): own warning [r1]\n" +
		"warning: 2 findings in types from other modules (r3: 1, r4: 1); run with crd:allFindings=true to list them\n"
	if b.String() != want {
		t.Errorf("Report:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	ds.Report(&b, ReportOptions{All: true, Notes: true, Hint: "crd:allFindings=true"})
	foreign := "/elsewhere/k8s.go:1:1: warning: K.V: foreign [r3]\n" +
		"/elsewhere/k8s.go:2:1: warning: K.W: foreign 2 [r4]\n" +
		"/elsewhere/k8s.go:3:1: note: K.N: foreign note [r5]\n"
	own := "c.go:1:1: note: C.N: a note [r5]\n"
	// Sorted by absolute path, which depends on where the test runs.
	if want = foreign + own; filepath.Join(wd, "c.go") < "/elsewhere/k8s.go" {
		want = own + foreign
	}
	if b.String() != want {
		t.Errorf("a second, verbose Report prints what the first did not:\n%s\nwant\n%s", b.String(), want)
	}

	errs := NewDiagnostics()
	for _, f := range fs {
		errs.Add(f)
	}
	b.Reset()
	if !errs.ReportErrors(&b) || strings.Count(b.String(), "\n") != 3 || strings.Contains(b.String(), "warning") {
		t.Errorf("ReportErrors:\n%s", b.String())
	}
	none := NewDiagnostics()
	none.Add(fs[0])
	b.Reset()
	if none.HasErrors() || none.ReportErrors(&b) || b.String() != "" {
		t.Errorf("no errors: %q", b.String())
	}
}

func TestRelPos(t *testing.T) {
	wd, _ := os.Getwd()
	for _, tc := range []struct{ in, want string }{
		{filepath.Join(wd, "x", "a.go"), filepath.Join("x", "a.go")},
		{"/elsewhere/a.go", "/elsewhere/a.go"},
		{filepath.Join(filepath.Dir(wd), "sibling.go"), filepath.Join(filepath.Dir(wd), "sibling.go")},
		{"", ""},
	} {
		if got := RelPos(token.Position{Filename: tc.in}).Filename; got != tc.want {
			t.Errorf("RelPos(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if s := (Finding{Sev: Warning, Pos: token.Position{Filename: "a.go", Line: 1, Column: 2}, GoPath: "T.F", Rule: "r", Msg: "m"}).String(); s != "a.go:1:2: warning: T.F: m [r]" {
		t.Errorf("String() = %q", s)
	}
}

// TestDiagnosticsStable: findings at one position keep the order they
// were found in.
func TestDiagnosticsStable(t *testing.T) {
	ds := NewDiagnostics()
	pos := token.Position{Filename: "/a.go", Line: 1, Column: 1}
	for _, rule := range []string{"z", "a", "m"} {
		ds.Add(Finding{Sev: Error, Pos: pos, GoPath: "T.F", Rule: rule, Msg: "m"})
	}
	var b strings.Builder
	ds.Report(&b, ReportOptions{})
	if want := "/a.go:1:1: error: T.F: m [z]\n/a.go:1:1: error: T.F: m [a]\n/a.go:1:1: error: T.F: m [m]\n"; b.String() != want {
		t.Errorf("Report:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestSummaries: the findings of a summarised rule are one line per rule
// and CRD, at the first of them in the user's types (the first of all when
// none is), with their number, the CRD and the first
// finding's words, unless all are asked for; one alone is printed as it
// is. The notes of changed defaults are printed without Notes, a removed
// one listed one by one; errors and other rules are never summarised.
func TestSummaries(t *testing.T) {
	at := func(line int) token.Position { return token.Position{Filename: "/api/types.go", Line: line, Column: 2} }
	omit := func(line int, crd string) Finding {
		return Finding{Sev: Warning, Pos: at(line), GoPath: fmt.Sprintf("T.F%d", line), JPath: "spec.f", Rule: RuleOmitemptyStruct, Msg: "use omitzero", Own: true, CRD: crd}
	}
	note := func(line int, rule, crd string) Finding {
		return Finding{Sev: Note, Pos: at(line), GoPath: fmt.Sprintf("T.F%d", line), Rule: rule, Msg: rule + " here", Own: line%2 == 0, CRD: crd}
	}
	fs := []Finding{
		omit(10, "as.x"), omit(3, "as.x"), omit(20, "bs.x"), omit(7, "as.x"),
		{Sev: Warning, Pos: at(5), GoPath: "T.W", Rule: RuleImplicitZero, Msg: "refused", Own: true, CRD: "as.x"},
		{Sev: Error, Pos: at(6), GoPath: "T.E", Rule: RuleTypeMismatch, Msg: "bad", Own: true, CRD: "as.x"},
		note(31, RuleDefaultAdded, "as.x"), note(32, RuleDefaultAdded, "as.x"), note(33, RuleDefaultAdded, "as.x"),
		note(35, RuleDefaultChanged, "as.x"), note(34, RuleDefaultRemoved, "as.x"), note(36, RuleDefaultRemoved, "as.x"),
		note(37, RuleUnknownZero, "as.x"),
	}
	// a Go field used at two paths of a CRD gets a default at each
	again := note(32, RuleDefaultAdded, "as.x")
	again.JPath = "spec.other"
	fs = append(fs, again)
	report := func(opts ReportOptions) string {
		ds := NewDiagnostics()
		for _, f := range fs {
			ds.Add(f)
		}
		var b strings.Builder
		if !ds.Report(&b, opts) {
			t.Error("Report with an error returned false")
		}
		return b.String()
	}
	want := "/api/types.go:3:2: warning: 3 omitempty-struct warnings in CRD as.x, the first here: T.F3 (spec.f): use omitzero; run with crd:allFindings=true to list them [omitempty-struct]\n" +
		"/api/types.go:5:2: warning: T.W: refused [implicit-zero-default]\n" +
		"/api/types.go:6:2: error: T.E: bad [default-type-mismatch]\n" +
		"/api/types.go:20:2: warning: T.F20 (spec.f): use omitzero [omitempty-struct]\n" +
		"/api/types.go:32:2: note: 4 default-added notes in CRD as.x, the first here: T.F32: default-added here; run with crd:allFindings=true to list them [default-added]\n" +
		"/api/types.go:34:2: note: T.F34: default-removed here [default-removed]\n" +
		"/api/types.go:35:2: note: T.F35: default-changed here [default-changed]\n" +
		"/api/types.go:36:2: note: T.F36: default-removed here [default-removed]\n"
	if got := report(ReportOptions{Hint: "crd:allFindings=true"}); got != want {
		t.Errorf("Report:\n%s\nwant\n%s", got, want)
	}
	all := report(ReportOptions{All: true, Hint: "crd:allFindings=true"})
	if n := strings.Count(all, "\n"); n != len(fs)-1 || strings.Contains(all, "the first here") || strings.Contains(all, "unknown-zero-value") {
		t.Errorf("All lists every finding but the note of unknown-zero-value, one by one:\n%s", all)
	}
	if verbose := report(ReportOptions{All: true, Notes: true}); strings.Count(verbose, "\n") != len(fs) {
		t.Errorf("All and Notes list everything:\n%s", verbose)
	}
}
