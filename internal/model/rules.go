package model

import (
	"bytes"
	"fmt"
	"go/types"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/jsontag"
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
)

// OmitemptyOnStruct is KEP-1929 "Changes to kubebuilder/default-gen" rule
// 2 (jsontag.OmitemptyOnStruct): the warning for f, or "".
func OmitemptyOnStruct(f *Field) string {
	return jsontag.OmitemptyOnStruct(f.Tag, f.Shape.NonPointerStruct())
}

// structDefaultMustBeEmpty is KEP-1929 "Non-pointer structs" (forbidden
// example): a non-pointer struct decodes to {} in Go when absent, so any
// other default would differ between Go clients and the apiserver.
func structDefaultMustBeEmpty(f *Field, ex *Explicit) string {
	if !f.Shape.NonPointerStruct() || ex.EmptyObject() {
		return ""
	}
	return fmt.Sprintf("%s=%s on a non-pointer struct: only {} is allowed, because Go clients always send the struct. "+
		"Make the field a pointer to give it a default, or put defaults on the struct's own fields", ex.Source, ex.Raw)
}

// nonZeroDefaultNeedsOmitempty is KEP-1929 "Changes to kubebuilder/default-gen"
// rule 3 and "Non-pointer scalar fields" (the Invalid example): without
// omitempty, Go clients always send the zero value, so a different default
// would never apply to them.
func nonZeroDefaultNeedsOmitempty(f *Field, ex *Explicit) string {
	sh := f.Shape
	if sh.Pointer || f.Tag.Omits(sh.NonPointerStruct()) || sh.Kind != KindScalar || sh.Zero == nil {
		return ""
	}
	if bytes.Equal(canonical(ex.Raw), canonical(sh.Zero)) {
		return ""
	}
	return fmt.Sprintf("%s=%s is not the zero value %s, and without omitempty Go clients always send %s, so the default would never apply to them. "+
		"Add omitempty (or omitzero) to the json tag, or make the field a pointer", ex.Source, ex.Raw, sh.Zero, sh.Zero)
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
