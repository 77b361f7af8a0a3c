package impact

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/defaultdiff"
)

// CommentLimit is the most characters GitHub takes in a pull request
// comment (its API refuses a body over 65,536 characters); -o markdown
// stays under it.
const CommentLimit = 65536

// The parts of -o markdown that grow with the CRDs are capped: the CRD
// findings and the table of CRDs take at most a quarter of the limit each,
// the list of CRDs converted by the API's code a sixteenth, so that
// thousands of CRDs still leave room for the objects. A value from a CRD
// or an object shows at most maxValue characters, a finding at most
// maxProblems problems; leftOutRoom is kept for the line that says what
// was left out.
const (
	partShare      = 4
	convertedShare = 16
	maxValue       = 300
	maxProblems    = 5
	leftOutRoom    = 256
)

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
	// grouped are the defaults read adds, grouped across objects, each
	// group folded; an object that only gains defaults has no details of
	// its own.
	grouped *grouper
	gaining int
	// newAccepted counts the objects new with NEW that it accepts, which
	// no other part names
	newAccepted int
}

func newMarkdownReport(limit int) *markdownReport {
	return &markdownReport{limit: limit, rows: map[string]*markdownRow{}, grouped: newGrouper(nil),
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
		m.gaining++
		m.grouped.add(r)
	}
	if losesData(r) {
		row.loses++
	}
	if has(RefusedOnUpdate) || has(InvalidUnderNew) {
		row.refused++
	}
	if has(NewOnly) && !has(InvalidUnderNew) {
		m.newAccepted++
	}
	if !named(r) {
		return // in its groups
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
	m.render(&text, onOneLine(r))
	_, body, _ := strings.Cut(text.String(), "\n")
	// the text report indents the details by 4: in a diff block, the
	// diff's lines then start with + and -
	body = strings.ReplaceAll(strings.TrimPrefix(body, "    "), "\n    ", "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", summaryOf(r))
	if body = strings.TrimRight(body, "\n"); body != "" {
		fence := codeFence(body)
		fmt.Fprintf(&b, "%sdiff\n%s\n%s\n", fence, body, fence)
	}
	b.WriteString("</details>\n")
	return b.String()
}

// onOneLine is r with no line ending in the fields of its summary line,
// so that the text report's first line is that line and the rest its
// details.
func onOneLine(r *Record) *Record {
	c := *r
	for _, f := range []*string{&c.Source, &c.Kind, &c.Namespace, &c.Name, &c.APIVersion} {
		*f = strings.ReplaceAll(*f, "\n", `\n`)
	}
	return &c
}

// summaryOf is r's summary line as the text report has it, in HTML (the
// <details> line is an HTML block, where markdown is not read: CommonMark
// spec, "HTML blocks"): where the object was read and who it is in
// <code>, then its categories.
func summaryOf(r *Record) string {
	var cats []string
	for _, c := range r.Categories {
		cats = append(cats, categoryText[c])
	}
	who := fmt.Sprintf("%s: %s %s (%s)", r.Source, r.Kind, r.objectName(), r.APIVersion)
	return htmlCode(who) + ": " + strings.Join(cats, ", ")
}

// codeFence is a fence of backticks longer than any run of backticks in s
// (CommonMark: the closing fence is at least as long as the opening).
func codeFence(s string) string {
	return strings.Repeat("`", max(3, longestBackticks(s)+1))
}

// longestBackticks is the length of the longest run of backticks in s.
func longestBackticks(s string) int {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// inline is s, a value from a CRD or an object, on one line and at most
// maxValue characters (then …): a control character, a line ending among
// them, is written as a Go escape (\n, \t, \x00), since a line ending
// would end a table row or start a block; so is an invisible format
// character or separator (bidirectional overrides, zero widths: U+202E is
// \u202e), which would make the value read as another; an invalid byte
// is U+FFFD.
func inline(s string) string {
	var b strings.Builder
	n := 0
	for _, c := range s {
		e := string(c)
		switch {
		case c == '\n':
			e = `\n`
		case c == '\r':
			e = `\r`
		case c == '\t':
			e = `\t`
		case c < 0x80 && unicode.IsControl(c):
			e = fmt.Sprintf(`\x%02x`, c)
		case unicode.IsControl(c) || unicode.In(c, unicode.Cf, unicode.Zl, unicode.Zp):
			e = fmt.Sprintf(`\u%04x`, c)
		}
		if n += utf8.RuneCountInString(e); n > maxValue {
			b.WriteString("…")
			break
		}
		b.WriteString(e)
	}
	return b.String()
}

// codeSpan is s, a value from a CRD or an object, as an inert code span
// (CommonMark spec, "Code spans"): nothing in it is markdown, HTML or an
// autolink, and GitHub makes no @mention, #reference or :emoji: of code.
// It is on one line (inline), between backtick strings longer than any in
// it. When it starts or ends with a backtick or a space, a space pads each
// end: CommonMark strips one space from each end when both ends are
// spaces and the content is not all spaces. Empty, it is nothing (a code
// span cannot be empty).
func codeSpan(s string) string {
	s = inline(s)
	if s == "" {
		return ""
	}
	pad := func(c byte) bool { return c == ' ' || c == '`' }
	if strings.Trim(s, " ") != "" && (pad(s[0]) || pad(s[len(s)-1])) {
		s = " " + s + " "
	}
	fence := strings.Repeat("`", longestBackticks(s)+1)
	return fence + s + fence
}

// tableCell is s, a value from a CRD or an object, in a table cell: a
// code span (codeSpan) with every | escaped, as a cell needs even inside
// a code span; the table takes the \ away before the span is read
// (GitHub Flavored Markdown spec, "Tables (extension)").
func tableCell(s string) string {
	return strings.ReplaceAll(codeSpan(s), "|", `\|`)
}

// htmlCode is s, a value from a CRD or an object, inside an HTML block:
// HTML escaped, in <code> (where GitHub makes no @mention, #reference or
// :emoji:), on one line (a blank line would end the block).
func htmlCode(s string) string {
	return "<code>" + escapeHTML(inline(s)) + "</code>"
}

func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// capped is a part of the report that grows with the input: it takes
// items in order while they fit in room characters, then counts the rest
// as left out, so what it shows is the start of the part.
type capped struct {
	strings.Builder
	room, size, total, left int
}

func (c *capped) add(item string) {
	c.total++
	n := utf8.RuneCountInString(item)
	if c.left > 0 || c.size+n > c.room {
		c.left++
		return
	}
	c.WriteString(item)
	c.size += n
}

// leftOut is the line that says how many of a part's items were left out
// and where they all are; empty when none were.
func (m *markdownReport) leftOut(left, total int, what string) string {
	if left == 0 {
		return ""
	}
	return fmt.Sprintf("\n%d of the %d %s are left out to stay under GitHub's comment limit (%d characters): "+
		"run impact -o text or -o json for all of them.\n", left, total, what, m.limit)
}

// write writes the report, dropping the last details kept until it fits
// in limit with its head and table.
func (m *markdownReport) write(w io.Writer) {
	head := m.head()
	tail := m.tail()
	room := m.limit - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail) - leftOutRoom
	kept := append(slices.Clone(m.failing), m.changing...)
	for m.size > room && len(kept) > 0 {
		m.size -= utf8.RuneCountInString(kept[len(kept)-1])
		kept = kept[:len(kept)-1]
		m.left++
	}
	var b strings.Builder
	b.WriteString(head)
	for _, d := range kept {
		b.WriteString(d)
	}
	b.WriteString(m.leftOut(m.left, m.changed, "objects to look at"))
	b.WriteString(tail)
	// w is the report (atomicout.Report), whose Close returns a failed write
	_, _ = io.WriteString(w, fitComment(b.String(), m.limit))
}

func (m *markdownReport) head() string {
	var b strings.Builder
	m.writeFindings(&b)
	m.writeTable(&b)
	if m.skipped > 0 {
		fmt.Fprintf(&b, "\n%d objects of API groups that no CRD has were skipped.\n", m.skipped)
	}
	if m.newAccepted > 0 {
		fmt.Fprintf(&b, "\n%d %s new with NEW (at a version only NEW serves): created under NEW only, and accepted.\n", m.newAccepted, plural(m.newAccepted, "object"))
	}
	m.writeGroups(&b)
	if m.changed > 0 {
		fmt.Fprintf(&b, "\n#### Objects to look at (%d)\n\n", m.changed)
	}
	return b.String()
}

// writeGroups writes the defaults read adds, grouped across objects (as
// the text report groups them): a line per effect, then each group
// folded, its first objects inside, as many as fit in a quarter of the
// limit.
func (m *markdownReport) writeGroups(b *strings.Builder) {
	groups := m.grouped.sorted()
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### Defaults read adds (%d %s, %d %s)\n", m.gaining, plural(m.gaining, "object"), len(groups), plural(len(groups), "group"))
	part := capped{room: m.limit / partShare}
	var effect Effect
	for _, g := range groups {
		var item strings.Builder
		if g.Effect != effect {
			effect = g.Effect
			fmt.Fprintf(&item, "\n**%s**\n\n", effectText[effect])
		}
		fmt.Fprintf(&item, "<details><summary>%d %s: %s %s %s = %s</summary>\n\n", g.Objects, plural(g.Objects, "object"),
			htmlCode(g.CRD), htmlCode(strings.Join(g.Versions, ",")), htmlCode(g.Path), htmlCode(inline(g.Value)))
		for _, e := range g.Examples {
			fmt.Fprintf(&item, "- %s\n", codeSpan(e))
		}
		if more := g.Objects - len(g.Examples); more > 0 {
			fmt.Fprintf(&item, "- and %d more\n", more)
		}
		item.WriteString("</details>\n")
		part.add(item.String())
	}
	b.WriteString(part.String())
	b.WriteString(m.leftOut(part.left, part.total, "groups of defaults"))
}

// writeFindings writes the title and the CRD findings, as many as fit in
// a quarter of the limit.
func (m *markdownReport) writeFindings(b *strings.Builder) {
	b.WriteString("### CRD upgrade impact\n\n")
	part := capped{room: m.limit / partShare}
	for _, f := range m.findings {
		part.add(findingItem(f))
	}
	b.WriteString(part.String())
	b.WriteString(m.leftOut(part.left, part.total, "CRD findings"))
	if part.total > 0 {
		b.WriteString("\n")
	}
}

// findingItem is a finding as a list item: its CRD, message and first
// problems as code spans. An empty problem is said (an empty item under
// a line of text would make that line a heading: CommonMark spec, "Setext
// headings").
func findingItem(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- **CRD** %s: %s\n", codeSpan(f.CRD), codeSpan(f.Msg))
	for i, p := range f.Problems {
		if i == maxProblems {
			fmt.Fprintf(&b, "  - and %d more\n", len(f.Problems)-i)
			break
		}
		item := codeSpan(p.String())
		if item == "" {
			item = "(empty)"
		}
		fmt.Fprintf(&b, "  - %s\n", item)
	}
	return b.String()
}

// writeTable writes the table with a row per CRD, as many rows as fit in
// a quarter of the limit, then the row of all the objects.
func (m *markdownReport) writeTable(b *strings.Builder) {
	b.WriteString("| CRD | objects read | unchanged | gaining defaults | losing data | refused on the next write |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: |\n")
	part := capped{room: m.limit / partShare}
	var total markdownRow
	for _, crd := range m.tableOrder(part.room) {
		r := m.rows[crd]
		part.add(tableRow(tableCell(crd), r))
		total.objects += r.objects
		total.unchanged += r.unchanged
		total.gains += r.gains
		total.loses += r.loses
		total.refused += r.refused
	}
	b.WriteString(part.String())
	if len(m.crds) != 1 {
		b.WriteString(tableRow("**all**", &total))
	}
	b.WriteString(m.leftOut(part.left, part.total, "CRDs of the table (the row of all counts their objects)"))
}

// tableOrder is the CRDs in the order of their first object or, when
// their rows do not all fit in room, those with objects that lose data or
// are refused first.
func (m *markdownReport) tableOrder(room int) []string {
	size := 0
	for _, crd := range m.crds {
		size += utf8.RuneCountInString(tableRow(tableCell(crd), m.rows[crd]))
	}
	if size <= room {
		return m.crds
	}
	fails := func(crd string) bool { return m.rows[crd].loses+m.rows[crd].refused > 0 }
	return slices.SortedStableFunc(slices.Values(m.crds), func(a, b string) int {
		switch {
		case fails(a) == fails(b):
			return 0
		case fails(a):
			return -1
		}
		return 1
	})
}

// tableRow is a row of the table of CRDs; crd is a table cell already.
func tableRow(crd string, r *markdownRow) string {
	return fmt.Sprintf("| %s | %d | %d | %d | %s | %s |\n", crd, r.objects, r.unchanged, r.gains, bold(r.loses), bold(r.refused))
}

// writeDefaults is the report without objects: the CRD findings and a
// table of the defaults added, changed or removed, as many rows as fit.
func (m *markdownReport) writeDefaults(w io.Writer, defaults []DefaultChange) {
	var b strings.Builder
	m.writeFindings(&b)
	fmt.Fprintf(&b, "%d defaults added, changed or removed.\n\n", len(defaults))
	const header = "| CRD | version | field | default |\n| --- | --- | --- | --- |\n"
	tail := m.tail()
	part := capped{room: m.limit - utf8.RuneCountInString(b.String()+header+tail) - leftOutRoom}
	for _, d := range defaults {
		part.add(defaultRow(d))
	}
	if len(defaults) > 0 {
		b.WriteString(header)
		b.WriteString(part.String())
	}
	b.WriteString(m.leftOut(part.left, part.total, "defaults"))
	b.WriteString(tail)
	// w is the report (atomicout.Report), whose Close returns a failed write
	_, _ = io.WriteString(w, fitComment(b.String(), m.limit))
}

// defaultRow is a default change as a row of the table of defaults, every
// value from the CRD a table cell.
func defaultRow(d DefaultChange) string {
	return fmt.Sprintf("| %s | %s | %s | %s |\n", tableCell(d.CRD), tableCell(d.Version), tableCell(d.Path), defaultCell(d.Change))
}

// defaultCell says what changes, as describeDefault does, the JSON values
// as table cells.
func defaultCell(c defaultdiff.Change) string {
	switch c.Kind() {
	case defaultdiff.Added:
		return "default added: " + tableCell(string(c.New))
	case defaultdiff.Removed:
		return "default removed (was " + tableCell(string(c.Old)) + ")"
	default:
		return "default changed: " + tableCell(string(c.Old)) + " -> " + tableCell(string(c.New))
	}
}

// bold marks a count of objects that lose data or are refused.
func bold(n int) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("**%d**", n)
}

