package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/testdata/lintscope/shared"
)

// Widget is a kind, as a kubebuilder scaffold writes it.
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`   // want "omitempty-struct"
	Status WidgetStatus `json:"status,omitempty"` // want "omitempty-struct"
}

// WidgetList is no CRD schema: its ListMeta is not reported.
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

type WidgetSpec struct {
	// +optional
	Box shared.Box `json:"box,omitempty"` // want "omitempty-struct"
	// +optional
	Parts []Part `json:"parts,omitempty"`
	// +optional
	// +kubebuilder:validation:EmbeddedResource
	Template Embedded `json:"template,omitzero"`
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Type=object
	Raw Opaque `json:"raw,omitzero"`
}

// Part is reached as a list item: its type-level default is checked.
// +default="three"
type Part int32 // want "default-type-mismatch"

// Embedded is an embedded resource: its metadata is the apiserver's.
type Embedded struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	Metadata EmbeddedMeta `json:"metadata,omitempty"`
	// +optional
	Size Size `json:"size,omitempty"` // want "omitempty-struct"
}

type EmbeddedMeta struct {
	// +optional
	Name string `json:"name,omitempty"`
}

type Size struct {
	// +optional
	Value int32 `json:"value,omitempty"`
}

// Opaque is below a schema-less field: the CRD has no properties there.
type Opaque struct {
	// +optional
	Inner Size `json:"inner,omitempty"`
}

type WidgetStatus struct {
	// +optional
	Ready bool `json:"ready,omitempty"`
}

// Helper is reached by no kind.
type Helper struct {
	// +optional
	Size Size `json:"size,omitempty"`
	// +optional
	// +default="many"
	Count int32 `json:"count,omitempty"`
}
