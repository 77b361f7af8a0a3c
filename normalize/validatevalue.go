package normalize

import (
	"context"

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
func validateValue(ctx context.Context, nodePath *field.Path, s *structuralschema.Structural, v any) field.ErrorList {
	pth := nodePath.Child("default")
	if errs := validateOpenAPI(pth, s, v); len(errs) > 0 {
		return errs
	}
	if errs := listSetsAndMaps(nodePath, s, v); len(errs) > 0 {
		return errs
	}
	return validateCEL(ctx, pth, s, v)
}

// validateAlone validates a default the way ValidateCRD does
// (defaulting.ValidateDefaults): OpenAPI value validation
// (NewSchemaValidatorFromOpenAPI + ValidateCustomResource), then CEL.
func validateAlone(ctx context.Context, pth *field.Path, s *structuralschema.Structural, v any) field.ErrorList {
	if errs := validateOpenAPI(pth, s, v); len(errs) > 0 {
		return errs
	}
	return validateCEL(ctx, pth, s, v)
}

func validateOpenAPI(pth *field.Path, s *structuralschema.Structural, v any) field.ErrorList {
	validator := apiservervalidation.NewSchemaValidatorFromOpenAPI(s.ToKubeOpenAPI())
	return apiservervalidation.ValidateCustomResource(pth, v, validator)
}

// validateCEL runs the x-kubernetes-validations rules of s and below on v,
// as on create (no old object), with celconfig.RuntimeCELCostBudget. An
// embedded resource is a resource root, as in defaulting.ValidateDefaults.
func validateCEL(ctx context.Context, pth *field.Path, s *structuralschema.Structural, v any) field.ErrorList {
	celValidator := cel.NewValidator(s, s.XEmbeddedResource, celconfig.PerCallLimit)
	if celValidator == nil {
		return nil
	}
	errs, _ := celValidator.Validate(ctx, pth, s, v, nil, celconfig.RuntimeCELCostBudget)
	return errs
}

// listSetsAndMaps runs listtype.ValidateListSetsAndMaps on v, the default
// of the node at nodePath, whatever its type: that function takes an object
// and checks its properties, so v is wrapped as the property "default" of
// an object at nodePath, and the error paths read nodePath.default….
func listSetsAndMaps(nodePath *field.Path, s *structuralschema.Structural, v any) field.ErrorList {
	wrapper := &structuralschema.Structural{Properties: map[string]structuralschema.Structural{"default": *s}}
	return listtype.ValidateListSetsAndMaps(nodePath, wrapper, map[string]any{"default": v})
}
