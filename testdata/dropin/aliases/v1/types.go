// Package v1 is one version of a kind whose status type is declared once,
// in v1alpha1, and reached from the later versions through a chain of
// aliases (v1.Status = v1beta1.Status = v1alpha1.Status; v1 does not
// import v1alpha1), with selectableFields, which the apiserver allows only
// when every version's schema is the same.
// +kubebuilder:object:generate=true
// +groupName=aliases.example.com
package v1

import (
	prev "github.com/controller-gen-default/controller-gen-default/testdata/dropin/aliases/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Status = prev.Status

type Spec = prev.Spec

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:selectablefield:JSONPath=.spec.name
// +kubebuilder:storageversion
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec Spec `json:"spec,omitzero"`
	// +optional
	Status Status `json:"status,omitzero"`
}
