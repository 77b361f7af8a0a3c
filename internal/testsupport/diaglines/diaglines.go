// Package diaglines reads the findings controller-gen-default prints on
// stderr, go vet style: `file:line:col: warning: message [rule]`, the one
// printer's format (internal/findings: Finding.String, read back with
// findings.ParseLine), and the
// line without a position that stands for the findings in types of other
// modules: `warning: N findings in types from other modules (rule: n, ...);
// run with crd:verbose=true to list them`. The tests on real API modules
// (test/findings/, test/acceptance/) count them.
package diaglines

import (
	"bufio"
	"regexp"
	"strconv"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// Finding is one diagnostic line.
type Finding struct {
	// File and Line are the position; File is "" for a line without one.
	File string
	Line int
	// Severity is warning, error or note.
	Severity string
	// Message is the text after the severity, the [rule] tag included.
	Message string
	// Rule is the [rule] tag at the end of the message, Untagged without.
	Rule string
	// Summarised is the number of findings a summary line stands for (0 for
	// other lines), and SummaryRules their counts by rule.
	Summarised   int
	SummaryRules map[string]int
}

// Untagged is the Rule of a message without a [rule] tag.
const Untagged = "(untagged)"

var (
	summaryRx = regexp.MustCompile(`^(\d+) findings in types from other modules \(([^)]*)\)`)
	// ruleSummaryRx is the line that stands for the findings of one rule
	// in one CRD: "N omitempty-struct warnings in CRD x.example.com, the
	// first here: …".
	ruleSummaryRx = regexp.MustCompile(`^(\d+) ([\w-]+) (?:warning|note|error)s in CRD \S+, the first here: `)
)

// Parse reads stderr: every diagnostic line is a Finding; the other
// non-empty lines are returned as they are.
func Parse(stderr string) (found []Finding, other []string) {
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" {
			continue
		}
		l, ok := findings.ParseLine(line)
		if !ok {
			other = append(other, line)
			continue
		}
		f := Finding{File: l.Pos.Filename, Line: l.Pos.Line, Severity: l.Sev.String(), Message: l.Text, Rule: l.Rule}
		if f.Rule == "" {
			f.Rule = Untagged
		}
		if s := ruleSummaryRx.FindStringSubmatch(f.Message); s != nil {
			f.Summarised, _ = strconv.Atoi(s[1])
			f.SummaryRules = map[string]int{s[2]: f.Summarised}
		}
		if f.File == "" {
			if s := summaryRx.FindStringSubmatch(f.Message); s != nil {
				f.Summarised, _ = strconv.Atoi(s[1])
				f.SummaryRules = map[string]int{}
				for _, part := range strings.Split(s[2], ", ") {
					rule, k, ok := strings.Cut(part, ": ")
					if v, err := strconv.Atoi(k); ok && err == nil {
						f.SummaryRules[rule] += v
					}
				}
			}
		}
		found = append(found, f)
	}
	return found, other
}

// Text is a finding's message without its [rule] tag.
func Text(msg string) string { return findings.StripRule(msg) }
