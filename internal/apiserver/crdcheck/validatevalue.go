package crdcheck

import (
	"context"
	"sync"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// validateValue validates v, a value stored for the default of the node
// at nodePath, whose schema is s, as the apiserver validates it on create
// (error paths read nodePath.default…): validateAlone, then the list-set and
// list-map invariants (listtype.ValidateListSetsAndMaps, which
// customResourceStrategy.Validate runs), then CEL with the runtime cost
// budget and no old object. The first failing step wins.
func (n node) validateValue(ctx context.Context, nodePath *field.Path, v any) field.ErrorList {
	pth := nodePath.Child("default")
	if errs := n.validateOpenAPI(pth, v); len(errs) > 0 {
		return errs
	}
	if errs := listSetsAndMaps(nodePath, n.s, v); len(errs) > 0 {
		return errs
	}
	return n.validateCEL(ctx, pth, v)
}

// validateAlone validates a default the way ValidateCRD does
// (defaulting.ValidateDefaults): OpenAPI value validation
// (NewSchemaValidatorFromOpenAPI + ValidateCustomResource), then CEL.
func (n node) validateAlone(ctx context.Context, pth *field.Path, v any) field.ErrorList {
	if errs := n.validateOpenAPI(pth, v); len(errs) > 0 {
		return errs
	}
	return n.validateCEL(ctx, pth, v)
}

func (n node) validateOpenAPI(pth *field.Path, v any) field.ErrorList {
	return apiservervalidation.ValidateCustomResource(pth, v, apiservervalidation.NewSchemaValidatorFromOpenAPI(n.s.ToKubeOpenAPI()))
}

// validateCEL runs the x-kubernetes-validations rules of the node and below
// on v, as on create (no old object), with celconfig.RuntimeCELCostBudget.
// An embedded resource is a resource root, as in defaulting.ValidateDefaults.
func (n node) validateCEL(ctx context.Context, pth *field.Path, v any) field.ErrorList {
	if !hasRules(n.s) {
		return nil // nothing to run, and nothing to compile
	}
	v8r := n.cel.get()
	if v8r == nil {
		return nil
	}
	errs, _ := v8r.Validate(ctx, pth, n.s, v, nil, celconfig.RuntimeCELCostBudget)
	return errs
}

// hasRules reports whether s or a schema below it has
// x-kubernetes-validations, as cel.NewValidator decides whether there is
// anything to compile. Checking first keeps a default in a subtree without
// rules (most of them: k8s.io/api has none) from compiling every rule of
// the version.
func hasRules(s *structuralschema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && hasRules(s.AdditionalProperties.Structural) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(&p) {
			return true
		}
	}
	return false
}

// node is a place in a version's schema with what validates values there:
// the structural schema and its compiled CEL rules, shared by the walk
// (cel.NewValidator compiles every rule below it, so building one per
// default would compile the same rules again and again). The kube-openapi
// form of the schema is built only for the defaults that are validated.
type node struct {
	s *structuralschema.Structural
	// cel is compiled on first use: most versions need it for no default.
	cel *lazyCEL
}

type lazyCEL struct {
	once sync.Once
	root *structuralschema.Structural
	v    *cel.Validator
	path []func(*cel.Validator) *cel.Validator // from the root validator to this node's
	up   *lazyCEL
}

// get returns the node's validator, compiling the version's rules once.
func (l *lazyCEL) get() *cel.Validator {
	l.once.Do(func() {
		if l.up == nil {
			l.v = cel.NewValidator(l.root, true, celconfig.PerCallLimit)
			return
		}
		if parent := l.up.get(); parent != nil {
			l.v = l.path[0](parent)
		}
	})
	return l.v
}

func (l *lazyCEL) child(step func(*cel.Validator) *cel.Validator) *lazyCEL {
	return &lazyCEL{up: l, path: []func(*cel.Validator) *cel.Validator{step}}
}

func newNode(s *structuralschema.Structural) node {
	return node{s: s, cel: &lazyCEL{root: s}}
}

func (n node) property(k string) node {
	p := n.s.Properties[k]
	c := node{s: &p}
	c.cel = n.cel.child(func(v *cel.Validator) *cel.Validator {
		if p, ok := v.Properties[k]; ok {
			return &p
		}
		return nil
	})
	return c
}

func (n node) items() node {
	c := node{s: n.s.Items}
	c.cel = n.cel.child(func(v *cel.Validator) *cel.Validator { return v.Items })
	return c
}

func (n node) additionalProperties() node {
	c := node{s: n.s.AdditionalProperties.Structural}
	c.cel = n.cel.child(func(v *cel.Validator) *cel.Validator { return v.AdditionalProperties })
	return c
}

// listSetsAndMaps runs listtype.ValidateListSetsAndMaps on v, the default
// of the node at nodePath, whatever its type: that function takes an object
// and checks its properties, so v is wrapped as the property "default" of
// an object at nodePath, and the error paths read nodePath.default….
func listSetsAndMaps(nodePath *field.Path, s *structuralschema.Structural, v any) field.ErrorList {
	wrapper := &structuralschema.Structural{Properties: map[string]structuralschema.Structural{"default": *s}}
	return listtype.ValidateListSetsAndMaps(nodePath, wrapper, map[string]any{"default": v})
}
