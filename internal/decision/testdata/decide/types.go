// Package decide holds the Go types of internal/decision's table-driven
// tests: each field is one case of a decision, named after it. The tests
// give each field the schema of the case.
package decide

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Fields struct {
	// +default="TCP"
	Explicit string `json:"explicit,omitempty"`
	// +default={"port": 80}
	Endpoint *Endpoint `json:"endpoint,omitempty"`
	// +kubebuilder:default="60s"
	Timeout *metav1.Duration `json:"timeout,omitempty"`
	// +kubebuilder:default=1
	Weight *resource.Quantity `json:"weight,omitempty"`
	// +default={"name": "", "port": 80}
	EndpointAsGo *Endpoint `json:"endpointAsGo,omitempty"`
	// +default={"port": 0}
	EndpointZeroPort *Endpoint `json:"endpointZeroPort,omitempty"`
	// +default=["a"]
	List []string `json:"list,omitempty"`
	// +default="0.5"
	Quantity *resource.Quantity `json:"quantity,omitempty"`
	// +default="three"
	Refused int32 `json:"refused,omitempty"`
	// +default={"name":"x"}
	// +optional
	NotEmpty Sub `json:"notEmpty"`
	// +default={}
	EmptyOmitzero Rigging `json:"emptyOmitzero,omitzero"`
	// +default={}
	// +optional
	EmptyPlain Rigging `json:"emptyPlain"`

	// +implicitDefaults=false
	Off string `json:"off"`
	// +required
	Required         string `json:"required"`
	InferredRequired string `json:"inferredRequired"`

	// +optional
	Struct      Sub     `json:"struct"`
	Omitempty   Sub     `json:"omitempty,omitempty"`
	Omitzero    Rigging `json:"omitzero,omitzero"`
	OmitzeroSub Sub     `json:"omitzeroSub,omitzero"`
	Opaque      Opaque  `json:"opaque,omitzero"`
	Pointer     *Sub    `json:"pointer,omitempty"`

	// +optional
	Scalar     string `json:"scalar"`
	ScalarOmit string `json:"scalarOmit,omitempty"`
	// +optional
	Int int32 `json:"int"`
	// +optional
	Bool bool `json:"bool"`
	// +optional
	Float float64 `json:"float"`
	// +optional
	Time metav1.Time `json:"time"`
	// +optional
	Raw runtime.RawExtension `json:"raw"`
	// +optional
	Own     Own `json:"own"`
	OwnOmit Own `json:"ownOmit,omitempty"`
	// +optional
	OwnPointer *Own `json:"ownPointer"`
	// +optional
	Map map[string]string `json:"map"`

	Items    []Item        `json:"items,omitempty"`
	BadItems []Bad         `json:"badItems,omitempty"`
	Plain    []string      `json:"plain,omitempty"`
	Objects  []*Endpointed `json:"objects,omitempty"`
}

type Endpoint struct {
	Name string `json:"name"`
	Port int32  `json:"port,omitempty"`
}

type Sub struct {
	Name string `json:"name,omitempty"`
	// +required
	Count int `json:"count"`
}

type Rigging struct {
	Knots int32  `json:"knots,omitempty"`
	Sail  string `json:"sail,omitempty"`
}

// Opaque has a field whose zero JSON is unknown.
type Opaque struct {
	Own Own `json:"own"`
}

// Own has its own encoding.
type Own struct{ v int }

func (Own) MarshalJSON() ([]byte, error) { return []byte(`"own"`), nil }

// +default="item"
type Item string

// +default="large"
type Bad int

// +default={"port": 8080}
type Endpointed struct {
	Name string `json:"name"`
	Port int32  `json:"port,omitempty"`
}
