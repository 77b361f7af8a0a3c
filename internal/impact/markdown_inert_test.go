package impact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/defaultdiff"
)

// gfm reads markdown as GitHub does: CommonMark with the GitHub Flavored
// Markdown extensions (tables, strikethrough, autolinks, task lists).
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// attacks are values a pull request's CRDs or a cluster's objects can
// hold that markdown, HTML or GitHub would act on outside code.
var attacks = []string{
	"", " ", "  ", " a ", "`", "``x``", "a`b", "` lead", "trail `", " `x` ", "```", "~~~",
	"a|b", `a\|b`, `\`, `x\`, "|", `\\|`, "| x | y |",
	"<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "&amp;", "&#64;user", "&lt;",
	"<!-- hidden -->", "<details>", "</details>", "</summary>", "<code>",
	"@user", "@org/team", "#123", "owner/repo#1", "GH-1", "deadbeefcafe1234",
	"[x](https://evil.example)", "![x](https://evil.example/p.png)", "[x]: https://evil.example",
	"<https://evil.example>", "https://evil.example/a?b", "www.evil.example", "user@evil.example",
	":smile:", "**bold**", "_em_", "~~del~~", "- [ ] task", "> quote", "---",
	"line\nbreak", "a\r\nb", "a\rb", "\n# heading", "\n\n<img src=x>\n\n", "\n```\n", "\x00", "\t", "\x7f",
	"\xff\xfe", "\u202e", strings.Repeat("x", 70000), strings.Repeat("`", 500), strings.Repeat("|", 300),
}

// tableCellOf is one cell of a table as read: its text outside code, and
// the text of each code span in it.
type tableCellOf struct {
	text  string
	codes []string
}

// readReport reads src as GitHub would and says what in it is not inert:
// a node other than the report's own (a link, an image, an autolink,
// inline HTML, strikethrough...) outside code, HTML other than
// <details>, <summary> and <code>, text outside code with characters that
// GitHub would make a mention, a reference, an emoji or a link of, bold
// or a heading of other text than the report's, a table row with another
// number of cells than its header. It returns the tables, row by row.
func readReport(src string, limit int) (tables [][][]tableCellOf, problems []string) {
	if n := utf8.RuneCountInString(src); n > limit {
		problems = append(problems, fmt.Sprintf("%d characters, over %d", n, limit))
	}
	source := []byte(src)
	doc := gfm.Parser().Parse(text.NewReader(source))
	bad := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) { // the walker returns no error
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Document, *ast.Paragraph, *ast.TextBlock, *ast.List, *ast.ListItem, *east.TableRow, *east.TableHeader, *east.TableCell:
		case *ast.CodeSpan, *ast.FencedCodeBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if v := string(n.Segment.Value(source)); !plainText(v) {
				bad("text outside code: %q", v)
			}
		case *ast.Emphasis:
			if v := textOf(n, source); n.Level != 2 || !reportBold.MatchString(v) {
				bad("emphasis outside code: %q", v)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			if v := textOf(n, source); !reportHeading.MatchString(v) {
				bad("heading: %q", v)
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			for _, l := range htmlLines(n, source) {
				if !htmlInert(l) {
					bad("HTML: %q", l)
				}
			}
		case *east.Table:
			rows, why := readTable(n, source)
			tables = append(tables, rows)
			problems = append(problems, why...)
			return ast.WalkSkipChildren, nil
		default:
			bad("a %s outside code: %q", n.Kind(), textOf(n, source))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return tables, problems
}

var (
	reportBold    = regexp.MustCompile(`^(CRD|all|\d+|` + effectLines() + `)$`)
	reportHeading = regexp.MustCompile(`^(CRD upgrade impact|Objects to look at \(\d+\)|Defaults read adds \(\d+ objects?, \d+ groups?\))$`)
	// outside code, the report's own words only: no @ (a mention, which
	// no markdown parser sees), #1 (a reference), :emoji:, URL, or what
	// markdown or HTML reads
	plainChars = regexp.MustCompile(`^[A-Za-z0-9 ,.:()'/>-]*$`)
	linkish    = regexp.MustCompile(`:[a-z0-9_+-]+:|://|www\.|\b[0-9a-f]{7,40}\b`)
	// a line of the <details> blocks: the only HTML the report has, a
	// value only HTML-escaped in <code>
	detailsLine = regexp.MustCompile(`^(<details><summary><code>([^<>&]|&amp;|&lt;|&gt;)*</code>([^<>&]*)</summary>|</details>)$`)
)

func plainText(s string) bool { return plainChars.MatchString(s) && !linkish.MatchString(s) }

func htmlInert(line string) bool {
	m := detailsLine.FindStringSubmatch(line)
	return m != nil && plainText(m[3])
}

func htmlLines(n *ast.HTMLBlock, source []byte) []string {
	var out []string
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		out = append(out, strings.TrimRight(string(seg.Value(source)), "\r\n"))
	}
	if n.HasClosure() {
		out = append(out, strings.TrimRight(string(n.ClosureLine.Value(source)), "\r\n"))
	}
	return out
}

// textOf is the text of n and its descendants, code included.
func textOf(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) { // the walker returns no error
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(source))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// readTable reads a table's rows and checks that each has as many cells
// as its header, and as many unescaped | on its line (a row with more
// cells loses the last ones, and one with fewer gets empty ones).
func readTable(t *east.Table, source []byte) (rows [][]tableCellOf, problems []string) {
	width := -1
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []tableCellOf
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, readCell(c, source, &problems))
		}
		if width < 0 {
			width = len(cells)
		}
		line := rowLine(row, source)
		if len(cells) != width || unescapedPipes(line) != width+1 {
			problems = append(problems, fmt.Sprintf("a row of %d cells (%d |), its header %d: %q", len(cells), unescapedPipes(line), width, line))
		}
		rows = append(rows, cells)
	}
	return rows, problems
}

