package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// size is the widget's size; v1beta1 calls it length.
	// +optional
	Size int32 `json:"size,omitempty"`
	// color is new in v1: v1beta1 has no field for it, and ConvertFrom
	// drops it.
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Widget is the hub version of the Widget API.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// Hub marks v1 as the hub of Widget's conversions (conversion.Hub).
func (*Widget) Hub() {}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Widget{}, &WidgetList{})
		return nil
	})
}
