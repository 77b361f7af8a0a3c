// Package conversion converts Gadgets between versions with a
// controller-runtime Converter (v0.23.0 on), as cluster-api's
// core/webhooks/conversion does since v1.14.
package conversion

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	v1 "example.com/crversions/api/v1"
	"example.com/crversions/api/v1beta1"
)

// Gadget is the Gadget converter, registered by internal/webhooks with
// WithConverter.
var Gadget = conversion.NewHubSpokeConverter(&v1.Gadget{},
	conversion.NewSpokeConverter(&v1beta1.Gadget{}, ConvertHubToV1Beta1, ConvertV1Beta1ToHub),
)

// ConvertHubToV1Beta1 converts v1 to v1beta1: v1's color is lost.
func ConvertHubToV1Beta1(_ context.Context, src *v1.Gadget, dst *v1beta1.Gadget) error {
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	dst.Spec.Length = src.Spec.Size
	return nil
}

// ConvertV1Beta1ToHub converts v1beta1 to v1.
func ConvertV1Beta1ToHub(_ context.Context, src *v1beta1.Gadget, dst *v1.Gadget) error {
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	dst.Spec.Size = src.Spec.Length
	return nil
}
