package crdgen

import (
	"fmt"
	"math"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/markers"
)

// parseMarker evaluates a +default marker and reports a bad value at the
// field or type that carries it.
func (d *defaulter) parseMarker(m markers.Default, pkg *loader.Package, at diagPos, goPath string, l loc) (explicit, bool) {
	raw, v, err := m.Evaluate(pkg)
	if err != nil {
		rule := ruleInvalidJSON
		if ve, ok := err.(*markers.ValueError); ok && ve.Kind == markers.ErrUnresolvedRef {
			rule = ruleUnresolvedRef
		}
		d.diags.add(diag{sev: sevError, at: at, goPath: goPath, jpath: l.jpath, rule: rule, own: d.own.is(pkg), msg: err.Error()})
		return explicit{}, false
	}
	return explicit{raw: raw, value: v, at: at}, true
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
