package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
type Workload struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WorkloadSpec `json:"spec"`
}

type WorkloadSpec struct {
	// +default=1
	Replicas *int32                 `json:"replicas,omitempty"`
	Template corev1.PodTemplateSpec `json:"template"`
}
