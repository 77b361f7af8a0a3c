package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Scalar wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type Scalar struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Object `json:"spec"`
}

type Object struct {
	// This field is omit-empty, and hence Golang unmarshalling drops a zero-value.
	// +default="default-name"
	Name string `json:"name,omitempty"`

	// Non-pointer scalar fields without omitempty require zero-value default.
	// +default=0
	Defaulted int `json:"defaulted"`
}
