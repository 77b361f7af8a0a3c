// Package v1 is one of two versions of a kind, both marked
// +kubebuilder:storageversion: controller-gen writes the CRD, which the
// apiserver refuses, and crd says so without writing it.
// +groupName=twostorage.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WidgetSpec `json:"spec,omitzero"`
}

type WidgetSpec struct {
	// +optional
	Name string `json:"name,omitempty"`
}
