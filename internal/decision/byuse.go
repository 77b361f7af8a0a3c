package decision

import (
	"fmt"
	"go/types"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// byUse is, for one omitzero struct field, the first of its properties
// that got a default and the first that got none, each with the CRD
// version it is in.
type byUse struct {
	with, without     *Decision
	withAt, withoutAt string
	reported          bool
}

// InVersion says which CRD version the next decisions are taken in, for
// the messages that name another place of the same field.
func (m *Model) InVersion(crd, version string) { m.place = crd + "/" + version }

// noteUse is the rule that a Go type has one defaulter: the generated
// SetObjectDefaults_ code defaults a type's fields the same way wherever
// the type is used, while the apiserver follows the default of each
// property. They agree on every field a Go client always sends. An
// omitzero struct field is sent only when it is not zero, and the Go
// defaulter then defaults inside it only if the CRD defaults it to `{}`
// (KEP-1929 rule 1, kubernetes/enhancements
// keps/sig-api-machinery/1929-built-in-default); where the implicit
// default is kept off at some uses only (the enclosing object counts its
// properties there: +k8s:required or +kubebuilder:validation:MinProperties
// on the field that uses the type, +implicitDefaults=false above it), no
// one Go defaulter agrees with every CRD. That is reported once per field,
// at the second kind of use found, with both places.
func (m *Model) noteUse(d *Decision) {
	f := d.Field
	if f == nil || !f.Tag.OmitZero || f.Shape.Kind != model.KindStruct || f.Shape.Pointer {
		return
	}
	u := m.byUse[f]
	if u == nil {
		u = &byUse{}
		m.byUse[f] = u
	}
	switch {
	case d.Default != nil && u.with == nil:
		u.with, u.withAt = d, m.place
	case d.Default == nil && u.without == nil:
		u.without, u.withoutAt = d, m.place
	default:
		return
	}
	if u.with == nil || u.without == nil || u.reported {
		return
	}
	u.reported = true
	d.add(model.Warning, model.RuleDefaultDiffersByUse, fmt.Sprintf(
		"%s gets default %s at %s of %s but none at %s of %s (%s); encoding/json leaves the zero struct out (omitzero), "+
			"and the Go defaulter, one per type, defaults inside it as where it has the default. "+
			"To give every use one answer, give the field +default={} or make it a pointer (*%s)",
		f.Tag.Name, u.with.Default, u.with.JPath, u.withAt, u.without.JPath, u.withoutAt, u.without.Why, types.TypeString(f.Type, types.RelativeTo(f.Pkg.Types))), m)
}
