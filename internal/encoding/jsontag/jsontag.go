// Package jsontag reads a struct field's json tag twice: as controller-gen
// reads it to write the CRD schema (Parse), and as encoding/json reads it
// to encode and decode Go values (EncodingJSON); Mismatch is the rule that
// the two agree. It also states KEP-1929's rule about omitempty on
// structs. It needs no type information beyond what Field says, so that
// the kubebuilder plugin's lint, which sees only source files, reads tags
// exactly as the generators do (package internal/model builds on it).
package jsontag

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
)

// Tag is what controller-gen reads in a field's json tag: the property's
// name and options. Where encoding/json reads the tag otherwise, Mismatch
// says so.
type Tag struct {
	Name      string
	Inline    bool // ",inline", or no name on an embedded struct
	OmitEmpty bool // ",omitempty"
	OmitZero  bool // ",omitzero"
}

// Parse reads the json tag of a struct field as controller-gen does
// (controller-tools v0.23.0 pkg/crd structToSchema). ok is false for
// fields that controller-gen leaves out of the schema: no json tag, or
// "-" ("-," names the field "-"). An empty name inlines the field,
// embedded or not, as does the option inline: `json:""` on an embedded
// struct inlines it, as k8s.io/api's Probe does.
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
//
// It offers omitzero only: dropping omitempty would make controller-gen
// require a field that has no +optional (and refuse every create, for a
// kind's status), where omitzero keeps the field optional.
const OmitemptyStructMessage = "omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, which keeps the field optional"

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

// Field is a struct field as the two readers of its tag see it.
type Field struct {
	// Name is the Go name; for an embedded field, its type's name.
	Name string
	// Embedded is an embedded (anonymous) field.
	Embedded bool
	// Struct is an embedded field whose type, or the type it points to,
	// is a struct.
	Struct bool
	Tag    reflect.StructTag
}

// Reading is where a reader puts a field's value in a JSON object.
type Reading struct {
	// Skip: the reader neither reads nor writes the field.
	Skip bool
	// Inline: the field's own fields are the enclosing object's.
	Inline bool
	// Name is the key, when the field is neither skipped nor inline.
	Name string
}

func (r Reading) String() string {
	switch {
	case r.Skip:
		return "no key"
	case r.Inline:
		return "its fields inline"
	}
	return strconv.Quote(r.Name)
}

// EncodingJSON is where encoding/json (Go 1.26, typeFields) puts the
// field: an unexported field is skipped, unless it is embedded with a
// struct type, whose exported fields are promoted; "-" skips it; a name
// that isValidTag refuses (anything but letters, digits and
// !#$%&()*+-./:;<=>?@[]^_{|}~ and space) counts as no name; with no name,
// an embedded struct is inlined and any other field takes its Go name.
// The option inline means nothing to encoding/json.
func EncodingJSON(f Field) Reading {
	if !isExported(f.Name) && (!f.Embedded || !f.Struct) {
		return Reading{Skip: true}
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return Reading{Skip: true}
	}
	name, _, _ := strings.Cut(tag, ",")
	if !isValidTag(name) {
		name = ""
	}
	if name == "" && f.Embedded && f.Struct {
		return Reading{Inline: true}
	}
	if name == "" {
		name = f.Name
	}
	return Reading{Name: name}
}

// ControllerGen is where controller-gen puts the field (Parse): an
// unexported field is skipped only with crd:ignoreUnexportedFields=true,
// and never when embedded; with no json tag, controller-gen refuses the
// field (reported as no key here).
func ControllerGen(f Field, ignoreUnexported bool) Reading {
	if !f.Embedded && ignoreUnexported && !isExported(f.Name) {
		return Reading{Skip: true}
	}
	t, ok := Parse(f.Tag)
	switch {
	case !ok:
		return Reading{Skip: true}
	case t.Inline:
		return Reading{Inline: true}
	}
	return Reading{Name: t.Name}
}

// Mismatch is the rule that encoding/json and controller-gen put a field
// at the same place: otherwise Go clients send a key the CRD's schema
// does not have, which the apiserver prunes, and the schema's property
// (and its default) is one no Go client reads or writes. It returns the
// finding, naming both places and the fix, or "". A field that
// controller-gen refuses for want of a json tag is controller-gen's error.
func Mismatch(f Field, ignoreUnexported bool) string {
	if _, ok := f.Tag.Lookup("json"); !ok {
		return ""
	}
	gen, enc := ControllerGen(f, ignoreUnexported), EncodingJSON(f)
	if gen == enc {
		return ""
	}
	tag := f.Tag.Get("json")
	var why, fix string
	name, opts, _ := strings.Cut(tag, ",")
	switch {
	case enc.Skip:
		why = "encoding/json ignores an unexported field"
		fix = "export the field, or tag it `json:\"-\"` (or set crd:ignoreUnexportedFields=true) to keep it out of the CRD"
	case name != "" && !isValidTag(name):
		why = fmt.Sprintf("encoding/json refuses the name %q (a name has letters, digits and !#$%%&()*+-./:;<=>?@[]^_{|}~ and spaces only) and reads the field as if it had none", name)
		fix = "rename the key with those characters only"
	case gen.Inline && !f.Embedded:
		why = "encoding/json inlines embedded structs only: it gives any other field without a name its Go name, and ignores the option inline"
		keep := name
		if keep == "" {
			keep = lowerFirst(f.Name)
		}
		rest := strings.ReplaceAll(","+opts, ",inline", "")
		if rest == "," {
			rest = ""
		}
		fix = fmt.Sprintf("embed the struct to inline it, or write `json:%q` to keep a key", keep+rest)
	case gen.Inline && !f.Struct:
		why = "encoding/json inlines embedded structs only"
		fix = "give the field a json name"
	case gen.Inline:
		why = "encoding/json ignores the option inline on a field with a name"
		fix = "drop the name to inline the struct (`json:\",inline\"`), or drop inline to keep the key"
	default:
		why = "encoding/json reads the tag otherwise"
		fix = "write a name both read alike"
	}
	return fmt.Sprintf("json tag %q: controller-gen writes %s into the CRD, encoding/json (Go clients) %s: %s; "+
		"Go clients' values there are pruned by the apiserver, and the CRD's are never read. Fix: %s", tag, gen, enc, why, fix)
}

// isValidTag is encoding/json's: a name it accepts.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// isExported is reflect.StructField.IsExported for a field named name.
func isExported(name string) bool {
	for _, c := range name {
		return unicode.IsUpper(c)
	}
	return false
}

func lowerFirst(s string) string {
	for i, c := range s {
		return string(unicode.ToLower(c)) + s[i+len(string(c)):]
	}
	return s
}
