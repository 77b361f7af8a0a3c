// Package conversion converts Gadgets between versions with
// controller-runtime's Converters, as cluster-api's
// core/webhooks/conversion does since v1.14: the API packages implement
// neither conversion.Hub nor conversion.Convertible.
package conversion

import (
	"context"
	"errors"

	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	v1 "example.com/convreg/api/v1"
	"example.com/convreg/api/v1beta1"
)

// Gadget is the Gadget converter, registered by internal/webhooks with
// WithConverter.
var Gadget = conversion.NewHubSpokeConverter(&v1.Gadget{},
	conversion.NewSpokeConverter(&v1beta1.Gadget{}, ConvertHubToV1Beta1, ConvertV1Beta1ToHub),
)

// UnitAnnotation is where the hub → v1beta1 conversion writes the unit
// that SetUnit set.
const UnitAnnotation = "reg.example.com/unit"

// unit is state that main sets (SetUnit) and the hub → v1beta1
// conversion reads, like cluster-api's apiVersionGetter.
var unit = func() (string, error) { return "", errors.New("unit not set") }

// SetUnit sets the unit the hub → v1beta1 conversion writes; main calls it.
func SetUnit(u string) {
	unit = func() (string, error) { return u, nil }
}

// ConvertHubToV1Beta1 converts v1 to v1beta1: v1's color is lost.
func ConvertHubToV1Beta1(_ context.Context, src *v1.Gadget, dst *v1beta1.Gadget) error {
	u, err := unit()
	if err != nil {
		return err
	}
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	if dst.Annotations == nil {
		dst.Annotations = map[string]string{}
	}
	dst.Annotations[UnitAnnotation] = u
	dst.Spec.Length = src.Spec.Size
	return nil
}

// ConvertV1Beta1ToHub converts v1beta1 to v1.
func ConvertV1Beta1ToHub(_ context.Context, src *v1beta1.Gadget, dst *v1.Gadget) error {
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	delete(dst.Annotations, UnitAnnotation)
	if len(dst.Annotations) == 0 {
		dst.Annotations = nil
	}
	dst.Spec.Size = src.Spec.Length
	return nil
}
