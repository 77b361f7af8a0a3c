package impact

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// CommentLimit is the most characters GitHub takes in a pull request
// comment (its API refuses a body over 65,536 characters); -o markdown
// stays under it.
const CommentLimit = 65536

// markdownReport is the report as markdown for a pull request comment
// (-o markdown): the CRD findings, a table with a row per CRD (objects
// read, unchanged, gaining defaults, losing data, refused on the next
// write), then the details of each object that changes, folded
// (<details>), those that fail first. Memory holds the counts and the
// details that fit in limit, not the objects: the details that do not fit
// are counted and the report says how many were left out.
type markdownReport struct {
	limit    int
	findings []Finding
	crds     []string // in order of first object
	rows     map[string]*markdownRow
	// failing and changing are the details kept, each in input order;
	// size is their length in characters.
	failing, changing []string
	size              int
	changed, left     int
	skipped           int
	converted         []string
	// render writes one record's details as the text report does.
	render func(w io.Writer, r *Record)
}

func newMarkdownReport(limit int) *markdownReport {
	return &markdownReport{limit: limit, rows: map[string]*markdownRow{},
		render: func(w io.Writer, r *Record) { (&printer{stdout: w}).textRecord(r) }}
}

// markdownRow counts one CRD's objects.
type markdownRow struct {
	objects, unchanged, gains, loses, refused int
}

// losesData says whether r loses data: fields dropped on read, after its
// next write, or a conversion that fails.
func losesData(r *Record) bool {
	return slices.ContainsFunc(r.Categories, func(c string) bool {
		return c == LosesFields || c == LosesAfterWrite || c == ConversionFailed || c == CRDRemoved
	})
}

func (m *markdownReport) record(r *Record) {
	row := m.rows[r.CRD]
	if row == nil {
		row = &markdownRow{}
		m.rows[r.CRD] = row
		m.crds = append(m.crds, r.CRD)
	}
	row.objects++
	has := func(c string) bool { return slices.Contains(r.Categories, c) }
	if has(Unchanged) {
		row.unchanged++
		return
	}
	if has(GainsDefaults) {
		row.gains++
	}
	if losesData(r) {
		row.loses++
	}
	if has(RefusedOnUpdate) {
		row.refused++
	}
	m.changed++
	d := m.details(r)
	n := utf8.RuneCountInString(d)
	// an object that fails takes the place of those that only change
	for r.Fails && m.size+n > m.limit && len(m.changing) > 0 {
		last := m.changing[len(m.changing)-1]
		m.changing = m.changing[:len(m.changing)-1]
		m.size -= utf8.RuneCountInString(last)
		m.left++
	}
	if m.size+n > m.limit {
		m.left++
		return
	}
	m.size += n
	if r.Fails {
		m.failing = append(m.failing, d)
	} else {
		m.changing = append(m.changing, d)
	}
}

// details is one object as a folded block: its summary line, then the
// text report's lines in a code block.
func (m *markdownReport) details(r *Record) string {
	var text bytes.Buffer
	m.render(&text, r)
	summary, body, _ := strings.Cut(text.String(), "\n")
	// the text report indents the details by 4: in a diff block, the
	// diff's lines then start with + and -
	body = strings.ReplaceAll(strings.TrimPrefix(body, "    "), "\n    ", "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", escapeHTML(summary))
	if body = strings.TrimRight(body, "\n"); body != "" {
		fence := codeFence(body)
		fmt.Fprintf(&b, "%sdiff\n%s\n%s\n", fence, body, fence)
	}
	b.WriteString("</details>\n")
	return b.String()
}

