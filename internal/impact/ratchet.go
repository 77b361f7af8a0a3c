package impact

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// Ratcheted is a value of the object read under NEW that NEW's validation
// refuses, but that an update keeps because it does not change it
// (validation ratcheting): it is held in place only by ratcheting, and the
// first update that changes it must make it valid.
type Ratcheted struct {
	// Problem is the error a write of the value as it is gets.
	Problem Problem `json:"problem"`
	// Touch is an update that changes this one value (nil when no single
	// value can be changed: the error is about a missing field or a whole
	// object).
	Touch *Touch `json:"touch,omitempty"`
}

// Touch is an update of the object as read that changes one value, to
// another value that NEW also refuses at the same path.
type Touch struct {
	// Path is the path of the value, Value the value sent.
	Path  string `json:"path"`
	Value any    `json:"value"`
	// Subresource is "status" when the value is written through the status
	// subresource, which a PUT of the object ignores.
	Subresource string `json:"subresource,omitempty"`
	// Problems are the errors of the update; none if it is accepted.
	Problems []Problem `json:"problems,omitempty"`
}

// heldByRatcheting finds the values of obj (as read at p's version) that
// are held only by ratcheting: the errors of writing obj as if every value
// were new (asNew, asIfNew's) that the no-op update (noop) does not get.
// Each is then touched: changed to a value still refused at its path, and
// sent. The error that says CEL rules were skipped (notChecked) is no
// value of its own: it follows the value that blocked them, and shows in
// the touch's refusal.
func heldByRatcheting(ctx context.Context, p *objectpath.Pipeline, b *body, noop, asNew []Problem) []Ratcheted {
	obj := b.obj
	var out []Ratcheted
	for _, e := range asNew {
		if containsProblem(noop, e) || e.notChecked() {
			continue
		}
		out = append(out, Ratcheted{Problem: e, Touch: touch(ctx, p, obj, e)})
	}
	return out
}

// asIfNew are the errors of obj were its values all written now: the main
// write and, with the status subresource and a status, the status write.
func asIfNew(ctx context.Context, p *objectpath.Pipeline, b *body) []Problem {
	return joinAsNew(mainAsNew(ctx, p, b), true, statusAsNew(ctx, p, b))
}

// joinAsNew is asIfNew's errors from those of its two writes: the status
// write's, s, count when the object has one (withStatus).
func joinAsNew(main []Problem, withStatus bool, s []Problem) []Problem {
	if !withStatus {
		return main
	}
	return sortProblems(append(main, s...))
}

// mainAsNew is asIfNew's main write: an update from an object that has
// only obj's apiVersion, kind and metadata (no value is unchanged, so
// nothing ratchets), and, with the status subresource, obj's status (a PUT
// of the object does not write status).
func mainAsNew(ctx context.Context, p *objectpath.Pipeline, b *body) []Problem {
	obj := b.obj
	main, status := p.Strategies()
	mainOld := skeleton(obj)
	if status != nil && hasStatus(obj) {
		mainOld["status"] = obj["status"]
	}
	_, problems := put(ctx, p, main, mainOld, b)
	return problems
}

// statusAsNew is asIfNew's status write: with the status subresource and
// a status, an update of the status from an object without one; nil
// otherwise.
func statusAsNew(ctx context.Context, p *objectpath.Pipeline, b *body) []Problem {
	_, status := p.Strategies()
	if status == nil || !hasStatus(b.obj) {
		return nil
	}
	_, problems := put(ctx, p, status, withoutStatus(b.obj), b)
	return problems
}

// skeleton is obj's apiVersion, kind and metadata.
func skeleton(obj map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if v, ok := obj[k]; ok {
			out[k] = runtime.DeepCopyJSONValue(v)
		}
	}
	return out
}

func withoutStatus(obj map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	delete(out, "status")
	return out
}

// containsProblem says whether ps has an error of e's field and type.
func containsProblem(ps []Problem, e Problem) bool {
	for _, p := range ps {
		if p.Field == e.Field && p.Type == e.Type {
			return true
		}
	}
	return false
}

// touch changes the value e is about to the first of its variants that is
// still refused at e's path (and with e's type of error), and sends the
// update: through the status subresource for a value under status when
// the version has it. It returns nil when the path names no existing
// scalar or list, or no variant is still refused.
func touch(ctx context.Context, p *objectpath.Pipeline, obj map[string]any, e Problem) *Touch {
	at, ok := resolveFieldPath(obj, e.Field)
	if !ok {
		return nil
	}
	value, _ := get(obj, at)
	main, status := p.Strategies()
	strategy, subresource := main, ""
	if status != nil && at[0] == "status" {
		strategy, subresource = status, "status"
	}
	for _, v := range variants(value) {
		changed := runtime.DeepCopyJSON(obj)
		set(changed, at, v)
		b := newBody(p, changed)
		if !containsProblem(asIfNew(ctx, p, b), e) {
			continue
		}
		_, problems := put(ctx, p, strategy, obj, b)
		return &Touch{Path: at.String(), Value: v, Subresource: subresource, Problems: problems}
	}
	return nil
}

// variants are the values a value is changed to, the smallest changes
// first: a string gets "x" appended, or loses its last character; a
// number moves by one either way; a boolean flips; a list gets its last
// item repeated, or loses it. Objects have none.
func variants(v any) []any {
	switch v := v.(type) {
	case string:
		out := []any{v + "x"}
		if r := []rune(v); len(r) > 0 {
			out = append(out, string(r[:len(r)-1]))
		}
		return out
	case int64:
		return []any{v - 1, v + 1}
	case float64:
		return []any{v - 1, v + 1}
	case bool:
		return []any{!v}
	case []any:
		var out []any
		if len(v) > 0 {
			out = append(out, append(runtime.DeepCopyJSONValue(v).([]any), runtime.DeepCopyJSONValue(v[len(v)-1])))
			out = append(out, runtime.DeepCopyJSONValue(v[:len(v)-1]))
		}
		return out
	}
	return nil
}
