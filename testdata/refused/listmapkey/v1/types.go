// Package v1 has a list of type map whose key is optional and has no
// default (kubeflow katib v0.19.0's AlgorithmSetting.Name): controller-gen
// writes the CRD, which the apiserver refuses, as the key "must have a
// default or be a required property"; crd says so without writing it,
// and does not blame a default: it wrote none there.
// +groupName=listmapkey.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WidgetSpec `json:"spec,omitzero"`
}

type WidgetSpec struct {
	// +listType=map
	// +listMapKey=name
	// +optional
	Settings []Setting `json:"settings,omitempty"`
}

type Setting struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Value string `json:"value,omitempty"`
}
