package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// size is the gadget's size; v1beta1 calls it length.
	// +optional
	Size int32 `json:"size,omitempty"`
	// color is new in v1: v1beta1 has no field for it, and the converter
	// drops it.
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Gadget is the hub version of the Gadget API, converted by the
// controller-runtime Converter of internal/conversion (no Hub method).
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Gadget{}, &GadgetList{})
		return nil
	})
}

// DeepCopyInto copies in into out.
func (in *Gadget) DeepCopyInto(out *Gadget) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec = in.Spec
}

// DeepCopy copies the Gadget.
func (in *Gadget) DeepCopy() *Gadget {
	if in == nil {
		return nil
	}
	out := new(Gadget)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject is runtime.Object's.
func (in *Gadget) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out.
func (in *GadgetList) DeepCopyInto(out *GadgetList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Gadget, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy copies the GadgetList.
func (in *GadgetList) DeepCopy() *GadgetList {
	if in == nil {
		return nil
	}
	out := new(GadgetList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject is runtime.Object's.
func (in *GadgetList) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}
