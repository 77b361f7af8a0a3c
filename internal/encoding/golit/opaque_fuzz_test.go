package golit

import (
	"go/types"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// FuzzCheckOpaque: CheckOpaque against Expr on the same value and type.
// CheckOpaque refuses (Msg) only what Expr refuses too; it accepts whole
// (no Msg, no Opaque) exactly what Expr writes; and where it accepts a
// value that goes into a type with its own encoding (Opaque), Expr's
// refusal is the own-encoding one (IsOwnEncoding).
func FuzzCheckOpaque(f *testing.F) {
	pkg := typesOf(f, apiSrc+`
type Both struct {
	C *Custom `+"`json:\"c,omitempty\"`"+`
	N int8 `+"`json:\"n\"`"+`
	ByCustom map[Custom]int8 `+"`json:\"byCustom\"`"+`
	List []Custom `+"`json:\"list\"`"+`
}
`)
	names := []string{"Both", "HasCustom", "Keyed", "Custom", "Outer", "Inner", "Mode"}
	for _, s := range []string{`{"c": "0s", "n": 1}`, `{"c": 1, "n": 300}`, `{"byCustom": {"k": 1}}`, `{"list": ["a", 1, null]}`,
		`"720h"`, `{"c": {"x": [1]}}`, `{"port": 80}`, `null`, `[1, 2]`, `{"nope": 1}`} {
		for i := range names {
			f.Add([]byte(s), uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		v, err := jsonnum.Decode(data)
		if err != nil {
			return
		}
		typ := pkg.Scope().Lookup(names[int(which)%len(names)]).Type()
		for _, tt := range []types.Type{typ, types.NewPointer(typ)} {
			got := CheckOpaque(v, tt, Env{})
			_, exprErr := Expr(v, tt, Env{})
			switch {
			case got.Msg != "" && exprErr == nil:
				t.Fatalf("CheckOpaque(%s, %s) refuses (%s), Expr writes it", data, tt, got.Msg)
			case got.Msg == "" && got.Opaque == "" && exprErr != nil:
				t.Fatalf("CheckOpaque(%s, %s) accepts it whole, Expr refuses it: %v", data, tt, exprErr)
			case got.Opaque != "" && !IsOwnEncoding(exprErr):
				t.Fatalf("CheckOpaque(%s, %s) = opaque %q, Expr's error %v", data, tt, got.Opaque, exprErr)
			}
		}
	})
}
