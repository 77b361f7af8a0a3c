package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
type Workload struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state.
	Spec WorkloadSpec `json:"spec"`
}

type WorkloadSpec struct {
	// replicas defaults to 1.
	// +optional
	// +default=1
	Replicas *int32 `json:"replicas,omitempty"`
	// template gets the implicit defaults of k8s.io/api's PodTemplateSpec.
	// +optional
	Template corev1.PodTemplateSpec `json:"template"`
}
