// Package jsontag reads a struct field's json tag as encoding/json does,
// and states KEP-1929's rule about omitempty on structs. It needs no type
// information, so that the kubebuilder plugin's lint, which sees only
// source files, reads tags exactly as the generators do (package
// internal/model builds on it).
package jsontag

import (
	"reflect"
	"strings"
)

// Tag is what encoding/json reads in a field's json tag.
type Tag struct {
	Name      string
	Inline    bool // ",inline", or no name on an embedded struct
	OmitEmpty bool // ",omitempty"
	OmitZero  bool // ",omitzero"
}

// Parse reads the json tag of a struct field. ok is false for fields that
// controller-gen leaves out of the schema: no json tag, or "-". `json:""`
// on an embedded struct inlines it, as k8s.io/api's Probe does.
func Parse(st reflect.StructTag) (t Tag, ok bool) {
	tag, ok := st.Lookup("json")
	if !ok || tag == "-" {
		return Tag{}, false
	}
	opts := strings.Split(tag, ",")
	t.Name = opts[0]
	t.Inline = t.Name == ""
	for _, o := range opts[1:] {
		switch o {
		case "inline":
			t.Inline = true
		case "omitempty":
			t.OmitEmpty = true
		case "omitzero":
			t.OmitZero = true
		}
	}
	return t, true
}

// Omits reports whether encoding/json leaves out the zero value of the
// field: omitzero always does; omitempty does for everything but a
// non-pointer struct.
func (t Tag) Omits(nonPointerStruct bool) bool {
	return t.OmitZero || (t.OmitEmpty && !nonPointerStruct)
}

// OmitemptyStructMessage is the finding of OmitemptyOnStruct.
const OmitemptyStructMessage = "omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, or drop the tag"

// OmitemptyOnStruct is KEP-1929 "Changes to kubebuilder/default-gen" rule
// 2: encoding/json ignores omitempty on a non-pointer struct, so the tag
// promises an absence that never happens. omitzero keeps that promise. It
// returns the finding, or "".
func OmitemptyOnStruct(t Tag, nonPointerStruct bool) string {
	if !nonPointerStruct || !t.OmitEmpty || t.OmitZero {
		return ""
	}
	return OmitemptyStructMessage
}
