package model

import (
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/golit"
)

// decodable says, in words, why value cannot be the value of a Go field of
// type t, as the defaults generator writes it; "" when it can. It is the
// defaults generator's own code emission (golit.Expr) without the code:
// what it accepts is exactly what the generated defaulter sets, as a
// constant or composite literal the compiler checks, so the defaulter has
// nothing left to fail at run time. Numbers are decided on their exact
// value: an integer within the Go type's range and the apiserver's
// (int64), a float that its Go type holds as the apiserver stores it.
//
// A type with its own encoding that golit does not know takes any value,
// as encoding/json hands it to the type's methods: opaque says where, and
// the rest of the value is checked all the same. The CRD carries such a
// default as the author wrote it, as controller-gen does, and only the
// defaults generator, which cannot write the Go value, leaves the field
// alone (docs/crd.md, "Types with their own encoding").
func (m *Model) decodable(value any, t types.Type, _ *loader.Package) (msg, opaque string) {
	if value == nil {
		return "", "" // null leaves any Go value at its zero value
	}
	c := golit.CheckOpaque(value, t, m.LitEnv(nil, nil))
	return c.Msg, c.Opaque
}

// LitEnv is how golit reads the model's struct types (their JSON fields
// as controller-gen flattens them) and writes values in pkg, with q naming
// the packages of other types there; nil for a check.
func (m *Model) LitEnv(pkg *types.Package, q types.Qualifier) golit.Env {
	return golit.Env{Fields: m.litFields, Pkg: pkg, Qualifier: q}
}

func (m *Model) litFields(n *types.Named) ([]golit.Field, bool) {
	id, ok := m.Lookup(n)
	if !ok {
		return nil, false
	}
	fs := m.Fields(id)
	out := make([]golit.Field, len(fs))
	for i, f := range fs {
		out[i] = golit.Field{Name: f.Tag.Name, Sel: f.Sel, Type: f.Type}
	}
	return out, true
}

// jsonType names the JSON type of a decoded value ("integer" for an
// integral number).
func jsonType(v any) string { return golit.JSONType(v) }

// lookupFold finds a JSON key as encoding/json matches it to a field:
// exactly, else case-insensitively.
func lookupFold(obj map[string]any, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}
