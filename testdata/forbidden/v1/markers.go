package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Markers that would be dropped without a word: written twice, or on an
// inline field.
type Marked struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec *MarkedSpec `json:"spec,omitempty"`
}

type MarkedSpec struct {
	// +default=1
	// +default=2
	TwoDefaults int32 `json:"twoDefaults,omitempty"` // want `error: MarkedSpec.TwoDefaults \(spec.twoDefaults\): two different defaults: \+default=1 and \+default=2; keep one \[conflicting-defaults\]`

	// +default=3
	// +default=3
	SameTwice int32 `json:"sameTwice,omitempty"` // want `warning: MarkedSpec.SameTwice \(spec.sameTwice\): \+default=3 is written 2 times; keep one \[duplicate-markers\]`

	// +kubebuilder:default=1
	// +kubebuilder:default=2
	TwoKubebuilder int32 `json:"twoKubebuilder,omitempty"` // want `two different defaults: \+kubebuilder:default=1 and \+kubebuilder:default=2; keep one \[conflicting-defaults\]`

	// +implicitDefaults=false
	// +implicitDefaults=true
	TwoSettings int32 `json:"twoSettings"` // want `two different settings: \+implicitDefaults=false and \+implicitDefaults=true; keep one \[conflicting-defaults\]`

	Level Level `json:"level,omitempty"`

	// +default={"inner":"x"}
	Embedded `json:",inline"` // want `error: MarkedSpec.Embedded: \+default=\{"inner":"x"\} on an inline field sets nothing: Embedded has no property of its own, its fields are MarkedSpec's. Put the default on the fields of Embedded \(\+default="x" on Embedded.Inner\), on a field of type MarkedSpec, or on type MarkedSpec itself \[inline-default\]`
}

// +default="low"
// +default="high"
type Level string // want `error: Level \(spec.level\): two different defaults: \+default="low" and \+default="high"; keep one \[conflicting-defaults\]`

type Embedded struct {
	Inner string `json:"inner,omitempty"`
}

// Recursive types: a CRD schema cannot express them, and a default on a
// cycle would apply again at every level.
type Recursive struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec *RecursiveSpec `json:"spec,omitempty"`
}

type RecursiveSpec struct {
	Root     *Node    `json:"root,omitempty"`
	Chain    *Chain   `json:"chain,omitempty"`
	Branches []Branch `json:"branches,omitempty"`
}

// +default={"name":"a"}
type Node struct { // want `error: Node \(spec.root.next\): \+default=\{"name":"a"\} on a recursive type \(Node.next → Node\): .*generated Go defaulter would never return.* \[recursive-default\]`
	Name string `json:"name,omitempty"`
	Next *Node  `json:"next,omitempty"` // want `error: Node.Next \(spec.root.next\): Node.next → Node: a CRD schema cannot express a recursive type .*Break the cycle: refer to the nested objects by name .*runtime.RawExtension.* \[recursive-type\]`
}

type Chain struct {
	// +default={}
	Next *Chain `json:"next,omitempty"` // want `\+default=\{\} lies on a cycle of types \(Chain.next → Chain\).* \[recursive-default\]` `Chain.next → Chain: a CRD schema cannot express a recursive type.*\[recursive-type\]`
}

type Branch struct {
	Branches []Branch `json:"branches,omitempty"` // want `error: Branch.Branches \(spec.branches\[\*\].branches\[\*\]\): Branch.branches\[\*\] → Branch: a CRD schema cannot express a recursive type.*\[recursive-type\]`
}

// Values dropped or changed without a word: a default on a field that
// encoding/json ignores, a json tag that it reads otherwise than
// controller-gen, a default that Go clients send as another value.
type Tagged struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec *TaggedSpec `json:"spec,omitempty"`
}

type TaggedSpec struct {
	// +default="x"
	Skipped string `json:"-"` // want `error: TaggedSpec.Skipped: \+default="x": the field is tagged .json:"-".: encoding/json ignores it and controller-gen leaves it out of the CRD, so the default applies to nothing. Fix: remove the marker, or give the field a json name \[ignored-field-default\]`

	// +default=3
	hidden int32 `json:"hidden,omitempty"` // want `error: TaggedSpec.hidden: \+default=3: the field is unexported: encoding/json ignores it, so no Go client sends or reads it, while controller-gen writes it into the CRD, where the default would be stored in objects no Go client reads it from. Fix: remove the marker, or export the field \[ignored-field-default\]`

	Settings Embedded `json:",inline"` // want `error: TaggedSpec.Settings: json tag ",inline": controller-gen writes its fields inline into the CRD, encoding/json \(Go clients\) "Settings": encoding/json inlines embedded structs only: it gives any other field without a name its Go name, and ignores the option inline; Go clients' values there are pruned by the apiserver, and the CRD's are never read. Fix: embed the struct to inline it, or write .json:"settings". to keep a key \[json-name-mismatch\]`

	Odd string `json:"odd\"name,omitempty"` // want `error: TaggedSpec.Odd: json tag "odd\\"name,omitempty": controller-gen writes "odd\\"name" into the CRD, encoding/json \(Go clients\) "Odd": encoding/json refuses the name "odd\\"name" \(a name has letters, digits and .* and spaces only\) and reads the field as if it had none; .* Fix: rename the key with those characters only \[json-name-mismatch\]`

	// +default="0.5n"
	Tiny *resource.Quantity `json:"tiny,omitempty"` // want `error: TaggedSpec.Tiny \(spec.tiny\): \+default="0.5n": a resource.Quantity is rounded up to a whole nanounit, and capped at 2\^63-1 when binary: Go clients would send "1n" where the apiserver stores "0.5n"; write "1n" \[default-type-mismatch\]`

	// +default="2020-01-01T00:00:00.5Z"
	Since *metav1.Time `json:"since,omitempty"` // want `error: TaggedSpec.Since \(spec.since\): \+default="2020-01-01T00:00:00.5Z": a metav1.Time is sent to the second: Go clients would send "2020-01-01T00:00:00Z" where the apiserver stores "2020-01-01T00:00:00.5Z"; write "2020-01-01T00:00:00Z" \[default-type-mismatch\]`
}
