package markers

import (
	"errors"
	"fmt"
	"go/constant"
	"go/types"
	"math/big"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/quote"
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

// Number is a JSON number of a marker's value, exactly as written. It
// encodes as the apiserver stores it: an integer that fits in an int64 in
// decimal, any other number as the nearest float64.
type Number = jsonnum.Number

// Evaluate returns the marker's value decoded, with its numbers exact
// (Number, never a float64), and encoded as the apiserver stores it:
// controller-gen's encoding (decoded and re-encoded, keys sorted), except
// that an integer keeps every digit (9223372036854775807, not
// 9223372036854776000), and zero is 0. A number beyond the largest float64
// is refused: the apiserver cannot read it. A ref() is evaluated with the
// type checker in pkg, the package the marker is in.
func (d Default) Evaluate(pkg *loader.Package) (raw []byte, value any, err error) {
	if name, ok := d.Ref(); ok {
		value, err = resolveRef(name, pkg)
		if err != nil {
			return nil, nil, &ValueError{ErrUnresolvedRef, fmt.Sprintf("+default=%s: %v", quote.Excerpt(string(d)), err)}
		}
	} else if value, err = jsonnum.Decode([]byte(d)); err != nil {
		if re, ok := errors.AsType[*jsonnum.RangeError](err); ok {
			return nil, nil, &ValueError{ErrInvalidJSON, fmt.Sprintf("+default=%s: %v", quote.Excerpt(string(d)), re)}
		}
		return nil, nil, &ValueError{ErrInvalidJSON, fmt.Sprintf("+default=%s is not valid JSON (%v). The value is one-line JSON: "+
			"strings need double quotes, e.g. +default=\"TCP\"; or use ref(Name) for a Go constant", quote.Excerpt(string(d)), err)}
	}
	if _, isRef := d.Ref(); !isRef {
		if at, key, dup := jsonnum.DuplicateKey([]byte(d)); dup {
			return nil, nil, &ValueError{ErrInvalidJSON, fmt.Sprintf("+default=%s: the object at %q holds the key %q twice; "+
				"JSON decoders keep the last value silently: write each key once", quote.Excerpt(string(d)), "$"+at, key)}
		}
	}
	raw, err = jsonnum.Marshal(value)
	if err != nil {
		return nil, nil, &ValueError{ErrInvalidJSON, fmt.Sprintf("+default=%s: %v", quote.Excerpt(string(d)), err)}
	}
	return raw, value, nil
}

// resolveRef evaluates ref(Name) or ref(import/path.Name): Name must be a
// constant of the marker's package, or of a package it imports.
func resolveRef(ref string, pkg *loader.Package) (any, error) {
	path, name := pkg.PkgPath, ref
	if i := strings.LastIndex(ref, "."); i > 0 {
		path, name = ref[:i], ref[i+1:]
	}
	if name == "" {
		return nil, fmt.Errorf("ref() names no constant: write ref(Name) for a constant of this package, or ref(import/path.Name) for one of a package it imports")
	}
	scope, err := refScope(pkg, path)
	if err != nil {
		return nil, err
	}
	obj := scope.Scope().Lookup(name)
	if obj == nil {
		return nil, fmt.Errorf("no constant %s in package %s", name, path)
	}
	c, ok := obj.(*types.Const)
	if !ok {
		return nil, fmt.Errorf("%s in package %s is %s, not a constant; ref() takes a constant", name, path, objectKind(obj))
	}
	return constValue(c.Val())
}

// refScope is the type-checked package path, pkg itself or a package it
// imports. An import is taken from pkg's type checker when it has loaded
// it in full (always, for a package a go/analysis driver checked, which
// has no loader to ask: model.LintPackage), else from pkg's loader.
func refScope(pkg *loader.Package, path string) (*types.Package, error) {
	notImported := fmt.Errorf("package %q is not imported by %s; import it or use a constant of this package", path, pkg.PkgPath)
	scopePkg := pkg
	if path != pkg.PkgPath {
		if pkg.Types != nil && pkg.TypesInfo != nil {
			found := false
			for _, imp := range pkg.Types.Imports() {
				if loader.NonVendorPath(imp.Path()) == path {
					if imp.Complete() {
						return imp, nil
					}
					found = true
				}
			}
			if !found {
				return nil, notImported
			}
		}
		if scopePkg = pkg.Imports()[path]; scopePkg == nil {
			return nil, notImported
		}
	}
	scopePkg.NeedTypesInfo()
	if scopePkg.Types == nil {
		return nil, fmt.Errorf("package %s could not be type-checked", scopePkg.PkgPath)
	}
	return scopePkg.Types, nil
}

// objectKind is what a Go object that is not a constant is, in words:
// "a variable", "a function", "a type"; ref() names constants only, the
// values the type checker knows when the package compiles. (A package's
// scope holds no other kind of object: imports and builtins are in the
// file and universe scopes.)
func objectKind(obj types.Object) string {
	switch obj.(type) {
	case *types.Var:
		return "a variable"
	case *types.Func:
		return "a function"
	case *types.TypeName:
		return "a type"
	}
	return "not a constant"
}

// constValue is the JSON value of a Go constant, its numbers exact: an
// integer in decimal, every digit kept (1<<63 - 1 is 9223372036854775807);
// a float as the exact decimal of its value when it has one, else with
// maxFloatDigits significant digits, which no Go float type can tell from
// the exact value.
func constValue(v constant.Value) (any, error) {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), nil
	case constant.Bool:
		return constant.BoolVal(v), nil
	case constant.Int:
		return checkedNumber(v, v.ExactString())
	case constant.Float:
		if s, ok := floatLiteral(v); ok {
			return checkedNumber(v, s)
		}
	}
	return nil, fmt.Errorf("constant %s cannot be a JSON default", v)
}

