package compat

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// unifiedDiff returns a unified diff of a and b by lines, with context lines
// around each change, cut after maxLines lines. Lines are compared with a
// Myers diff of at most maxEdits edits; past that, the region between the
// common prefix and suffix is shown as one replaced block.
func unifiedDiff(nameA, nameB string, a, b []byte, context, maxLines int) string {
	const maxEdits = 500
	la, lb := splitLines(a), splitLines(b)
	if equalLines(la, lb) {
		return fmt.Sprintf("--- %s\n+++ %s\n(the files have the same lines; they differ in line endings or the final newline)\n", nameA, nameB)
	}
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	midA, midB := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	mid := myers(midA, midB, maxEdits)
	if mid == nil {
		for i := range midA {
			mid = append(mid, edit{kind: '-', a: i, b: -1})
		}
		for j := range midB {
			mid = append(mid, edit{kind: '+', a: -1, b: j})
		}
	}
	var ops []edit
	for i := 0; i < pre; i++ {
		ops = append(ops, edit{kind: ' ', a: i, b: i})
	}
	for _, e := range mid {
		if e.a >= 0 {
			e.a += pre
		}
		if e.b >= 0 {
			e.b += pre
		}
		ops = append(ops, e)
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, edit{kind: ' ', a: len(la) - suf + i, b: len(lb) - suf + i})
	}

	// Group the ops into hunks: each change with context lines either side,
	// merging hunks whose context overlaps.
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	lines := 0
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// Count the run of equal lines; stop the hunk if it is long.
			run := 0
			for end+run < len(ops) && ops[end+run].kind == ' ' {
				run++
			}
			if end+run == len(ops) || run > 2*context {
				end += min(run, context)
				break
			}
			end += run
		}
		aStart, bStart, aLen, bLen := -1, -1, 0, 0
		for _, e := range ops[start:end] {
			if e.kind != '+' {
				if aStart < 0 {
					aStart = e.a
				}
				aLen++
			}
			if e.kind != '-' {
				if bStart < 0 {
					bStart = e.b
				}
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart+1, aLen, bStart+1, bLen)
		for _, e := range ops[start:end] {
			if lines >= maxLines {
				fmt.Fprintf(&out, "... (diff cut after %d lines)\n", maxLines)
				return out.String()
			}
			switch e.kind {
			case '+':
				fmt.Fprintf(&out, "+%s\n", lb[e.b])
			default:
				fmt.Fprintf(&out, "%c%s\n", e.kind, la[e.a])
			}
			lines++
		}
		i = end
	}
	return out.String()
}

type edit struct {
	kind rune // ' ', '-' or '+'
	a, b int  // line indexes; -1 when the line is not in that side
}

// myers returns the shortest edit script from a to b, or nil when it needs
// more than maxD insertions and deletions.
func myers(a, b []string, maxD int) []edit {
	n, m := len(a), len(b)
	maxD = min(maxD, n+m)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m, off)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, n, m, off int) []edit {
	var rev []edit
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			rev = append(rev, edit{kind: ' ', a: x - 1, b: y - 1})
			x--
			y--
		}
		if d > 0 {
			if x == prevX {
				rev = append(rev, edit{kind: '+', a: -1, b: y - 1})
			} else {
				rev = append(rev, edit{kind: '-', a: x - 1, b: -1})
			}
		}
		x, y = prevX, prevY
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.Split(string(bytes.TrimSuffix(b, []byte("\n"))), "\n")
	return s
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestUnifiedDiff(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&a, "line %d\n", i)
		switch i {
		case 5:
			fmt.Fprintf(&b, "line %d changed\n", i)
		case 30:
			fmt.Fprintf(&b, "line %d\nline 30.5 added\n", i)
		case 35:
			// deleted
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	got := unifiedDiff("a", "b", []byte(a.String()), []byte(b.String()), 2, 100)
	want := `--- a
+++ b
@@ -3,5 +3,5 @@
 line 3
 line 4
-line 5
+line 5 changed
 line 6
 line 7
@@ -29,9 +29,9 @@
 line 29
 line 30
+line 30.5 added
 line 31
 line 32
 line 33
 line 34
-line 35
 line 36
 line 37
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", []byte("x\n"), []byte("x"), 3, 10); !strings.Contains(got, "final newline") {
		t.Errorf("trailing newline difference: got %q", got)
	}
	if got := unifiedDiff("a", "b", []byte("x\ny\n"), []byte("x\ny\nz\n"), 3, 1); !strings.Contains(got, "cut after 1 lines") {
		t.Errorf("cut: got %q", got)
	}
}