// codeFence is a fence of backticks longer than any run of backticks in s
// (CommonMark: the closing fence is at least as long as the opening).
func codeFence(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// write writes the report, dropping the last details kept until it fits
// in limit with its head and table.
func (m *markdownReport) write(w io.Writer) {
	head := m.head()
	tail := m.tail()
	room := m.limit - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail) - 200 // the left-out line
	kept := append(slices.Clone(m.failing), m.changing...)
	for m.size > room && len(kept) > 0 {
		m.size -= utf8.RuneCountInString(kept[len(kept)-1])
		kept = kept[:len(kept)-1]
		m.left++
	}
	io.WriteString(w, head)
	for _, d := range kept {
		io.WriteString(w, d)
	}
	if m.left > 0 {
		fmt.Fprintf(w, "\n%d of the %d objects that change are left out to stay under GitHub's comment limit (%d characters): "+
			"run impact -o text for all of them.\n", m.left, m.changed, m.limit)
	}
	io.WriteString(w, tail)
}

func (m *markdownReport) head() string {
	var b strings.Builder
	m.writeFindings(&b)
	b.WriteString("| CRD | objects read | unchanged | gaining defaults | losing data | refused on the next write |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: |\n")
	var total markdownRow
	for _, crd := range m.crds {
		r := m.rows[crd]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s | %s |\n", crd, r.objects, r.unchanged, r.gains, bold(r.loses), bold(r.refused))
		total.objects += r.objects
		total.unchanged += r.unchanged
		total.gains += r.gains
		total.loses += r.loses
		total.refused += r.refused
	}
	if len(m.crds) != 1 {
		fmt.Fprintf(&b, "| **all** | %d | %d | %d | %s | %s |\n", total.objects, total.unchanged, total.gains, bold(total.loses), bold(total.refused))
	}
	if m.skipped > 0 {
		fmt.Fprintf(&b, "\n%d objects of API groups that no CRD has were skipped.\n", m.skipped)
	}
	if m.changed > 0 {
		fmt.Fprintf(&b, "\n#### Objects that change (%d)\n\n", m.changed)
	}
	return b.String()
}

// writeFindings writes the title and the CRD findings.
func (m *markdownReport) writeFindings(b *strings.Builder) {
	b.WriteString("### CRD upgrade impact\n\n")
	for _, f := range m.findings {
		fmt.Fprintf(b, "- **CRD %s**: %s\n", f.CRD, escapeHTML(f.Message))
		for _, p := range f.Problems {
			fmt.Fprintf(b, "  - %s\n", escapeHTML(p.String()))
		}
	}
	if len(m.findings) > 0 {
		b.WriteString("\n")
	}
}

// writeDefaults is the report without objects: the CRD findings and a
// table of the defaults added, changed or removed, as many rows as fit.
func (m *markdownReport) writeDefaults(w io.Writer, defaults []DefaultChange) {
	var b strings.Builder
	m.writeFindings(&b)
	fmt.Fprintf(&b, "%d defaults added, changed or removed.\n\n", len(defaults))
	if len(defaults) > 0 {
		b.WriteString("| CRD | version | field | default |\n| --- | --- | --- | --- |\n")
	}
	tail := m.tail()
	room := m.limit - utf8.RuneCountInString(tail) - 200
	size := utf8.RuneCountInString(b.String())
	left := 0
	for _, d := range defaults {
		row := fmt.Sprintf("| %s | %s | `%s` | %s |\n", d.CRD, d.Version, d.Path, escapeCell(describeDefault(d.Change)))
		if n := utf8.RuneCountInString(row); size+n <= room && left == 0 {
			b.WriteString(row)
			size += n
			continue
		}
		left++
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%d of the %d defaults are left out to stay under GitHub's comment limit (%d characters): run impact -o text for all of them.\n",
			left, len(defaults), m.limit)
	}
	b.WriteString(tail)
	io.WriteString(w, b.String())
}

// escapeCell is s in a table cell: HTML escaped, | and newlines escaped.
func escapeCell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(escapeHTML(s))
}

// bold marks a count of objects that lose data or are refused.
func bold(n int) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("**%d**", n)
}

func (m *markdownReport) tail() string {
	return "\n" + conversionNoteFor(m.converted) + "\n"
}
