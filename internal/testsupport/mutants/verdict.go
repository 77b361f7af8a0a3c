package mutants

import (
	"context"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// RootField stands for the object's root in field paths (field.Path
// writes it <nil>): CEL's "some validation rules were not checked because
// the object was invalid" is there.
const RootField = "(root)"

// Answer is the apiserver's answer to a create.
type Answer struct {
	Accepted bool
	// Fields are the paths of the field errors, sorted, each once; a
	// refusal without field errors is one pseudo-field, (request: reason).
	Fields []string
	Errs   []string
	// Required are the fields refused with Required value
	Required []string
}

func (a Answer) String() string {
	if a.Accepted {
		return "accepted"
	}
	return "refused: " + strings.Join(a.Errs, "; ")
}

// Create sends obj as kubectl create sends it (KubectlRequest: namespace
// default) through p's create path; dups are the fields the body gives
// twice (Request.DuplicateFields).
func Create(ctx context.Context, p *objectpath.Pipeline, obj map[string]any, dups []string) Answer {
	sent, req, err := p.KubectlRequest(obj, "default", false)
	if err != nil {
		return Answer{Fields: []string{"(kubectl: " + err.Error() + ")"}, Errs: []string{err.Error()}}
	}
	req.DuplicateFields = dups
	res := p.Create(ctx, sent, req)
	if len(res.Errors) == 0 && res.Refused == nil {
		return Answer{Accepted: true}
	}
	var a Answer
	for _, e := range res.Errors {
		f := e.Field
		if f == "<nil>" {
			f = RootField
		}
		a.Fields = append(a.Fields, f)
		a.Errs = append(a.Errs, e.Error())
		if e.Type == field.ErrorTypeRequired {
			a.Required = append(a.Required, f)
		}
	}
	if len(res.Errors) == 0 {
		a.Fields = []string{"(request: " + string(res.Refused.ErrStatus.Reason) + ")"}
		a.Errs = []string{res.Refused.Error()}
	}
	slices.Sort(a.Fields)
	a.Fields = slices.Compact(a.Fields)
	return a
}

// The ways two answers differ (Diff.How). The reference CRD is
// controller-gen's, or controller-gen-default's with
// crd:implicitDefaults=false, which is byte for byte the same.
const (
	RefRefusesOursAccepts = "refused by controller-gen, accepted by ours"
	RefAcceptsOursRefuses = "accepted by controller-gen, refused by ours"
	OtherFields           = "refused by both at other fields"
)

// Diff is how the answers of the reference CRD and ours to one object
// differ.
type Diff struct {
	How string
	// Fields are where the answers differ: the fields refused by one and
	// not the other; for an acceptance, every field the other refuses.
	Fields    []string
	Ref, Ours Answer
	// SilencedRequired counts the fields the reference CRD refuses with
	// Required value and ours does not refuse; OursOnly the fields only
	// ours refuses
	SilencedRequired, OursOnly int
}

// Compare says whether ref and ours are the same verdict: both accepted,
// or both refused at the same fields; and if not, how they differ.
func Compare(ref, ours Answer) (Diff, bool) {
	if ref.Accepted == ours.Accepted && slices.Equal(ref.Fields, ours.Fields) {
		return Diff{}, true
	}
	d := Diff{Ref: ref, Ours: ours}
	switch {
	case !ref.Accepted && ours.Accepted:
		d.How = RefRefusesOursAccepts
	case ref.Accepted && !ours.Accepted:
		d.How = RefAcceptsOursRefuses
	default:
		d.How = OtherFields
	}
	for _, f := range ref.Fields {
		if !slices.Contains(ours.Fields, f) {
			d.Fields = append(d.Fields, f)
			if slices.Contains(ref.Required, f) {
				d.SilencedRequired++
			}
		}
	}
	for _, f := range ours.Fields {
		if !slices.Contains(ref.Fields, f) {
			d.Fields = append(d.Fields, f)
			if f != RootField {
				d.OursOnly++
			}
		}
	}
	return d, false
}

// Site is the field a difference is counted at: the first where the
// answers differ, other than the root's "some validation rules were not
// checked", which follows from the others.
func (d Diff) Site() string {
	for _, f := range d.Fields {
		if f != RootField {
			return f
		}
	}
	return RootField
}
