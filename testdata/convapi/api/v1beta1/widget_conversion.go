package v1beta1

import (
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	v1 "example.com/convapi/api/v1"
)

// ConvertTo converts this Widget to the hub version (v1).
func (src *Widget) ConvertTo(dstRaw conversion.Hub) error {
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
