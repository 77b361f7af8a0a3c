package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// StructPointer wraps the KEP's Root type as its spec.
// +kubebuilder:object:root=true
type StructPointer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Root `json:"spec"`
}

type Root struct {
	// This is now a pointer, we can provide a default:
	// +default={"name": "pointer-name"}
	Entry *SubLevel `json:"entry,omitempty"`
}

// SubLevel differs from the KEP's text in two places, both slips in the KEP:
// the KEP writes "+defaut" (a typo, which no tool would read), and gives Name
// no omitempty, which KEP-1929's own rule 3 forbids for a non-zero default.
// This is the type the KEP's OpenAPI and behaviour table describe.
type SubLevel struct {
	// +default="default-name"
	Name string `json:"name,omitempty"`
	// +default=0
	Number int `json:"number"`
}
