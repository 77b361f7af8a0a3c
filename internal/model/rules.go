package model

import (
	"encoding/json"
	"fmt"
	"go/types"
	"regexp"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
)

// Rule names, printed after each finding and documented in the README.
const (
	RuleImplicitStruct     = "implicit-struct-default"
	RuleImplicitZero       = "implicit-zero-default"
	RuleOmitemptyStruct    = "omitempty-struct"
	RuleNeedsOmitempty     = "default-needs-omitempty"
	RuleStructDefaultEmpty = "struct-default-not-empty"
	RuleConflict           = "conflicting-defaults"
	RuleInvalidJSON        = "invalid-default"
	RuleUnresolvedRef      = "unresolved-ref"
	RuleTypeMismatch       = "default-type-mismatch"
	RuleUnknownZero        = "unknown-zero-value"
	// RuleRequired is the rule that keeps implicit defaults off the
	// properties the schema requires (RequiredNoImplicit).
	RuleRequired = "required-no-implicit"
	// RuleDefaultOnRequired is an author's default on a property the
	// schema requires (defaultOnRequired).
	RuleDefaultOnRequired = "default-on-required"
	// RuleDefaultDiffersByUse is an omitzero struct field that gets a
	// default at some uses of its type and none at others, which one Go
	// defaulter cannot follow.
	RuleDefaultDiffersByUse = "default-differs-by-use"
	// RuleVersionsDiffer is two versions of a CRD whose schemas
	// controller-gen writes equal and whose defaults differ: a bug of this
	// tool, or markers that differ between the versions.
	RuleVersionsDiffer = "versions-differ"
	// RuleExplain tags the notes of crd:explain=true (package decision,
	// Explain): the default each property got, or why none.
	RuleExplain = "explain"
	// RuleDefaultOwnEncoding is a default that the defaults generator
	// leaves unset: its value goes into a type with its own encoding,
	// whose Go value it cannot write (the CRD carries it all the same).
	RuleDefaultOwnEncoding = "default-own-encoding"
)

// RequiredNoImplicit narrows KEP-1929 "Changes to kubebuilder/default-gen"
// rules 1 and 4 (`{}` on non-pointer structs, the zero value on scalars
// without omitempty) to the properties the schema does not require: implicit
// defaults never change which objects the apiserver accepts, only what it
// stores.
//
// The KEP wrote those rules for built-in types, whose OpenAPI `required` the
// apiserver does not enforce. A CRD's is enforced, after defaulting: a
// default on a required property means a manifest that leaves it out, or
// misspells it, is stored with the default instead of being refused with
// "Required value". Go clients always send a field without omitempty, so for
// them the default changes nothing. An author who wants the KEP's default
// marks the field +optional, as the API conventions ask anyway.
func (m *Model) RequiredNoImplicit(f *Field) bool { return m.SchemaRequired(f) }

// defaultOnRequired warns of an author's default on a property the schema
// requires: the apiserver applies it before it checks `required`, so the
// property is never missing and `required` never fires (kube-api-linter's
// optionalorrequired and defaults analyzers make the same point). The
// default is written: it is the author's choice.
func (m *Model) defaultOnRequired(f *Field, ex *Explicit) string {
	if !m.SchemaRequired(f) {
		return ""
	}
	by := "it has no omitempty and no +optional"
	if f.Required() {
		by = "it is +required"
	}
	return fmt.Sprintf("%s=%s on a field the schema requires (%s): the apiserver applies the default before it checks required, "+
		"so the field is never missing and a manifest that leaves it out or misspells it is accepted. "+
		"If clients may leave the field out, mark it +optional; if they must send it, remove the default", ex.Source, ex.Written(), by)
}

// OmitemptyOnStruct is KEP-1929 "Changes to kubebuilder/default-gen" rule
// 2 (jsontag.OmitemptyOnStruct): the warning for f, or "".
func OmitemptyOnStruct(f *Field) string {
	return jsontag.OmitemptyOnStruct(f.Tag, f.Shape.NonPointerStruct())
}

