// Package v0 is an internal version of lintscope's Widget, marked
// +kubebuilder:skipversion, as conversion-gen users keep one: no CRD holds
// it, so neither crd nor lint reports its types.
// +kubebuilder:object:generate=true
// +groupName=scope.example.com
package v0

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:skipversion
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}

type WidgetSpec struct {
	// +optional
	// +default={"size":3}
	Internal Internal `json:"internal,omitempty"`
}

type Internal struct {
	// +optional
	Size int32 `json:"size,omitempty"`
}
