// Package v1 has a float field, which controller-tools' crd parser refuses
// unless allowDangerousTypes is set (TestDangerousTypesFix).
// +kubebuilder:object:generate=true
// +groupName=floats.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// +required
	Spec GaugeSpec `json:"spec"`
}

type GaugeSpec struct {
	// +optional
	// +default=0.5
	Ratio float64 `json:"ratio,omitempty"`
}