// maxFloatDigits are the significant digits written for a float constant
// that has no exact decimal (1.0/3): far more than the 17 that tell two
// float64 values apart.
const maxFloatDigits = 40

// checkedNumber is lit as a Number, refused when no float64 holds its
// magnitude: the apiserver cannot read it.
func checkedNumber(v constant.Value, lit string) (any, error) {
	if _, err := jsonnum.Canonical(lit); err != nil {
		return nil, fmt.Errorf("constant %s cannot be a JSON default: %w", v, err)
	}
	return Number(lit), nil
}

// floatLiteral writes a float constant as a JSON number: its exact decimal
// when it has one of reasonable length (a fraction whose denominator is
// 2^a·5^b, as every constant written as a decimal literal), else rounded
// to maxFloatDigits significant digits.
func floatLiteral(v constant.Value) (string, bool) {
	var r big.Rat
	switch x := constant.Val(v).(type) {
	case *big.Rat:
		r.Set(x)
	case *big.Float:
		if x.IsInf() {
			return "", false
		}
		if exp := x.MantExp(nil); exp > 4000 || exp < -4000 {
			return x.Text('g', maxFloatDigits), true
		}
		x.Rat(&r)
	case int64:
		return strconv.FormatInt(x, 10), true
	case *big.Int:
		return x.String(), true
	default:
		return "", false
	}
	if r.IsInt() {
		return jsonnum.Compact(r.Num().String()), true
	}
	// a/b has a finite decimal iff b = 2^p·5^q; it then has max(p, q) decimals
	den := new(big.Int).Set(r.Denom())
	p, q := 0, 0
	var rem big.Int
	for _, f := range []struct {
		n *big.Int
		c *int
	}{{big.NewInt(2), &p}, {big.NewInt(5), &q}} {
		for *f.c <= 4000 {
			var quo big.Int
			quo.QuoRem(den, f.n, &rem)
			if rem.Sign() != 0 {
				break
			}
			den.Set(&quo)
			*f.c++
		}
	}
	if !den.IsInt64() || den.Int64() != 1 {
		return new(big.Float).SetPrec(512).SetRat(&r).Text('g', maxFloatDigits), true
	}
	s := r.FloatString(max(p, q))
	return jsonnum.Compact(strings.TrimRight(strings.TrimRight(s, "0"), ".")), true
}
