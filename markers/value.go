package markers

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// ErrKind tells a marker value that is not JSON from a ref() that does not
// resolve, for the rule name of the diagnostic.
type ErrKind int

const (
	ErrInvalidJSON ErrKind = iota
	ErrUnresolvedRef
)

// ValueError is why a +default value cannot be evaluated.
type ValueError struct {
	Kind ErrKind
	Msg  string
}

func (e *ValueError) Error() string { return e.Msg }

// Evaluate returns the marker's value as JSON, encoded as controller-gen
// encodes `+default` (decoded and re-encoded), and decoded. A ref() is
// evaluated with the type checker in pkg, the package the marker is in.
func (d Default) Evaluate(pkg *loader.Package) (raw []byte, value any, err error) {
	if name, ok := d.Ref(); ok {
		value, err = resolveRef(name, pkg)
		if err != nil {
			return nil, nil, &ValueError{ErrUnresolvedRef, fmt.Sprintf("+default=%s: %v", string(d), err)}
		}
	} else if err := json.Unmarshal([]byte(d), &value); err != nil {
		return nil, nil, &ValueError{ErrInvalidJSON, fmt.Sprintf("+default=%s is not valid JSON (%v). The value is one-line JSON: "+
			"strings need double quotes, e.g. +default=\"TCP\"; or use ref(Name) for a Go constant", string(d), err)}
	}
	raw, err = json.Marshal(value)
	if err != nil {
		return nil, nil, &ValueError{ErrInvalidJSON, err.Error()}
	}
	return raw, value, nil
}

// resolveRef evaluates ref(Name) or ref(import/path.Name): Name must be a
// constant of the marker's package, or of a package it imports.
func resolveRef(ref string, pkg *loader.Package) (any, error) {
	scopePkg, name := pkg, ref
	if i := strings.LastIndex(ref, "."); i > 0 {
		path := ref[:i]
		name = ref[i+1:]
		if path != pkg.PkgPath {
			scopePkg = pkg.Imports()[path]
			if scopePkg == nil {
				return nil, fmt.Errorf("package %q is not imported by %s; import it or use a constant of this package", path, pkg.PkgPath)
			}
		}
	}
	scopePkg.NeedTypesInfo()
	if scopePkg.Types == nil {
		return nil, fmt.Errorf("package %s could not be type-checked", scopePkg.PkgPath)
	}
	obj := scopePkg.Types.Scope().Lookup(name)
	if obj == nil {
		return nil, fmt.Errorf("no constant %s in package %s", name, scopePkg.PkgPath)
	}
	c, ok := obj.(*types.Const)
	if !ok {
		return nil, fmt.Errorf("%s in package %s is a %T, not a constant", name, scopePkg.PkgPath, obj)
	}
	return constValue(c.Val())
}

// constValue is the JSON value of a Go constant, as encoding/json decodes it.
func constValue(v constant.Value) (any, error) {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), nil
	case constant.Bool:
		return constant.BoolVal(v), nil
	case constant.Int:
		if i, ok := constant.Int64Val(v); ok {
			return float64(i), nil
		}
	case constant.Float:
		if f, ok := constant.Float64Val(v); ok {
			return f, nil
		}
	}
	return nil, fmt.Errorf("constant %s cannot be a JSON default", v)
}
