// Package defaulttypemismatch: a default has the JSON kind of the field's
// schema, and fits the Go type.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package defaulttypemismatch

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Spec struct {
	// +default="three"
	Count int32 `json:"count,omitempty"` // want `^error: Spec.Count: \+default="three": the field's schema type is integer, the default is a JSON string \[default-type-mismatch\]$`

	// +default=null
	Null *string `json:"null,omitempty"` // want `^error: Spec.Null: \+default=null: default null is ignored by the apiserver; remove it, or omit the marker \[default-type-mismatch\]$`

	// +default=128
	Small int8 `json:"small,omitempty"` // want `^error: Spec.Small: \+default=128: 128 does not fit in an int8 \(-128 to 127\) \[default-type-mismatch\]$`

	// +default="lots"
	Memory *resource.Quantity `json:"memory,omitempty"` // want `^error: Spec.Memory: \+default="lots": "lots" is not a quantity`

	// +default="1m"
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// +default=["a", "b"]
	Names []string `json:"names,omitempty"`

	// +default={"a": 1}
	Names2 []string `json:"names2,omitempty"` // want `^error: Spec.Names2: \+default=\{"a":1\}: the field's schema type is array, the default is a JSON object`

	// A type's default of the wrong kind, used by list items.
	Sizes []Size `json:"sizes,omitempty"`
}

// +default="large"
type Size int // want `^error: Size: \+default on type Size="large": the field's schema type is integer, the default is a JSON string \[default-type-mismatch\]$`
