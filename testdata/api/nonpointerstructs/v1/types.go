package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NonPointerStruct wraps the KEP's Root type as its spec. The KEP's Go types
// have no json tags; these tags give the field names the KEP's OpenAPI shows.
// +kubebuilder:object:root=true
type NonPointerStruct struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Root `json:"spec"`
}

type Root struct {
	Entry SubLevel `json:"entry"`
}

type SubLevel struct {
	// +default="default-name"
	Name string `json:"name,omitempty"`
	// +default=0
	Number int `json:"number"`
}
