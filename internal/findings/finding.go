// Package findings is the one finding type of every command that reports
// findings at Go fields or CRDs (crd, defaults, lint, conversion, impact's
// per-CRD findings), its printers (go vet text, JSON, markdown), the parse
// of a printed line, and the registry of the rules (Rules): each rule once,
// with its default severity, the commands that emit it and the heading of
// its docs.
//
// It imports only the standard library, so that every layer may use it:
// the golangci-lint plugin (lint/plugin) links it without linking any
// apiserver code.
package findings

import (
	"fmt"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// Severity of a finding.
type Severity int

const (
	Note Severity = iota
	Warning
	Error
)

var severityNames = [...]string{"note", "warning", "error"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return "Severity(" + strconv.Itoa(int(s)) + ")"
	}
	return severityNames[s]
}

// ParseSeverity is the severity named s: note, warning or error.
func ParseSeverity(s string) (Severity, bool) {
	for i, n := range severityNames {
		if n == s {
			return Severity(i), true
		}
	}
	return 0, false
}

// Fix is an edit of a field's Go source that a finding advises.
type Fix string

const (
	// FixOmitempty adds omitempty to the json tag.
	FixOmitempty Fix = "omitempty"
	// FixOmitzero replaces omitempty with omitzero in the json tag.
	FixOmitzero Fix = "omitzero"
	// FixPointer makes the field a pointer.
	FixPointer Fix = "pointer"
)

// Finding is one diagnostic about one Go field or type, or about a CRD.
type Finding struct {
	Sev    Severity
	Pos    token.Position // the Go field or type; invalid for a finding about a CRD only
	GoPath string         // Type.Field; "" for a finding about a CRD only
	JPath  string         // spec.x, the first place it was seen; "" where no schema is known
	Rule   string         // a name of Rules
	Msg    string
	// Own is true for packages of the modules being generated; findings in
	// other modules are summarised unless all are asked for.
	Own bool
	// CRD is the CRD whose generation met the finding first, or the CRD
	// it is about; "" where there is none (a finding of the lint).
	CRD string
	// Fix is the edit of the Go source that the message advises, for
	// tools that apply it (lint -fix); "" where the fix is the author's.
	Fix Fix
}

// String is the finding in go vet style, with the position as given:
// "FILE:LINE:COL: severity: Type.Field (json.path): message [rule]". A
// finding about a CRD only (no position, no Go path) is "severity: message
// [rule]".
func (f Finding) String() string {
	if f.GoPath == "" && f.Pos.Filename == "" && !f.Pos.IsValid() {
		return f.Sev.String() + ": " + f.Msg + " [" + f.Rule + "]"
	}
	return f.Pos.String() + ": " + f.Body()
}

// Body is the finding without its position: "severity: Type.Field
// (json.path): message [rule]". The lint's diagnostics are Body without
// the JSON path (the driver prints the position, and the lint knows no
// schema).
func (f Finding) Body() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", f.Sev, f.GoPath)
	if f.JPath != "" {
		fmt.Fprintf(&b, " (%s)", f.JPath)
	}
	fmt.Fprintf(&b, ": %s [%s]", f.Msg, f.Rule)
	return b.String()
}

// Line is one printed line as ParseLine reads it.
type Line struct {
	// Pos is the position; its Filename is "" for a line without one.
	Pos token.Position
	Sev Severity
	// Text is what follows the severity, the [rule] tag included.
	Text string
	// Rule is the [rule] tag at the end of Text, "" without one.
	Rule string
}

var (
	lineRx    = regexp.MustCompile(`^(?:(\S.*?):(\d+):(\d+): )?(warning|error|note): (.*)$`)
	ruleTagRx = regexp.MustCompile(`\s*\[([A-Za-z0-9][A-Za-z0-9_.:/-]*)\]\s*$`)
)

// ParseLine reads a line that Finding.String printed (or Body, without a
// position), or any line of the same shape: "FILE:LINE:COL: severity:
// text [rule]". ok is false for other lines.
func ParseLine(s string) (l Line, ok bool) {
	m := lineRx.FindStringSubmatch(strings.TrimRight(s, " \r\n"))
	if m == nil {
		return Line{}, false
	}
	l.Pos.Filename = m[1]
	l.Pos.Line, _ = strconv.Atoi(m[2])
	l.Pos.Column, _ = strconv.Atoi(m[3])
	l.Sev, _ = ParseSeverity(m[4])
	l.Text = m[5]
	if r := ruleTagRx.FindStringSubmatch(l.Text); r != nil {
		l.Rule = r[1]
	}
	return l, true
}

// StripRule is text without its [rule] tag.
func StripRule(text string) string { return ruleTagRx.ReplaceAllString(text, "") }
