// Package v1 is one field of every Go kind that a +default number, string
// or boolean can go into, for the differential fuzz target of package
// defaultgen (FuzzDefaultValues): each field is optional and omitempty, so
// that any value may be its default, and carries no marker; the target
// gives it one.
// +groupName=numbers.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec"`
}

type Spec struct {
	// +optional
	Bool bool `json:"bool,omitempty"`
	// +optional
	String string `json:"string,omitempty"`
	// +optional
	Int int `json:"int,omitempty"`
	// +optional
	Int8 int8 `json:"int8,omitempty"`
	// +optional
	Int16 int16 `json:"int16,omitempty"`
	// +optional
	Int32 int32 `json:"int32,omitempty"`
	// +optional
	Int64 int64 `json:"int64,omitempty"`
	// +optional
	Uint uint `json:"uint,omitempty"`
	// +optional
	Uint8 uint8 `json:"uint8,omitempty"`
	// +optional
	Uint16 uint16 `json:"uint16,omitempty"`
	// +optional
	Uint32 uint32 `json:"uint32,omitempty"`
	// +optional
	Uint64 uint64 `json:"uint64,omitempty"`
	// +optional
	Float32 float32 `json:"float32,omitempty"`
	// +optional
	Float64 float64 `json:"float64,omitempty"`

	// +optional
	PtrBool *bool `json:"ptrBool,omitempty"`
	// +optional
	PtrInt64 *int64 `json:"ptrInt64,omitempty"`
	// +optional
	PtrUint8 *uint8 `json:"ptrUint8,omitempty"`
	// +optional
	PtrFloat32 *float32 `json:"ptrFloat32,omitempty"`

	// +optional
	ListInt32 []int32 `json:"listInt32,omitempty"`
	// +optional
	ListUint64 []uint64 `json:"listUint64,omitempty"`
	// +optional
	ListFloat64 []float64 `json:"listFloat64,omitempty"`
	// +optional
	ListString []string `json:"listString,omitempty"`
	// +optional
	MapUint8 map[string]uint8 `json:"mapUint8,omitempty"`
	// +optional
	MapFloat32 map[string]float32 `json:"mapFloat32,omitempty"`

	// +optional
	IntOrString intstr.IntOrString `json:"intOrString,omitzero"`
	// +optional
	PtrIntOrString *intstr.IntOrString `json:"ptrIntOrString,omitempty"`
	// +optional
	Quantity resource.Quantity `json:"quantity,omitzero"`
	// +optional
	PtrQuantity *resource.Quantity `json:"ptrQuantity,omitempty"`
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`
	// +optional
	Time *metav1.Time `json:"time,omitempty"`

	// +optional
	Endpoint *Endpoint `json:"endpoint,omitempty"`
	// +optional
	Endpoints []Endpoint `json:"endpoints,omitempty"`
}

type Endpoint struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Port int32 `json:"port,omitempty"`
	// +optional
	Weight *float32 `json:"weight,omitempty"`
	// +optional
	Limit *resource.Quantity `json:"limit,omitempty"`
}

// Constants for +default=ref(...).
const (
	MaxInt64 = 1<<63 - 1
	Big      = 1 << 70
	Half     = 0.5
	Third    = 1.0 / 3
	Tiny     = 1e-400
	Name     = "ref-name"
)
