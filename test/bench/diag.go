package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/diaglines"
)

// finding is one go-vet-style line on controller-gen-default's stderr:
// `file:line:col: warning: message [rule]` (pos keeps file:line), or
// without the position for summary lines.
type finding struct {
	pos      string // file:line, or ""
	severity string // warning, error or note
	rule     string // the [rule] tag, or a normalised message prefix
	msg      string
	foreign  bool // the file is not in the module under test
}

var (
	// fieldPrefixRx is the "Type.Field (json.path): " that starts most messages.
	fieldPrefixRx = regexp.MustCompile(`^[A-Za-z_][\w.]*(?: \([^)]*\))?: `)
	digitsRx      = regexp.MustCompile(`\d+`)
)

// parseFindings reads stderr with internal/testsupport/diaglines. modulePrefix is the
// module's directory component (path@version) that marks its own files;
// findings in other files are foreign. Lines that are not diagnostics are
// returned as other.
func parseFindings(stderr, modulePrefix string) (found []finding, other []string) {
	lines, other := diaglines.Parse(stderr)
	for _, d := range lines {
		f := finding{severity: d.Severity, msg: d.Message, rule: d.Rule}
		if d.File != "" {
			f.pos = fmt.Sprintf("%s:%d", d.File, d.Line)
		}
		if f.rule == diaglines.Untagged {
			f.rule = messageKey(f.msg)
		}
		f.foreign = f.pos != "" && !strings.Contains(f.pos, modulePrefix)
		found = append(found, f)
	}
	return found, other
}

// messageKey groups untagged messages: the field prefix dropped, numbers
// replaced by N, cut at the first colon or after 8 words.
func messageKey(msg string) string {
	s := fieldPrefixRx.ReplaceAllString(msg, "")
	if i := strings.IndexAny(s, ":;("); i > 0 {
		s = s[:i]
	}
	words := strings.Fields(digitsRx.ReplaceAllString(s, "N"))
	if len(words) > 8 {
		words = append(words[:8], "…")
	}
	return "“" + strings.Join(words, " ") + "”"
}

// ruleRow is one line of the real-world report.
type ruleRow struct {
	module, severity, rule string
	count, foreign         int // foreign: the part in files of other modules
	example                finding
}

// tally groups findings by severity and rule, errors first, then by count.
func tally(module string, found []finding) []ruleRow {
	idx := map[[2]string]*ruleRow{}
	var rows []*ruleRow
	for _, f := range found {
		k := [2]string{f.severity, f.rule}
		r := idx[k]
		if r == nil {
			r = &ruleRow{module: module, severity: f.severity, rule: f.rule, example: f}
			idx[k] = r
			rows = append(rows, r)
		}
		r.count++
		if f.foreign {
			r.foreign++
		} else if r.example.foreign {
			r.example = f // prefer an example from the module itself
		}
	}
	sev := map[string]int{"error": 0, "warning": 1, "note": 2}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if sev[a.severity] != sev[b.severity] {
			return sev[a.severity] < sev[b.severity]
		}
		if a.count != b.count {
			return a.count > b.count
		}
		return a.rule < b.rule
	})
	out := make([]ruleRow, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}

// shortPos trims the module cache directory from a position, leaving
// module@version/file:line:col.
func shortPos(pos, modCache string) string {
	if modCache != "" {
		pos = strings.TrimPrefix(pos, strings.TrimSuffix(modCache, "/")+"/")
	}
	return pos
}

// mdCell escapes a table cell and cuts it to n runes.
func mdCell(s string, n int) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

func (r ruleRow) exampleCell(modCache string) string {
	msg := diaglines.Text(r.example.msg)
	if r.example.pos == "" {
		return mdCell(msg, 180)
	}
	return fmt.Sprintf("`%s`: %s", shortPos(r.example.pos, modCache), mdCell(msg, 180))
}
