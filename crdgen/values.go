package crdgen

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/types"
	"math"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/markers"
)

// parseMarker turns a +default marker into JSON: the one-line JSON value
// as controller-gen encodes it, or the value of the constant a ref() names.
func (d *defaulter) parseMarker(m markers.Default, pkg *loader.Package, at diagPos, goPath string, l loc) (explicit, bool) {
	own := d.own.is(pkg)
	var v any
	if name, ok := m.Ref(); ok {
		val, err := resolveRef(name, pkg)
		if err != nil {
			d.diags.add(diag{sev: sevError, at: at, goPath: goPath, jpath: l.jpath, rule: ruleUnresolvedRef, own: own,
				msg: fmt.Sprintf("+default=%s: %v", string(m), err)})
			return explicit{}, false
		}
		v = val
	} else if err := json.Unmarshal([]byte(string(m)), &v); err != nil {
		d.diags.add(diag{sev: sevError, at: at, goPath: goPath, jpath: l.jpath, rule: ruleInvalidJSON, own: own,
			msg: fmt.Sprintf("+default=%s is not valid JSON (%v). The value is one-line JSON: strings need double quotes, e.g. +default=\"TCP\"; "+
				"or use ref(Name) for a Go constant", string(m), err)})
		return explicit{}, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		d.diags.add(diag{sev: sevError, at: at, goPath: goPath, jpath: l.jpath, rule: ruleInvalidJSON, own: own, msg: err.Error()})
		return explicit{}, false
	}
	return explicit{raw: raw, value: v, at: at}, true
}

// resolveRef evaluates ref(Name) or ref(import/path.Name) with the type
// checker: Name must be a constant of the marker's package, or of a package
// it imports.
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

// fitsSchema says, in words, why value does not have the JSON type of s;
// "" when it does.
func fitsSchema(value any, s *apiextensionsv1.JSONSchemaProps) string {
	if value == nil {
		return "default null is ignored by the apiserver; remove it, or omit the marker"
	}
	got := jsonType(value)
	if s.XIntOrString {
		if got == "string" || got == "integer" {
			return ""
		}
		return fmt.Sprintf("the field is an int-or-string, the default is a JSON %s", got)
	}
	switch {
	case s.Type == "", s.Type == got:
		return ""
	case s.Type == "number" && got == "integer":
		return ""
	}
	return fmt.Sprintf("the field's schema type is %s, the default is a JSON %s", s.Type, got)
}

func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if v == math.Trunc(v) && !math.IsInf(v, 0) {
			return "integer"
		}
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

func posOf(f goField) diagPos { return diagPos(f.pos()) }