func readCell(c ast.Node, source []byte, problems *[]string) tableCellOf {
	var cell tableCellOf
	for n := c.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.CodeSpan:
			cell.codes = append(cell.codes, textOf(n, source))
		case *ast.Text:
			cell.text += string(n.Segment.Value(source))
			if !plainText(string(n.Segment.Value(source))) {
				*problems = append(*problems, fmt.Sprintf("text outside code in a cell: %q", n.Segment.Value(source)))
			}
		case *ast.Emphasis:
			if v := textOf(n, source); n.Level == 2 && reportBold.MatchString(v) {
				cell.text += v
				continue
			}
			*problems = append(*problems, fmt.Sprintf("emphasis in a cell: %q", textOf(n, source)))
		default:
			*problems = append(*problems, fmt.Sprintf("a %s in a cell: %q", n.Kind(), textOf(n, source)))
		}
	}
	return cell
}

// rowLine is the line of source a table row was read from.
func rowLine(row ast.Node, source []byte) string {
	c := row.FirstChild()
	if c == nil || c.Lines().Len() == 0 {
		return ""
	}
	seg := c.Lines().At(0)
	at := seg.Start
	start := bytes.LastIndexByte(source[:at], '\n') + 1
	end := bytes.IndexByte(source[at:], '\n')
	if end < 0 {
		end = len(source) - at
	}
	return string(source[start : at+end])
}

// unescapedPipes counts the | of a table line that are not escaped (GitHub
// Flavored Markdown spec, "Tables (extension)": a \ before | escapes it).
func unescapedPipes(line string) int {
	n := 0
	for i := range len(line) {
		if line[i] == '|' && (i == 0 || line[i-1] != '\\') {
			n++
		}
	}
	return n
}

// markdownInputs are the records, findings and defaults of one report,
// every value from a CRD or an object given.
type markdownInputs struct {
	records   []*Record
	findings  []Finding
	defaults  []DefaultChange
	converted []string
}

// hostileInputs is n objects, findings and defaults whose CRD names,
// versions, paths, values, object names, messages and diffs are those
// given; every third has a CRD of its own.
func hostileInputs(crd, version, path, value, name, message, diff string, n int) markdownInputs {
	var in markdownInputs
	cats := [][]string{{GainsDefaults}, {LosesFields}, {Unchanged}, {RefusedOnUpdate, HeldByRatcheting}}
	for i := range n {
		c := crd
		if i%3 == 1 {
			c = crd + "-" + strconv.Itoa(i)
		}
		r := &Record{Source: name + ":" + strconv.Itoa(i), APIVersion: version + "/v1", Kind: name, Namespace: name, Name: name,
			CRD: c, Categories: cats[i%len(cats)], Diff: diff, InvalidUnderOld: []Problem{{Field: path, Message: value}}}
		r.Fails = losesData(r) || slices.Contains(r.Categories, RefusedOnUpdate)
		in.records = append(in.records, r)
		var f Finding
		f.CRD, f.Msg = c, message
		for range i % (maxProblems + 2) {
			f.Problems = append(f.Problems, Problem{Field: path, Message: value})
		}
		in.findings = append(in.findings, f)
		ch := defaultdiff.Change{Version: version, Path: path, Old: json.RawMessage(value), New: json.RawMessage(value + "|")}
		switch i % 3 {
		case 0:
			ch.Old = nil
		case 2:
			ch.New = nil
		}
		in.defaults = append(in.defaults, DefaultChange{CRD: c, Change: ch})
	}
	in.converted = []string{crd, crd + "`"}
	return in
}

