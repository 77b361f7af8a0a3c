package v1beta1

import (
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	v1 "example.com/crversions/api/v1"
)

// PanicAnnotation makes ConvertTo panic, with the annotation's value: the
// tests check how each controller-runtime release's handler takes it.
const PanicAnnotation = "cr.example.com/panic"

// ConvertTo converts this Widget to the hub version (v1). It panics on a
// Widget annotated with PanicAnnotation.
func (src *Widget) ConvertTo(dstRaw conversion.Hub) error {
	if v, ok := src.Annotations[PanicAnnotation]; ok {
		panic(v)
	}
	dst := dstRaw.(*v1.Widget)
	dst.ObjectMeta = src.ObjectMeta
	dst.Spec.Size = src.Spec.Length
	return nil
}

// ConvertFrom converts from the hub version (v1) to this version. v1's
// color has no field here: it is lost.
func (dst *Widget) ConvertFrom(srcRaw conversion.Hub) error {
	src := srcRaw.(*v1.Widget)
	dst.ObjectMeta = src.ObjectMeta
	dst.Spec.Length = src.Spec.Size
	return nil
}
