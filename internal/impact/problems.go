package impact

import (
	"errors"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
)

// Problem is one error of the apiserver, in its words.
type Problem struct {
	// Field is the field path ("spec.ports[0].protocol"); empty for an
	// error about the whole request.
	Field string `json:"field,omitempty"`
	// Type is the field error's reason (metav1.CauseType), as in the
	// causes of a 422 response: "FieldValueNotSupported", ...
	Type string `json:"type,omitempty"`
	// Message is what follows the field path in the apiserver's message.
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}

// fromErrorList turns field errors into problems, sorted by field and
// message: the apiserver's validators walk maps in random order.
func fromErrorList(errs field.ErrorList) []Problem {
	var out []Problem
	for _, e := range errs {
		out = append(out, Problem{Field: e.Field, Type: string(e.Type), Message: e.ErrorBody()})
	}
	return sortProblems(out)
}

// fromError turns the error of a request into problems: the causes of a
// 422 Invalid (what rest.BeforeUpdate returns), else the error's text.
func fromError(err error) []Problem {
	if err == nil {
		return nil
	}
	var status *apierrors.StatusError
	if errors.As(err, &status) && status.ErrStatus.Details != nil && len(status.ErrStatus.Details.Causes) > 0 {
		var out []Problem
		for _, c := range status.ErrStatus.Details.Causes {
			out = append(out, Problem{Field: c.Field, Type: string(c.Type), Message: c.Message})
		}
		return sortProblems(out)
	}
	return []Problem{{Message: err.Error()}}
}

// notChecked says whether p is the strategy's "some validation rules were
// not checked" error: a consequence of the others.
func (p Problem) notChecked() bool { return objectpath.NotChecked(p.Message) }

// sortProblems orders problems by field and message, the error that CEL
// rules were not checked last, after the errors that caused it (where the
// strategy puts it). A long list of an enum's values is written once
// (refusal.ValueLists).
func sortProblems(ps []Problem) []Problem {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if a.notChecked() != b.notChecked() {
			if a.notChecked() {
				return 1
			}
			return -1
		}
		if c := strings.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	ps = slices.Compact(ps)
	var lists refusal.ValueLists // an enum's values once per list of problems
	for i := range ps {
		ps[i].Message = lists.Shorten(ps[i].Field, ps[i].Message)
	}
	return ps
}