// reports are the report with objects and the report of defaults of in,
// under limit.
func (in markdownInputs) reports(limit int) (objects, defaults string) {
	var out bytes.Buffer
	p := newPrinter("markdown", &out, &bytes.Buffer{})
	p.markdown.limit, p.converted = limit, in.converted
	rep := p.startObjects(in.findings)
	for _, r := range in.records {
		rep.record(r)
	}
	rep.end()
	objects = out.String()
	out.Reset()
	p = newPrinter("markdown", &out, &bytes.Buffer{})
	p.markdown.limit, p.converted = limit, in.converted
	p.crdReport(in.findings, in.defaults)
	return objects, out.String()
}

// checkReports checks both reports of in: inert, under limit, and each
// value in a table cell as it was given (on one line, cut at maxValue).
func checkReports(t *testing.T, in markdownInputs, limit int) {
	t.Helper()
	objects, defaults := in.reports(limit)
	tables, problems := readReport(objects, limit)
	problems = append(problems, checkCRDTable(tables, in)...)
	if len(problems) > 0 {
		t.Fatalf("-o markdown with objects:\n%s\n%s", strings.Join(problems, "\n"), excerpt(objects))
	}
	tables, problems = readReport(defaults, limit)
	problems = append(problems, checkDefaultsTable(tables, in)...)
	if len(problems) > 0 {
		t.Fatalf("-o markdown without objects:\n%s\n%s", strings.Join(problems, "\n"), excerpt(defaults))
	}
}

func excerpt(s string) string {
	if len(s) > 4000 {
		return s[:2000] + "\n[...]\n" + s[len(s)-2000:]
	}
	return s
}

var count = regexp.MustCompile(`^\d+$`)

// checkCRDTable: a row per CRD of in (its name as given) with 5 counts,
// then the row of all.
func checkCRDTable(tables [][][]tableCellOf, in markdownInputs) (problems []string) {
	if len(tables) != 1 {
		return []string{fmt.Sprintf("%d tables, not 1", len(tables))}
	}
	crds := map[string]bool{}
	for _, r := range in.records {
		crds[inline(r.CRD)] = true
	}
	for _, row := range tables[0][1:] {
		name := strings.Join(row[0].codes, "")
		if len(row[0].codes) > 1 || !(row[0].text == "" && crds[name] || row[0].text == "all" && name == "") {
			problems = append(problems, fmt.Sprintf("a row of no CRD: %+v", row[0]))
		}
		for _, c := range row[1:] {
			if !count.MatchString(c.text) || len(c.codes) > 0 {
				problems = append(problems, fmt.Sprintf("a count that is not one: %+v", c))
			}
		}
	}
	return problems
}

func nonEmpty(s ...string) []string {
	return slices.DeleteFunc(s, func(s string) bool { return s == "" })
}

// checkDefaultsTable: a row per default of in, in order, its CRD, version,
// path and values as given.
func checkDefaultsTable(tables [][][]tableCellOf, in markdownInputs) (problems []string) {
	if len(tables) != 1 {
		return []string{fmt.Sprintf("%d tables, not 1", len(tables))}
	}
	for i, row := range tables[0][1:] {
		d := in.defaults[i]
		want := [][]string{nonEmpty(inline(d.CRD)), nonEmpty(inline(d.Version)), nonEmpty(inline(d.Path)),
			nonEmpty(inline(string(d.Old)), inline(string(d.New)))}
		for j, c := range row[:min(len(row), len(want))] {
			if !slices.Equal(c.codes, want[j]) {
				problems = append(problems, fmt.Sprintf("row %d cell %d: %q, want %q", i, j, c.codes, want[j]))
			}
		}
	}
	return problems
}

// effectLines is the report's line for each effect, as a regexp.
func effectLines() string {
	var out []string
	for _, e := range effectOrder {
		out = append(out, regexp.QuoteMeta(effectText[e]))
	}
	return strings.Join(out, "|")
}

