package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KEP-1929 "Non-pointer structs", the forbidden example.
type NonPointer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec NonPointerRoot `json:"spec"`
}

type NonPointerRoot struct {
	// Defaults on non-pointer structs are FORBIDDEN:
	// +default={"name": "entry", "number": 12}
	Entry NonPointerSubLevel `json:"entry"` // want `\+default=\{"name":"entry","number":12\} on a non-pointer struct: only \{\} is allowed`
}

type NonPointerSubLevel struct {
	Name   string `json:"name,omitempty"`
	Number int    `json:"number"`
}

// KEP-1929 "Non-pointer scalar fields", the Invalid type.
type Invalid struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InvalidSpec `json:"spec"`
}

type InvalidSpec struct {
	// This field is NOT omit-empty, and CRD and built-in defaulting would differ,
	// even when going through Golang types on the client
	// +default="default-name"
	Name string `json:"name"` // want `\+default="default-name" is not the zero value "", and without omitempty`
}

// Errors in marker values.
type BadMarker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BadMarkerSpec `json:"spec"`
}

type BadMarkerSpec struct {
	// +default=TCP
	Unquoted string `json:"unquoted,omitempty"` // want `\+default=TCP is not valid JSON`

	// +default=ref(NoSuchConstant)
	Unresolved string `json:"unresolved,omitempty"` // want `\+default=ref\(NoSuchConstant\): no constant NoSuchConstant in package`

	// +default=ref(k8s.io/api/core/v1.ProtocolTCP)
	NotImported string `json:"notImported,omitempty"` // want `package "k8s.io/api/core/v1" is not imported`

	// +default="three"
	Count int32 `json:"count,omitempty"` // want `the field's schema type is integer, the default is a JSON string`

	// +default=1
	// +kubebuilder:default=2
	Twice int32 `json:"twice,omitempty"` // want `two different defaults: \+default=1 and \+kubebuilder:default=2`

	// +default=null
	Null *string `json:"null,omitempty"` // want `default null is ignored by the apiserver`

	// A type-level default on a struct used as a non-pointer field.
	Window Window `json:"window"` // want `\+default on type Window=\{"size":3\} on a non-pointer struct`

	// A type-level default of the wrong type, used by list items.
	Sizes []Size `json:"sizes,omitempty"`

	// An integer the Go type cannot hold: the schema says integer, but the
	// generated Go defaulter could not decode it.
	// +default=128
	Small int8 `json:"small,omitempty"` // want `\+default=128: 128 does not fit in an int8 \(-128 to 127\)`

	// {} leaves out cabin, which the schema requires; Go clients would send
	// {"cabin":0}, below its minimum: neither form is valid, and the
	// author's literal is what the apiserver refuses.
	// +default={}
	Boat *Boat `json:"boat,omitempty"` // want `properties\[boat\].default: the default leaves out cabin, which the schema requires \(required\) \(\+default\)`

	// A quantity that does not parse.
	// +default="lots"
	Memory *resource.Quantity `json:"memory,omitempty"` // want `\+default="lots": "lots" is not a quantity`
}

// Defaults that pass the generator's own checks, then the apiserver's.
type Checked struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CheckedSpec `json:"spec,omitempty"` // want `omitempty has no effect`
}

type CheckedSpec struct {
	// The apiserver's CRD validation refuses a value outside the enum.
	// +default="SCTP"
	Protocol Protocol `json:"protocol,omitempty"` // want `properties\[protocol\].default: the default "SCTP" is not one of the values the schema allows, "TCP", "UDP" \(enum\) \(\+default\) \[apiserver\]`

	// Accepted on its own, but once b is defaulted inside it, the stored
	// value has two properties.
	// +default={"a": "x"}
	Pair *Pair `json:"pair,omitempty"` // want `properties\[pair\].default: the default as the apiserver stores it \(with the defaults below it applied\) has 2 properties; the schema allows at most 1 \(maxProperties\) \(\+default\) \[nested-defaults\]`

	// The apiserver never validates defaults under additionalProperties.
	Ports map[string]Port `json:"ports,omitempty"`
}

// An apiserver error that is not about a default, in a list item: it is
// reported at the Go field the schema path leads to.
type BadRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec *BadRuleSpec `json:"spec,omitempty"`
}

type BadRuleSpec struct {
	Limits []Limit `json:"limits,omitempty"`
}

type Limit struct {
	// A CEL rule that does not compile.
	// +kubebuilder:validation:XValidation:rule="self.size > 1"
	Max int32 `json:"max,omitempty"` // want `properties\[max\].x-kubernetes-validations\[0\].rule: Invalid value: .*compilation failed: ERROR: <input>:1:5: type 'int' does not support field selection`
}

// +kubebuilder:validation:Enum=TCP;UDP
type Protocol string

// +kubebuilder:validation:MaxProperties=1
type Pair struct {
	A string `json:"a,omitempty"`
	// +default="y"
	B string `json:"b,omitempty"`
}

// +kubebuilder:validation:Minimum=1
// +default=0
type Port int32 // want `additionalProperties.default: the default 0 is less than the schema's minimum 1 \(minimum\) \(the apiserver does not validate defaults under additionalProperties\).*\[nested-defaults\]`

type Boat struct {
	// +kubebuilder:validation:Minimum=1
	Cabin int32 `json:"cabin"`
	// +optional
	// +kubebuilder:validation:Minimum=1
	Berth int32 `json:"berth"` // want `implicit default 0 \(zero value: the field has no omitempty\) skipped`
}

// +default={"size": 3}
type Window struct {
	Size int `json:"size,omitempty"`
}

// +default="large"
type Size int // want `\+default on type Size="large": the field's schema type is integer`
