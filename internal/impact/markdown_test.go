package impact

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// markdownRecords analyzes the objects of testdata's fixed upgrade.
func markdownRecords(t *testing.T) ([]*Record, *Analyzer) {
	t.Helper()
	old, err := crdcheck.LoadCRDs("testdata/old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	new, err := crdcheck.LoadCRDs("testdata/new.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(context.Background(), old, new)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := readInputs([]string{"testdata/objects.yaml", "testdata/list.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*Record
	for _, in := range ins {
		r, err := a.Object(context.Background(), in.Object)
		if err != nil {
			t.Fatalf("%s: %v", in.Source, err)
		}
		r.Source = in.Source
		recs = append(recs, r)
	}
	return recs, a
}

// markdownOf is the -o markdown report of recs under limit.
func markdownOf(a *Analyzer, recs []*Record, limit int) (string, int) {
	var out bytes.Buffer
	p := newPrinter("markdown", &out, &bytes.Buffer{})
	p.markdown.limit = limit
	rep := p.startObjects(a.Findings())
	for _, r := range recs {
		rep.record(r)
	}
	code := rep.end()
	return out.String(), code
}

// TestMarkdownReport: -o markdown on testdata's fixed upgrade, against
// testdata/report.md (go test -run TestMarkdownReport -update rewrites
// it): a row per CRD, the objects that change folded, those that fail
// first; the exit status is the text report's.
func TestMarkdownReport(t *testing.T) {
	recs, a := markdownRecords(t)
	got, code := markdownOf(a, recs, CommentLimit)
	var text bytes.Buffer
	tp := newPrinter("text", &text, &bytes.Buffer{})
	trep := tp.startObjects(a.Findings())
	for _, r := range recs {
		trep.record(r)
	}
	if want := trep.end(); code != want {
		t.Errorf("exit %d, the text report's is %d", code, want)
	}
	if *update {
		if err := os.WriteFile("testdata/report.md", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/report.md")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("-o markdown differs from testdata/report.md (-update rewrites it):\n%s", got)
	}
	groups, fails := strings.Index(got, "#### Defaults read adds"), strings.Index(got, "refused on update</summary>")
	if groups < 0 || fails < 0 || groups > fails || strings.Contains(got, ")</code>: gains defaults</summary>") {
		t.Errorf("want the defaults grouped (at %d), then the objects to look at (at %d), and no details for an object that only gains defaults", groups, fails)
	}
}

// TestMarkdownLimit: 40,000 objects (the fixed upgrade's again and again)
// give a report under GitHub's comment limit that says how many objects
// it leaves out, keeps the objects that fail before those that only
// change, and counts every object in its table; a limit too small for
// any details still gives the table.
func TestMarkdownLimit(t *testing.T) {
	recs, a := markdownRecords(t)
	var many []*Record
	changed, failing := 0, 0
	for i := 0; len(many) < 40000; i++ {
		for _, r := range recs {
			c := *r
			c.Name = fmt.Sprintf("%s-%d", r.Name, i)
			many = append(many, &c)
			if named(&c) {
				changed++
			}
			if c.Fails {
				failing++
			}
		}
	}
	got, _ := markdownOf(a, many, CommentLimit)
	if n := utf8.RuneCountInString(got); n > CommentLimit {
		t.Fatalf("%d characters, over %d", n, CommentLimit)
	}
	shown := strings.Count(got, "<details><summary><code>") // an object's; a group's starts with its count
	if shown == 0 || !strings.Contains(got, fmt.Sprintf("\n%d of the %d objects to look at are left out", changed-shown, changed)) {
		t.Errorf("%d details shown of %d; the report does not say how many are left out:\n%s", shown, changed, got[len(got)-600:])
	}
	if failing >= shown && strings.Contains(got, ")</code>: gains defaults</summary>") {
		t.Error("an object that only gains defaults was kept while objects that fail were left out")
	}
	if !strings.Contains(got, fmt.Sprintf("| **all** | %d |", len(many))) {
		t.Errorf("the table does not count all %d objects:\n%s", len(many), got[:1500])
	}
	small, _ := markdownOf(a, recs, 1000)
	if strings.Contains(small, "<details><summary><code>") || !strings.Contains(small, "| CRD |") ||
		!strings.Contains(small, "are left out") && !strings.Contains(small, "The report is cut here") {
		t.Errorf("limit 1000:\n%s", small)
	}
}

// TestCodeFence: a fence is longer than any run of backticks in what it
// holds, so an object's value cannot end the block.
func TestCodeFence(t *testing.T) {
	for s, want := range map[string]string{"": "```", "a`b": "```", "````x": "`````", "a``b```": "````"} {
		if got := codeFence(s); got != want {
			t.Errorf("codeFence(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestMarkdownCodeSpan: a value is a code span that GitHub reads back as
// the value (on one line): its fence is longer than any run of backticks
// in it, and a value that starts or ends with a backtick or a space is
// padded with a space at each end, which CommonMark strips.
func TestMarkdownCodeSpan(t *testing.T) {
	for s, want := range map[string]string{
		"a": "`a`", "a`b": "``a`b``", "`a": "`` `a ``", "a`": "`` a` ``", "``": "``` `` ```",
		" a": "`  a `", "a ": "` a  `", " a ": "`  a  `", " ": "` `", "  ": "`  `", "": "",
		"a\nb": "`a\\nb`", "a|b": "`a|b`", "@user [x](y) <b>": "`@user [x](y) <b>`",
		strings.Repeat("x", 400): "`" + strings.Repeat("x", maxValue) + "…`",
	} {
		got := codeSpan(s)
		if got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", s, got, want)
		}
		if s == "" {
			continue
		}
		tables, problems := readReport("| a |\n| --- |\n| "+tableCell(s)+" |\n", CommentLimit)
		if read := tables[0][1][0].codes; len(problems) > 0 || !slices.Equal(read, []string{inline(s)}) {
			t.Errorf("tableCell(%q) = %q is read as %q (%v)", s, tableCell(s), read, problems)
		}
	}
}

// TestMarkdownTableCell: a | in a table cell is escaped even inside a
// code span, and a \ before it stays (GitHub Flavored Markdown spec,
// "Tables (extension)").
func TestMarkdownTableCell(t *testing.T) {
	for s, want := range map[string]string{"a|b": "`a\\|b`", `a\|b`: "`a\\\\|b`", "|`": "`` \\|` ``", "a": "`a`"} {
		if got := tableCell(s); got != want {
			t.Errorf("tableCell(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestMarkdownInline: a value is on one line, control characters and
// invisible format characters written as Go escapes, an invalid byte as
// U+FFFD, at most maxValue characters.
func TestMarkdownInline(t *testing.T) {
	for s, want := range map[string]string{
		"a\r\nb\tc\x00\x7f": `a\r\nb\tc\x00\x7f`, "\xff": "\uFFFD", "é": "é",
		"a\u202eb\u200b\u0085\u2028": `a\u202eb\u200b\u0085\u2028`,
		strings.Repeat("\n", 200):    strings.Repeat(`\n`, maxValue/2) + "…",
	} {
		if got := inline(s); got != want {
			t.Errorf("inline(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestMarkdownFitComment: a report over the limit is cut after the last
// line that fits with no code fence or <details> open (a fence closes
// only with at least as many backticks), and says so.
func TestMarkdownFitComment(t *testing.T) {
	block := "<details><summary>x</summary>\n\n````diff\n```\n<details>\n</details>\n" + strings.Repeat("line\n", 20) + "````\n</details>\n"
	head := "### t\n\n| a |\n| --- |\n| `b` |\n\n"
	s := head + strings.Repeat(block, 10)
	if got := fitComment(s, len(s)); got != s {
		t.Errorf("a report under the limit is changed:\n%s", got)
	}
	for _, limit := range []int{300, 400, 500, 1000, 1500} {
		got := fitComment(s, limit)
		kept, note, ok := strings.Cut(got, "\nThe report is cut here to stay under GitHub's comment limit")
		if !ok || utf8.RuneCountInString(got) > limit || !strings.HasPrefix(s, kept) || !strings.Contains(note, "-o json") {
			t.Fatalf("limit %d: %d characters, or not a cut of the report with a note:\n%s", limit, utf8.RuneCountInString(got), got)
		}
		var open openBlocks
		for line := range strings.SplitAfterSeq(kept, "\n") {
			open.next(line)
		}
		rest := strings.TrimPrefix(kept, head)
		if !open.closed() || rest != strings.Repeat(block, len(rest)/len(block)) || limit >= 1000 && rest == "" {
			t.Errorf("limit %d: cut inside a fence or <details>:\n%s", limit, kept)
		}
	}
}
