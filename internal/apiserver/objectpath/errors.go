package objectpath

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// notCheckedDetail is the error the custom-resource strategy adds when
// schema errors keep it from evaluating the CEL rules (hasBlockingErr in
// registry/customresource/strategy.go), at no field.
const notCheckedDetail = "some validation rules were not checked because the object was invalid"

// NotChecked says whether msg, an error's detail or whole message, is the
// strategy's "some validation rules were not checked" error: a
// consequence of the errors before it, never a finding of its own.
func NotChecked(msg string) bool { return strings.Contains(msg, notCheckedDetail) }

// SortErrors orders errors by field path, then message, so that output is
// stable: the apiserver's validators walk maps in random order. The
// NotChecked error stays after the schema errors that blocked the rules,
// where the strategy puts it.
func SortErrors(errs field.ErrorList) field.ErrorList {
	out := slices.Clone(errs)
	slices.SortStableFunc(out, func(a, b *field.Error) int {
		if na, nb := NotChecked(a.Detail), NotChecked(b.Detail); na != nb {
			if na {
				return 1
			}
			return -1
		}
		if c := strings.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		return strings.Compare(a.Error(), b.Error())
	})
	return out
}
