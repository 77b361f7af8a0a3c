// Package v1alpha1 is one version of a kind whose status type is declared once,
// in v1alpha1, and reached from the later versions through a chain of
// aliases (v1.Status = v1beta1.Status = v1alpha1.Status; v1 does not
// import v1alpha1), with selectableFields, which the apiserver allows only
// when every version's schema is the same.
// +kubebuilder:object:generate=true
// +groupName=aliases.example.com
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Status struct {
	// +optional
	Ready bool `json:"ready"`
	// +optional
	Phase string `json:"phase"`
	// +optional
	Inner Inner `json:"inner"`
}

type Inner struct {
	// +optional
	Count int32 `json:"count"`
}

type Spec struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Replicas int32 `json:"replicas"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:selectablefield:JSONPath=.spec.name

type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec Spec `json:"spec,omitzero"`
	// +optional
	Status Status `json:"status,omitzero"`
}
