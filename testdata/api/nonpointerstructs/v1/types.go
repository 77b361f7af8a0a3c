package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NonPointerStruct wraps the KEP's Root type as its spec. The KEP's Go types
// have no json tags; these tags give the field names the KEP's OpenAPI shows.
// +kubebuilder:object:root=true
type NonPointerStruct struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the KEP's Root type.
	// +optional
	Spec Root `json:"spec"`
}

type Root struct {
	// entry is a non-pointer struct: its default is {}.
	// +optional
	Entry SubLevel `json:"entry"`
}

type SubLevel struct {
	// name defaults to "default-name".
	// +optional
	// +default="default-name"
	Name string `json:"name,omitempty"`
	// number defaults to 0, its zero value.
	// +optional
	// +default=0
	Number int `json:"number"`
}
