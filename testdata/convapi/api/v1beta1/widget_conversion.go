package v1beta1

import (
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/conversion"

	v1 "example.com/convapi/api/v1"
)

// FailConversion is an annotation on which ConvertTo fails, as a webhook's
// conversion may: the tests of impact --convert use it.
const FailConversion = "conv.example.com/fail-conversion"

// ConvertTo converts this Widget to the hub version (v1). It fails on a
// Widget annotated with FailConversion, with the annotation's value.
func (src *Widget) ConvertTo(dstRaw conversion.Hub) error {
	if reason, ok := src.Annotations[FailConversion]; ok {
		return fmt.Errorf("%s: %s", FailConversion, reason)
	}
	dst := dstRaw.(*v1.Widget)
	dst.ObjectMeta = src.ObjectMeta
	dst.Spec.Size = src.Spec.Length
	dst.Spec.Mode = src.Spec.Mode
	dst.Status.Ready = src.Status.Ready
	return nil
}

// ConvertFrom converts from the hub version (v1) to this version. v1's
// color has no field here: it is lost.
func (dst *Widget) ConvertFrom(srcRaw conversion.Hub) error {
	src := srcRaw.(*v1.Widget)
	dst.ObjectMeta = src.ObjectMeta
	dst.Spec.Length = src.Spec.Size
	dst.Spec.Mode = src.Spec.Mode
	dst.Status.Ready = src.Status.Ready
	return nil
}