// tail is the note on conversion that ends every report: the CRDs
// converted by the API's code as code spans, as many as fit in a
// sixteenth of the limit.
func (m *markdownReport) tail() string {
	if len(m.converted) == 0 {
		return "\n" + conversionNote + "\n"
	}
	// conversionNoteFor's words, around the list
	before, after, _ := strings.Cut(conversionNoteFor([]string{"\x00"}), "\x00")
	part := capped{room: m.limit / convertedShare}
	for i, crd := range m.converted {
		if i > 0 {
			part.add(", " + codeSpan(crd))
		} else {
			part.add(codeSpan(crd))
		}
	}
	list := part.String()
	if part.left > 0 {
		list += fmt.Sprintf(" and %d more", part.left)
	}
	return "\n" + before + list + after + "\n"
}

// fitComment is the last guard on the comment's length: s when it has at
// most limit characters; otherwise s cut after the last line that fits
// with no code fence or <details> open, so that the markdown stays well
// formed, and a line that says so.
func fitComment(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	note := fmt.Sprintf("\nThe report is cut here to stay under GitHub's comment limit (%d characters): "+
		"run impact -o text or -o json for all of it.\n", limit)
	room := limit - utf8.RuneCountInString(note)
	cut, off, n := 0, 0, 0
	var open openBlocks
	for line := range strings.SplitAfterSeq(s, "\n") {
		if n += utf8.RuneCountInString(line); n > room {
			break
		}
		off += len(line)
		if open.next(line); open.closed() {
			cut = off
		}
	}
	return s[:cut] + note
}

// openBlocks follows, line by line, the code fence and the <details>
// blocks open in the report.
type openBlocks struct {
	fence   string
	details int
}

func (o *openBlocks) closed() bool { return o.fence == "" && o.details == 0 }

// next reads a line. A fence closes with a line of at least as many of
// its characters and nothing but spaces after (CommonMark spec, "Fenced
// code blocks"); inside it, nothing else is read.
func (o *openBlocks) next(line string) {
	line = strings.TrimRight(line, "\n")
	if o.fence != "" {
		if fence, rest := fenceOf(line); len(fence) >= len(o.fence) && fence[0] == o.fence[0] && strings.TrimSpace(rest) == "" {
			o.fence = ""
		}
		return
	}
	if fence, _ := fenceOf(line); len(fence) >= 3 {
		o.fence = fence
		return
	}
	o.details += strings.Count(line, "<details>") - strings.Count(line, "</details>")
}

// fenceOf is the run of ` or ~ that starts line after up to 3 spaces, and
// what follows it.
func fenceOf(line string) (fence, rest string) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || t == "" || (t[0] != '`' && t[0] != '~') {
		return "", line
	}
	i := len(t) - len(strings.TrimLeft(t, t[:1]))
	return t[:i], t[i:]
}
