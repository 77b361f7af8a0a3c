package rules

import "encoding/json"

// Wrapped has its own JSON encoding, which golit does not know.
type Wrapped struct{ s string }

func (w *Wrapped) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &w.s) }
func (w Wrapped) MarshalJSON() ([]byte, error)  { return json.Marshal(w.s) }

type Pair struct {
	W Wrapped `json:"w"`
	// +optional
	N int8 `json:"n,omitempty"`
}

type OwnEncoding struct {
	// +kubebuilder:default="720h"
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Schemaless
	// +optional
	Literal Wrapped `json:"literal,omitempty"`
	// +kubebuilder:default={"w":"1h","n":3}
	// +optional
	Object *Pair `json:"object,omitempty"`
	// +kubebuilder:default={"w":"1h","n":300}
	// +optional
	Overflow *Pair `json:"overflow,omitempty"`
	// +optional
	Plain *Pair `json:"plain,omitempty"`
}