// structDefaultMustBeEmpty is KEP-1929 "Non-pointer structs" (forbidden
// example): a non-pointer struct decodes to {} in Go when absent, so any
// other default would differ between Go clients and the apiserver.
//
// The argument is that Go clients always send the struct; it does not hold
// where the apiserver drops what they send: the status of a kind with the
// status subresource, which create resets (the CRD strategy's
// PrepareForCreate), so that the default applies to every object, Go
// clients' included.
//
// Nor does it hold for a default that only repeats the struct's own
// defaults (emptyAsDefaulted): Go's empty struct is stored as that default.
func (m *Model) structDefaultMustBeEmpty(f *Field, ex *Explicit) string {
	if !f.Shape.NonPointerStruct() || ex.EmptyObject() || m.StatusDroppedOnCreate(f) || m.emptyAsDefaulted(f, ex) {
		return ""
	}
	why := "because Go clients always send the struct"
	if f.Tag.OmitZero {
		// omitzero leaves out the zero struct alone: the default would
		// fill it while every field is zero, and none of it once one is set
		why = "because Go clients send the struct whole as soon as one field is set (omitzero leaves out only the zero struct), " +
			"so the default would apply only while every field is zero"
	}
	return fmt.Sprintf("%s=%s on a non-pointer struct: only {} is allowed, %s. "+
		"Make the field a pointer to give it a default, or put defaults on the struct's own fields", ex.Source, ex.Raw, why)
}

// emptyAsDefaulted reports a struct default each of whose keys is a field
// that Go leaves out at its zero value (omitempty, omitzero, a pointer)
// and whose own default is the same value, as external-secrets'
// +kubebuilder:default={creationPolicy:Owner,deletionPolicy:Retain} on a
// Target whose CreationPolicy and DeletionPolicy default to Owner and
// Retain. The apiserver defaults the {} a Go client sends to that same
// value, so Go clients and manifests agree.
func (m *Model) emptyAsDefaulted(f *Field, ex *Explicit) bool {
	obj, ok := ex.Value.(map[string]any)
	if !ok || !f.Shape.HasIdent {
		return false
	}
	fields := m.Fields(f.Shape.Ident)
	for k, v := range obj {
		i := slices.IndexFunc(fields, func(c *Field) bool { return c.Tag.Name == k })
		if i < 0 {
			return false
		}
		c := fields[i]
		if !c.Shape.Pointer && !c.Tag.Omits(c.Shape.NonPointerStruct()) {
			return false
		}
		own, _ := m.Explicit(c)
		want, err := jsonnum.Marshal(v)
		if own == nil || err != nil || !jsonnum.EqualJSON(own.Raw, want) {
			return false
		}
	}
	return true
}

// StatusDroppedOnCreate reports the status field of a kind with the status
// subresource (+kubebuilder:subresource:status, which controller-gen reads
// on the kind's type only): the apiserver drops
// it on create and keeps it on updates of the main resource, so what a Go
// client sends there is not what is stored.
func (m *Model) StatusDroppedOnCreate(f *Field) bool {
	if f.Tag.Name != "status" {
		return false
	}
	info := m.idx.TypeInfo(TypeIdent{Package: f.Pkg, Name: f.Owner})
	return info != nil && info.Markers.Get("kubebuilder:subresource:status") != nil
}

// nonZeroDefaultNeedsOmitempty is KEP-1929 "Changes to kubebuilder/default-gen"
// rule 3 and "Non-pointer scalar fields" (the Invalid example): without
// omitempty, Go clients always send the zero value, so a different default
// would never apply to them. It returns the finding and its fix, or "".
//
// The KEP's fix, omitempty, makes Go clients leave the zero value out, and
// the apiserver then stores the default in its place: a client that means
// 0 gets 1. That is safe only where the field's validation refuses the
// zero value (zeroRefused), so that no client can mean it; elsewhere the
// fix is a pointer, whose nil is the only value left out.
func (m *Model) nonZeroDefaultNeedsOmitempty(f *Field, ex *Explicit) (string, Fix) {
	sh := f.Shape
	if sh.Pointer || f.Tag.Omits(sh.NonPointerStruct()) || sh.Kind != KindScalar || sh.Zero == nil {
		return "", ""
	}
	if jsonnum.EqualJSON(ex.Raw, sh.Zero) {
		return "", ""
	}
	head := fmt.Sprintf("%s=%s is not the zero value %s, and without omitempty Go clients always send %s, so the default would never apply to them. ",
		ex.Source, ex.Raw, sh.Zero, sh.Zero)
	if why := m.zeroRefused(f); why != "" {
		return head + fmt.Sprintf("Add omitempty (or omitzero) to the json tag (%s, so no client means %s), or make the field a pointer", why, sh.Zero), FixOmitempty
	}
	return head + fmt.Sprintf("Make the field a pointer: with omitempty, a Go client's %s would be left out and stored as %s, "+
		"and %s is a valid value of the field", sh.Zero, ex.Raw, sh.Zero), FixPointer
}

