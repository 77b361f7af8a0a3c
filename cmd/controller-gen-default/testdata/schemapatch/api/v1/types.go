// Package v1 is the API of the schemapatch test (schemapatch_test.go): field
// +default markers with JSON and ref() values, +kubebuilder:default, and a
// +default on a named type.
// +groupName=schemapatch.example.com
package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultReplicas is the default of WidgetSpec.Replicas, by ref().
const DefaultReplicas = 3

// Widget is the only kind; schemapatch patches its existing CRD.
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}

// Protocol has a type-level default: the crd generator writes it on fields,
// list items and map values of this type; schemapatch does not.
// +default="TCP"
type Protocol string

// Limits is the target of a pointer-struct field default.
type Limits struct {
	CPU    string `json:"cpu,omitempty"`
	Memory int64  `json:"memory,omitempty"`
}

type WidgetSpec struct {
	// +default="widget"
	Name string `json:"name,omitempty"`
	// +default=2
	Count int32 `json:"count,omitempty"`
	// +default=true
	Enabled bool `json:"enabled,omitempty"`
	// +default=["a", "b"]
	Tags []string `json:"tags,omitempty"`
	// The keys are out of order on purpose: the value is re-encoded.
	// +default={"team": "core", "env": "dev"}
	Labels map[string]string `json:"labels,omitempty"`
	// +default={"cpu": "100m", "memory": 64}
	Limits *Limits `json:"limits,omitempty"`

	// +kubebuilder:default=Always
	Policy string `json:"policy,omitempty"`
	// +default=8080
	// +kubebuilder:default=8080
	Port int32 `json:"port,omitempty"`

	// +default=ref(DefaultReplicas)
	Replicas *int32 `json:"replicas,omitempty"`
	// +default=ref(k8s.io/api/core/v1.PullIfNotPresent)
	PullPolicy corev1.PullPolicy `json:"pullPolicy,omitempty"`

	// Type-level default only.
	Protocol Protocol `json:"protocol,omitempty"`
	// The field's default, on a field of a type with its own.
	// +default="UDP"
	PeerProtocol Protocol `json:"peerProtocol,omitempty"`
	// Type-level default only, on the items.
	Protocols []Protocol `json:"protocols,omitempty"`
}
