package v1

import (
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
)

// Shape is the kind.
// +kubebuilder:object:root=true
type Shape struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ShapeSpec `json:"spec,omitzero"`
}

// DeepCopyObject copies the object as deeply as the tests need.
func (in *Shape) DeepCopyObject() kruntime.Object {
	out := *in
	return &out
}

// ShapeSpec holds one field of each shape.
type ShapeSpec struct {
	// Inner's fields are spec's; a nil Inner leaves them out.
	*Inner `json:",inline"`

	// +optional
	// +default={"a":1}
	RawPtr *kruntime.RawExtension `json:"rawPtr,omitempty"`
	// +optional
	// +default={"a":1}
	Raw kruntime.RawExtension `json:"raw,omitempty"`
	// +optional
	// +default={"b":[true]}
	JSONPtr *apiext.JSON `json:"jsonPtr,omitempty"`
	// +optional
	// +default="text"
	JSON apiext.JSON `json:"json,omitempty"`
	// +optional
	// +default="2020-01-01T00:00:00Z"
	Since metav1.Time `json:"since,omitempty"`

	// +optional
	// +default={"boards":4}
	Deck *Deck `json:"deck,omitzero"`
	// +optional
	Mast *Deck `json:"mast,omitzero"`
	// +optional
	Hull Deck `json:"hull,omitzero"`
	// A whole-struct default on an omitzero struct: the apiserver stores it
	// while IsZero leaves the deck out, and so does the Go defaulter.
	// +optional
	// +kubebuilder:default={"name":"keel","paint":"red"}
	Keel Deck `json:"keel,omitzero"`

	// +optional
	// +default="bell\u0007 tab\t ls\u2028 ps\u2029 bom\ufeff nonchar\ufdd0 astral\ud83d\ude00 lone\ud800 end"
	Text string `json:"text,omitempty"`
	// +optional
	// +default={"k\u2028\u0007":"v\u0001\ufeff"}
	Labels map[string]string `json:"labels,omitempty"`
}

// Inner is embedded by pointer.
type Inner struct {
	// +optional
	// +default="x"
	S string `json:"s,omitempty"`
	// +optional
	N int32 `json:"n,omitempty"`
}

// Deck is zero to encoding/json's omitzero when it has no name, whatever
// else it holds.
type Deck struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	// +default=3
	Boards int32 `json:"boards,omitempty"`
	// +optional
	// +default=2
	Masts *int32 `json:"masts,omitempty"`
	// +optional
	Paint string `json:"paint,omitempty"`
}

// IsZero reports a deck without a name.
func (d Deck) IsZero() bool { return d.Name == "" }

// Package-level identifiers named like the generated file's imports.
var runtime, reflect = "runtime", "reflect"

type fmt struct{}

func context() fmt { return fmt{} }

const time = 1

var _, _, _ = runtime, reflect, context

// Package-level identifiers named like the generated file's own functions:
// the helpers of ShapeSpec and Deck, the pointer helper, and setDefaults_Deck2,
// the name the helper of Deck would take next.
func setDefaults_ShapeSpec() {}

type setDefaults_Deck struct{}

var defaultsPtr, setDefaults_Deck2 = setDefaults_Deck{}, 0

var _, _ = defaultsPtr, setDefaults_Deck2
