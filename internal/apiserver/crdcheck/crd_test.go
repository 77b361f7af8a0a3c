package crdcheck

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/api/equality"
)

// TestPrepareForCreateIsTheStrategys checks ToInternal and ValidateCRD
// against the apiserver's own CRD registry strategy, which the command does
// not link (see prepareForCreate): for every golden CRD, and for variants
// that carry a status, a conversion webhook and an invalid schema, the
// prepared CRD and the validation errors must be the strategy's, and the
// input must not change.
func TestPrepareForCreateIsTheStrategys(t *testing.T) {
	crds, err := LoadCRDs("../../../testdata/golden")
	if err != nil || len(crds) == 0 {
		t.Fatalf("LoadCRDs: %d CRDs, %v", len(crds), err)
	}
	withStatus := crds[0].DeepCopy()
	withStatus.Status.StoredVersions = []string{"v0"}
	withStatus.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue}}
	withWebhook := crds[0].DeepCopy()
	withWebhook.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{
		Strategy: apiextensionsv1.WebhookConverter,
		Webhook: &apiextensionsv1.WebhookConversion{
			ConversionReviewVersions: []string{"v1"},
			ClientConfig:             &apiextensionsv1.WebhookClientConfig{Service: &apiextensionsv1.ServiceReference{Namespace: "system", Name: "webhook"}},
		},
	}
	invalid := crds[0].DeepCopy()
	invalid.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = apiextensionsv1.JSONSchemaProps{Type: "object", Default: &apiextensionsv1.JSON{Raw: []byte(`"x"`)}}
	invalid.Spec.Names.Singular = ""
	crds = append(crds, withStatus, withWebhook, invalid)

	strategy := customresourcedefinition.NewStrategy(nil)
	ctx := context.Background()
	sawError := false
	for _, c := range crds {
		before := c.DeepCopy()
		got, err := ToInternal(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !equality.Semantic.DeepEqual(c, before) {
			t.Errorf("%s: ToInternal changed its input", c.Name)
		}

		copied := c.DeepCopy()
		apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(copied)
		want := &apiextensions.CustomResourceDefinition{}
		if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(copied, want, nil); err != nil {
			t.Fatal(err)
		}
		strategy.PrepareForCreate(ctx, want)
		if !equality.Semantic.DeepEqual(got, want) {
			t.Errorf("%s: ToInternal differs from the strategy's PrepareForCreate:\ngot  %+v\nwant %+v", c.Name, got.Status, want.Status)
		}

		gotErrs, wantErrs := ValidateCRD(ctx, c), strategy.Validate(ctx, want)
		if fmt.Sprint(gotErrs) != fmt.Sprint(wantErrs) {
			t.Errorf("%s: ValidateCRD = %v, the strategy's Validate = %v", c.Name, gotErrs, wantErrs)
		}
		sawError = sawError || len(gotErrs) > 0
	}
	if !sawError {
		t.Error("no case had a validation error: the comparison of errors proved nothing")
	}
	if port := withWebhook.Spec.Conversion.Webhook.ClientConfig.Service.Port; port != nil {
		t.Errorf("the webhook's port was defaulted in the input: %d", *port)
	}
}

// TestCheckIsValidateCRDAndCheckDefaults: Check shares one conversion
// between the two checks and must say what they say apart, also for a CRD
// whose versions share their schema (the conversion moves it to
// spec.validation) and for one with errors of both kinds.
func TestCheckIsValidateCRDAndCheckDefaults(t *testing.T) {
	crds, err := LoadCRDs("../../../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	shared := crds[0].DeepCopy()
	v2 := *shared.Spec.Versions[0].DeepCopy()
	v2.Name, v2.Storage = "v2", false
	shared.Spec.Versions = append(shared.Spec.Versions, v2)
	broken := shared.DeepCopy()
	for i := range broken.Spec.Versions {
		props := broken.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties
		props["extra"] = apiextensionsv1.JSONSchemaProps{Type: "string", Default: &apiextensionsv1.JSON{Raw: []byte("null")}}
		props["spec"] = apiextensionsv1.JSONSchemaProps{Type: "object", Default: &apiextensionsv1.JSON{Raw: []byte(`"x"`)}}
	}
	crds = append(crds, shared, broken)
	ctx := context.Background()
	both := false
	for _, c := range crds {
		invalid, later := Check(ctx, c)
		if want := ValidateCRD(ctx, c); fmt.Sprint(invalid) != fmt.Sprint(want) {
			t.Errorf("%s: Check's first list = %v, ValidateCRD = %v", c.Name, invalid, want)
		}
		internal, err := ToInternal(c)
		if err != nil {
			t.Fatal(err)
		}
		if want := checkDefaults(ctx, c, internal); fmt.Sprint(later) != fmt.Sprint(want) {
			t.Errorf("%s: Check's second list = %v, checkDefaults on its own conversion = %v", c.Name, later, want)
		}
		both = both || (len(invalid) > 0 && len(later) > 0)
	}
	if !both {
		t.Error("no CRD had errors of both kinds: the comparison proved little")
	}
}
