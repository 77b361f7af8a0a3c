package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Scalar wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type Scalar struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the KEP's Object type.
	// +optional
	Spec Object `json:"spec"`
}

type Object struct {
	// name is omit-empty, and hence Golang unmarshalling drops a zero-value.
	// +optional
	// +default="default-name"
	Name string `json:"name,omitempty"`

	// defaulted is a non-pointer scalar field without omitempty, which requires a zero-value default.
	// +optional
	// +default=0
	Defaulted int `json:"defaulted"`
}
