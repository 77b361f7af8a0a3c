// Package recursivedefault: a default on a recursive type, or on a field
// on a cycle of types, would apply again at every level.
//
// +kubebuilder:validation:Optional
package recursivedefault

// +default={"name":"a"}
type Node struct { // want `^error: Node: \+default=\{"name":"a"\} on a recursive type \(Node.next → Node\): .*generated Go defaulter would never return.* \[recursive-default\]$`
	Name string `json:"name,omitempty"`
	Next *Node  `json:"next,omitempty"`
}

type Chain struct {
	// +default={}
	Next *Chain `json:"next,omitempty"` // want `\+default=\{\} lies on a cycle of types \(Chain.next → Chain\).* \[recursive-default\]$`
}

// a recursive type without a default is only the crd generator's error
type Tree struct {
	Children []Tree `json:"children,omitempty"`
}
