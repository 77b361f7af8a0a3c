package decision

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// Explain writes one line per decision about a field of the modules being
// generated, in go vet style at the field, as a note: the default each
// property got and where it came from, or why it got none. The crd and
// defaults generators read these same decisions.
func (m *Model) Explain(w io.Writer) {
	type line struct {
		file     string
		row, col int
		text     string
	}
	seen := map[string]bool{}
	var lines []line
	for _, d := range m.all {
		if !m.Types.Own(d.Field.Pkg) {
			continue
		}
		pos := model.RelPos(d.Field.Pos())
		text := fmt.Sprintf("%s: note: %s [%s]", pos, d, model.RuleExplain)
		if !seen[text] {
			seen[text] = true
			lines = append(lines, line{pos.Filename, pos.Line, pos.Column, text})
		}
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.row, b.row), cmp.Compare(a.col, b.col))
	})
	for _, l := range lines {
		fmt.Fprintln(w, l.text)
	}
}
