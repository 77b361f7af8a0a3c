package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// StructPointer wraps the KEP's Root type as its spec.
// +kubebuilder:object:root=true
type StructPointer struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the KEP's Root type.
	// +optional
	Spec Root `json:"spec"`
}

type Root struct {
	// entry is now a pointer, we can provide a default:
	// +optional
	// +default={"name": "pointer-name"}
	Entry *SubLevel `json:"entry,omitempty"`
}

// SubLevel differs from the KEP's text in two places, both slips in the KEP:
// the KEP writes "+defaut" (a typo, which no tool would read), and gives Name
// no omitempty, which KEP-1929's own rule 3 forbids for a non-zero default.
// This is the type the KEP's OpenAPI and behaviour table describe.
type SubLevel struct {
	// name defaults to "default-name".
	// +optional
	// +default="default-name"
	Name string `json:"name,omitempty"`
	// number defaults to 0, its zero value.
	// +default=0
	Number int `json:"number"` // want `\+default=0 on a field the schema requires \(it has no omitempty and no \+optional\)`
}