// zeroRefused says why the validation markers of f and of its type
// (+kubebuilder:validation:Minimum, Maximum, Exclusive*, Enum, MinLength,
// Pattern), as controller-gen writes them into the schema, refuse the
// zero value of f's scalar type; "" when they accept it, or cannot be
// read.
func (m *Model) zeroRefused(f *Field) string {
	s := goSchema(f.Shape, f.Type)
	applied := false
	apply := func(ms ctmarkers.MarkerValues) {
		for _, vals := range ms {
			for _, v := range vals {
				if sm, ok := v.(schemaMarker); ok {
					if sm.ApplyToSchema(&crdmarkers.SchemaContext{}, s) == nil {
						applied = true
					}
				}
			}
		}
	}
	if f.Shape.HasIdent {
		if info := m.idx.TypeInfo(f.Shape.Ident); info != nil {
			apply(info.Markers)
		}
	}
	apply(f.Markers)
	zero, err := jsonnum.Decode(f.Shape.Zero)
	if !applied || err != nil {
		return ""
	}
	return zeroRefusedBy(s, zero)
}

// schemaMarker is a controller-tools marker that sets part of a schema
// (controller-tools pkg/crd's SchemaMarker).
type schemaMarker interface {
	ApplyToSchema(ctx *crdmarkers.SchemaContext, s *apiextensionsv1.JSONSchemaProps) error
}

// zeroRefusedBy says which of s's constraints refuses zero ("", false or
// 0), as the apiserver's validation would; "" for none.
func zeroRefusedBy(s *apiextensionsv1.JSONSchemaProps, zero any) string {
	if len(s.Enum) > 0 {
		found := false
		for _, e := range s.Enum {
			found = found || jsonnum.EqualJSON(e.Raw, mustJSON(zero))
		}
		if !found {
			return "its enum does not hold it"
		}
	}
	switch z := zero.(type) {
	case string:
		if s.MinLength != nil && *s.MinLength > 0 {
			return fmt.Sprintf("its minLength is %d", *s.MinLength)
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(z) {
				return fmt.Sprintf("its pattern %s does not match it", s.Pattern)
			}
		}
	case jsonnum.Number:
		if s.Minimum != nil && (*s.Minimum > 0 || *s.Minimum == 0 && s.ExclusiveMinimum) {
			return fmt.Sprintf("its minimum is %v", *s.Minimum)
		}
		if s.Maximum != nil && (*s.Maximum < 0 || *s.Maximum == 0 && s.ExclusiveMaximum) {
			return fmt.Sprintf("its maximum is %v", *s.Maximum)
		}
	}
	return ""
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// fitsSchema says, in words, why value does not have the JSON type of s;
// "" when it does. The apiserver would reject such a default; the Go
// defaulter could not even decode it.
func fitsSchema(value any, s *apiextensionsv1.JSONSchemaProps) string {
	if value == nil {
		return "default null is ignored by the apiserver; remove it, or omit the marker"
	}
	got := jsonType(value)
	if s.XIntOrString {
		if got == "string" || got == "integer" {
			return ""
		}
		return fmt.Sprintf("the field is an int-or-string, the default is a JSON %s", got)
	}
	switch {
	case s.Type == "", s.Type == got:
		return ""
	case s.Type == "number" && got == "integer":
		return ""
	}
	return fmt.Sprintf("the field's schema type is %s, the default is a JSON %s", s.Type, got)
}

// goSchema is the type part of the schema controller-gen generates for a
// Go type of shape sh, for checks made without the generated schema.
func goSchema(sh Shape, t types.Type) *apiextensionsv1.JSONSchemaProps {
	s := &apiextensionsv1.JSONSchemaProps{}
	if sh.Named != nil && sh.Named.Obj().Pkg() != nil {
		switch sh.Named.Obj().Pkg().Path() + "." + sh.Named.Obj().Name() {
		case "k8s.io/apimachinery/pkg/util/intstr.IntOrString", "k8s.io/apimachinery/pkg/api/resource.Quantity":
			s.XIntOrString = true
			return s
		case "k8s.io/apimachinery/pkg/apis/meta/v1.Duration", "k8s.io/apimachinery/pkg/apis/meta/v1.Time", "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":
			s.Type = "string"
			return s
		}
	}
	switch sh.Kind {
	case KindStruct, KindMap:
		s.Type = "object"
	case KindList:
		s.Type = "array"
		if b, ok := types.Unalias(sh.Elem).Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			s.Type = "string"
		}
	case KindScalar:
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if b, ok := types.Unalias(t).Underlying().(*types.Basic); ok {
			switch {
			case b.Info()&types.IsString != 0:
				s.Type = "string"
			case b.Info()&types.IsBoolean != 0:
				s.Type = "boolean"
			case b.Info()&types.IsInteger != 0:
				s.Type = "integer"
			case b.Info()&types.IsFloat != 0:
				s.Type = "number"
			}
		}
	}
	return s
}
