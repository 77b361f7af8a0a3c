package conversion

import (
	"context"
	"hash/fnv"
	"math/rand/v2"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/random"
)

// zeroValue says whether v is a scalar's zero value: 0, "", false.
func zeroValue(v any) bool {
	switch v := jsonnum.AsDecoded(v).(type) {
	case int64:
		return v == 0
	case float64:
		return v == 0
	case string:
		return v == ""
	case bool:
		return !v
	}
	return false
}

// nonZeroWitness looks for a better example of a loss whose value sent is
// a zero value (0, "", false) that comes back absent: that reads as an
// omitempty matter even when the field is lost whatever its value (a
// revisionHistoryLimit of 1 lost as well as 0). The loss's witness is
// sent again with the field set to non-zero values of its schema (a few,
// each created at the version, so valid and defaulted), and the first one
// the same round trip loses or changes at that field replaces the loss.
// When none is, the zero value alone is lost, and the loss stays. Only
// fields outside lists and maps are searched.
func nonZeroWitness(ctx context.Context, c Converter, k *Kind, l Loss, enc GoEncoding) (Loss, []Failure, error) {
	if !zeroValue(l.Before) || l.After != absent || l.Witness == nil {
		return l, nil, nil
	}
	at, via := k.Versions[l.Version], k.Versions[l.Via]
	s := schemaAt(at.schema, l.Path)
	if at == nil || via == nil || s == nil {
		return l, nil, nil
	}
	h := fnv.New64a()
	h.Write([]byte(l.Version + " " + l.Via + " " + l.Path.String()))
	f := &random.Filler{Rand: rand.New(rand.NewPCG(h.Sum64(), 0))}
	var fails []Failure
	tried := 0
	for range 20 {
		if tried == 3 {
			break
		}
		v := f.Value(s, len(l.Path))
		if zeroValue(v) {
			continue
		}
		o := runtime.DeepCopyJSON(l.Witness)
		set(o, l.Path, v)
		created, errs := at.Create(ctx, o)
		if len(errs) > 0 || !sameValue(get(created, l.Path), v) {
			continue
		}
		tried++
		there, f1, err := convert(ctx, c, []map[string]any{created}, at, via)
		if err != nil {
			return l, nil, err
		}
		fails = append(fails, f1...)
		if there[0] == nil {
			continue
		}
		back, f2, err := convert(ctx, c, there, via, at)
		if err != nil {
			return l, nil, err
		}
		fails = append(fails, f2...)
		if back[0] == nil {
			continue
		}
		var ds []Diff
		compare(compared(enc(at.Name, created)), compared(enc(at.Name, back[0])), at.schema, nil, &ds)
		for _, d := range ds {
			if d.Path.Field() == l.Path.Field() {
				return Loss{Version: l.Version, Via: l.Via, Diff: d, Witness: created}, fails, nil
			}
		}
	}
	return l, fails, nil
}