// TestMarkdownInert: every value from a CRD or an object that can turn
// markdown, HTML or GitHub against the reader (links, images, autolinks,
// HTML, mentions, references, emoji, backticks and | that end a code span
// or a table cell, line endings, very long lines) is inert in both
// reports, and a table cell shows it as it was.
func TestMarkdownInert(t *testing.T) {
	for _, a := range attacks {
		t.Run(fmt.Sprintf("%.40q", a), func(t *testing.T) {
			checkReports(t, hostileInputs(a, a, a, a, a, a, a, 7), CommentLimit)
		})
	}
}

// TestMarkdownManyCRDs: thousands of CRDs (3,000 removed, or 3,000 of one
// object each) give reports under GitHub's comment limit that say how many
// findings and CRDs of the table they leave out; the row of all counts
// every object, and the CRDs whose objects fail keep their rows.
func TestMarkdownManyCRDs(t *testing.T) {
	removed := markdownInputs{}
	unchanged := markdownInputs{}
	for i := range 3000 {
		crd := fmt.Sprintf("things%04d.example.com", i)
		removed.findings = append(removed.findings, newFinding(FindingRemoved, crd, "",
			"NEW has no such CRD: deleting a CRD deletes all its objects"))
		removed.records = append(removed.records, &Record{Source: fmt.Sprintf("dump.yaml:%d", i), APIVersion: "example.com/v1",
			Kind: "Thing", Name: "a", CRD: crd, Categories: []string{CRDRemoved}, Fails: true})
		removed.defaults = append(removed.defaults, DefaultChange{CRD: crd, Change: defaultdiff.Change{Version: "v1", Path: "spec.x", Old: json.RawMessage("1")}})
		unchanged.records = append(unchanged.records, &Record{Source: fmt.Sprintf("dump.yaml:%d", i), APIVersion: "example.com/v1",
			Kind: "Thing", Name: "a", CRD: crd, Categories: []string{Unchanged}})
	}
	unchanged.records[2999].Categories, unchanged.records[2999].Fails = []string{LosesFields}, true
	objects, defaults := removed.reports(CommentLimit)
	for _, c := range []struct{ name, report, says string }{
		{"3,000 CRDs removed", objects, "of the 3000 CRD findings are left out to stay under GitHub's comment limit"},
		{"3,000 CRDs removed", objects, "of the 3000 CRDs of the table (the row of all counts their objects) are left out"},
		{"3,000 CRDs removed", objects, "of the 3000 objects to look at are left out"},
		{"3,000 CRDs removed", objects, "| **all** | 3000 | 0 | 0 | **3000** | 0 |"},
		{"3,000 CRDs removed, no objects", defaults, "of the 3000 CRD findings are left out"},
		{"3,000 CRDs removed, no objects", defaults, "of the 3000 defaults are left out"},
	} {
		if n := utf8.RuneCountInString(c.report); n > CommentLimit || !strings.Contains(c.report, c.says) {
			t.Errorf("%s: %d characters (limit %d), or it does not say %q:\n%s", c.name, n, CommentLimit, c.says, excerpt(c.report))
		}
	}
	checkReports(t, removed, CommentLimit)
	objects, _ = unchanged.reports(CommentLimit)
	if n := utf8.RuneCountInString(objects); n > CommentLimit || !strings.Contains(objects, "CRDs of the table (the row of all counts their objects) are left out") ||
		!strings.Contains(objects, "| **all** | 3000 | 2999 |") || !strings.Contains(objects, "| `things2999.example.com` | 1 | 0 | 0 | **1** | 0 |") {
		t.Errorf("3,000 CRDs of one object each: %d characters, or the table is not capped, or the CRD that loses data has no row:\n%s", n, excerpt(objects))
	}
}

// FuzzMarkdownInert: the reports of fuzzed CRD names, versions, paths,
// values, object names, messages and diffs, n of each, under a limit,
// read by a CommonMark/GFM parser as GitHub reads them: nothing is a link,
// image, autolink, HTML other than the report's <details>, <summary> and
// <code>, mention, reference or emoji outside code; every table row has
// its header's cells and the values as given; the length is under the
// limit.
func FuzzMarkdownInert(f *testing.F) {
	for i, a := range attacks {
		if len(a) > 1000 {
			a = a[:1000]
		}
		f.Add(a, "v1", "spec.x", `"y"`, "obj", "msg", "+ a\n- b", uint16(i), uint16(65535))
		f.Add("c.example.com", a, a, a, a, a, a, uint16(3*i), uint16(i*500))
	}
	f.Fuzz(func(t *testing.T, crd, version, path, value, name, message, diff string, n, limit uint16) {
		lim := min(CommentLimit, 2048+int(limit))
		checkReports(t, hostileInputs(crd, version, path, value, name, message, diff, 1+int(n)%128), lim)
	})
}
