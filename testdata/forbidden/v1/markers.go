package v1

import (
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
