package findings

import (
	"fmt"
	"path"
	"strings"
)

// TablePages are the docs pages with a rule table, by the command whose
// rules it lists: docs/crd.md's lists those of crd and defaults.
var TablePages = map[Command]string{
	CmdCrd:        "docs/crd.md",
	CmdLint:       "docs/lint.md",
	CmdConversion: "docs/conversion.md",
	CmdImpact:     "docs/impact.md",
}

// TableMarkers are the comments around the rule table of c in its page.
func TableMarkers(c Command) (begin, end string) {
	return fmt.Sprintf("<!-- BEGIN rules %s -->", c), fmt.Sprintf("<!-- END rules %s -->", c)
}

// RuleTable is the markdown table of the rules of c, as its page holds it
// between TableMarkers.
func RuleTable(c Command) string {
	var b strings.Builder
	page := TablePages[c]
	switch c {
	case CmdCrd:
		b.WriteString("| rule | severity | example |\n| --- | --- | --- |\n")
		rows := map[string][]string{}
		var order []Rule
		for _, r := range Rules {
			if !r.Emits(CmdCrd) && !r.Emits(CmdDefaults) {
				continue
			}
			if r.SameRowAs != "" {
				rows[r.SameRowAs] = append(rows[r.SameRowAs], r.Name)
				continue
			}
			order = append(order, r)
		}
		for _, r := range order {
			names := "`" + r.Name + "`"
			for _, n := range rows[r.Name] {
				names += ", `" + n + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", names, severityDoc(r), r.Example)
		}
	case CmdLint:
		b.WriteString("| rule | analyzer | severity | what |\n| --- | --- | --- | --- |\n")
		for _, r := range Of(c) {
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", link(page, r), strings.ReplaceAll(r.Name, "-", ""), r.Severity, cell(r.Summary))
		}
	default:
		b.WriteString("| rule | severity | what |\n| --- | --- | --- |\n")
		for _, r := range Of(c) {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", link(page, r), r.Severity, cell(r.Summary))
		}
	}
	return b.String()
}

func severityDoc(r Rule) string {
	if r.SeverityDoc != "" {
		return r.SeverityDoc
	}
	return r.Severity.String()
}

// link is the rule's name linked to its heading, from page.
func link(page string, r Rule) string {
	target := "#" + r.Anchor()
	if r.Page != page {
		rel := r.Page
		if path.Dir(r.Page) == path.Dir(page) {
			rel = path.Base(r.Page)
		}
		target = rel + target
	}
	return fmt.Sprintf("[`%s`](%s)", r.Name, target)
}

// ReplaceTable is doc, the text of c's page, with the rule table between
// its markers replaced by RuleTable(c).
func ReplaceTable(doc string, c Command) (string, error) {
	begin, end := TableMarkers(c)
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s: no %s … %s", TablePages[c], begin, end)
	}
	return doc[:i] + begin + "\n" + RuleTable(c) + doc[j:], nil
}
