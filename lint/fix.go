package lint

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// suggestFix is the mechanical fix that a finding advises (model.Fix) at
// fld, or nil where there is none (the value of a marker is for its
// author to fix) or where the source is not in a form that can be edited
// safely. Each edit touches only the bytes it changes: the rest of the
// tag, the field and its comments stay byte for byte.
func suggestFix(fix model.Fix, fld *ast.Field) *analysis.SuggestedFix {
	if fld == nil {
		return nil // a finding at a type, not at a field
	}
	switch fix {
	case model.FixOmitempty:
		// KEP-1929 rule 3: omitempty, so that Go clients leave the zero value
		// out and the default applies to them.
		v, ok := jsonValue(fld.Tag)
		if !ok || v.name() == "-" {
			return nil
		}
		return &analysis.SuggestedFix{
			Message:   "Add omitempty to the json tag",
			TextEdits: []analysis.TextEdit{{Pos: v.end, End: v.end, NewText: []byte(",omitempty")}},
		}
	case model.FixOmitzero:
		// KEP-1929 rule 2: omitzero is what omitempty promised.
		v, ok := jsonValue(fld.Tag)
		if !ok {
			return nil
		}
		pos, ok := v.option("omitempty")
		if !ok {
			return nil
		}
		return &analysis.SuggestedFix{
			Message:   "Replace omitempty with omitzero in the json tag",
			TextEdits: []analysis.TextEdit{{Pos: pos, End: pos + token.Pos(len("omitempty")), NewText: []byte("omitzero")}},
		}
	case model.FixPointer:
		// KEP-1929 "Non-pointer structs", and rule 3 where the zero value
		// is valid: a pointer, whose nil alone is left out. `A, B T` would
		// change both fields.
		if len(fld.Names) > 1 {
			return nil
		}
		if _, ok := fld.Type.(*ast.StarExpr); ok {
			return nil
		}
		return &analysis.SuggestedFix{
			Message:   "Make the field a pointer (then regenerate deepcopy)",
			TextEdits: []analysis.TextEdit{{Pos: fld.Type.Pos(), End: fld.Type.Pos(), NewText: []byte("*")}},
		}
	}
	return nil
}

// tagValue is the value of one key of a struct tag, where it is in the
// source.
type tagValue struct {
	text       string    // the value, as in the source (and unquoted: it has no escapes)
	start, end token.Pos // the value's first byte, and the closing quote
}

func (v tagValue) name() string {
	name, _, _ := strings.Cut(v.text, ",")
	return name
}

// option is the position of the tag option opt (not the name), if present.
func (v tagValue) option(opt string) (token.Pos, bool) {
	off := 0
	for i, part := range strings.Split(v.text, ",") {
		if i > 0 && part == opt {
			return v.start + token.Pos(off), true
		}
		off += len(part) + 1
	}
	return token.NoPos, false
}

// jsonValue finds the json key's value in a field's tag, as
// reflect.StructTag.Lookup reads it. It only accepts raw string tags
// (backquotes) whose json value has no escapes, where a byte of the value
// is a byte of the source.
func jsonValue(lit *ast.BasicLit) (tagValue, bool) {
	if lit == nil || lit.Kind != token.STRING || len(lit.Value) < 2 || lit.Value[0] != '`' {
		return tagValue{}, false
	}
	raw := lit.Value[1 : len(lit.Value)-1]
	base := lit.Pos() + 1
	off := 0
	for off < len(raw) {
		for off < len(raw) && raw[off] == ' ' {
			off++
		}
		i := off
		for i < len(raw) && raw[i] > ' ' && raw[i] != ':' && raw[i] != '"' && raw[i] != 0x7f {
			i++
		}
		if i == off || i+1 >= len(raw) || raw[i] != ':' || raw[i+1] != '"' {
			return tagValue{}, false
		}
		key := raw[off:i]
		q := i + 1 // opening quote
		j := q + 1
		escaped := false
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(raw) {
			return tagValue{}, false
		}
		if key == "json" {
			if escaped {
				return tagValue{}, false
			}
			return tagValue{text: raw[q+1 : j], start: base + token.Pos(q+1), end: base + token.Pos(j)}, true
		}
		off = j + 1
	}
	return tagValue{}, false
}
