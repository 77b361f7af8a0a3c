package impact

import (
	"fmt"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/yamlout"
)

// contextLines is the number of unchanged lines around each change in a
// unified diff, as diff -u.
const contextLines = 3

// unifiedYAML is a unified diff of two objects as YAML (keys sorted, as
// sigs.k8s.io/yaml writes them), labelled fromName and toName; "" if their
// YAML is the same.
func unifiedYAML(fromName, toName string, from, to map[string]any) (string, error) {
	a, err := yamlLines(from)
	if err != nil {
		return "", err
	}
	b, err := yamlLines(to)
	if err != nil {
		return "", err
	}
	ops := lineDiff(a, b)
	hunks := groupHunks(ops, contextLines)
	if len(hunks) == 0 {
		return "", nil
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", fromName, toName)
	for _, h := range hunks {
		h.write(&out)
	}
	return out.String(), nil
}

func yamlLines(obj map[string]any) ([]string, error) {
	y, err := yamlout.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(y), "\n"), "\n"), nil
}

// op is one line of an edit script: ' ' kept, '-' deleted, '+' inserted;
// a and b are its 0-based line numbers in each side (the next line's, for
// a line the side does not have).
type op struct {
	kind byte
	text string
	a, b int
}

// lineDiff is a shortest edit script from a to b: common prefix and suffix
// kept, the middle by longest common subsequence (quadratic in the size of
// the middle, which is small for the objects compared here; above a bound,
// the middle is replaced as a whole).
func lineDiff(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', a[i], i, i})
	}
	ops = append(ops, middleDiff(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		ops = append(ops, op{' ', a[ai], ai, bi})
	}
	return ops
}

// maxLCSCells bounds the table of middleDiff (8 bytes a cell).
const maxLCSCells = 4_000_000

func middleDiff(a, b []string, offA, offB int) []op {
	var ops []op
	if (len(a)+1)*(len(b)+1) > maxLCSCells {
		for i, l := range a {
			ops = append(ops, op{'-', l, offA + i, offB})
		}
		for j, l := range b {
			ops = append(ops, op{'+', l, offA + len(a), offB + j})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i], offA + i, offB + j})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			// deletions before insertions, as diff -u writes a change
			ops = append(ops, op{'-', a[i], offA + i, offB + j})
			i++
		default:
			ops = append(ops, op{'+', b[j], offA + i, offB + j})
			j++
		}
	}
	return ops
}

// hunk is a run of ops with its context.
type hunk []op

// groupHunks cuts the edit script into hunks: each change with up to n
// kept lines around it, changes closer than 2n lines in one hunk.
func groupHunks(ops []op, n int) []hunk {
	var hunks []hunk
	start, end := -1, -1
	for i, o := range ops {
		if o.kind == ' ' {
			continue
		}
		lo, hi := max(0, i-n), min(len(ops), i+n+1)
		if start >= 0 && lo <= end {
			end = hi
			continue
		}
		if start >= 0 {
			hunks = append(hunks, hunk(ops[start:end]))
		}
		start, end = lo, hi
	}
	if start >= 0 {
		hunks = append(hunks, hunk(ops[start:end]))
	}
	return hunks
}

// write writes the hunk with its @@ header (1-based line numbers; a side
// with no line in the hunk is numbered after the line before it).
func (h hunk) write(out *strings.Builder) {
	aLen, bLen := 0, 0
	for _, o := range h {
		if o.kind != '+' {
			aLen++
		}
		if o.kind != '-' {
			bLen++
		}
	}
	aStart, bStart := h[0].a+1, h[0].b+1
	if aLen == 0 {
		aStart--
	}
	if bLen == 0 {
		bStart--
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range h {
		out.WriteByte(o.kind)
		out.WriteString(o.text)
		out.WriteByte('\n')
	}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
