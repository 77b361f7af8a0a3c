package rules

// Recursive types, and types that reach them without being on a cycle.

type Node struct {
	Name string `json:"name,omitempty"`
	Next *Node  `json:"next,omitempty"`
}

type Tree struct {
	Children []*Tree `json:"children,omitempty"`
}

type Graph struct {
	Nodes map[string][]Graph `json:"nodes,omitempty"`
}

type A struct {
	B *B `json:"b,omitempty"`
}

type B struct {
	Leaf Leaf `json:"leaf"`
	As   []A  `json:"as,omitempty"`
}

type Leaf struct {
	Name string `json:"name,omitempty"`
}

type Outer struct {
	Embedded `json:",inline"`
	Leaf     Leaf `json:"leaf"`
}

type Embedded struct {
	Back *Outer `json:"back,omitempty"`
}

// Reaches reaches every cycle above, and lies on none.
type Reaches struct {
	Node  *Node            `json:"node,omitempty"`
	Trees []Tree           `json:"trees,omitempty"`
	Graph map[string]Graph `json:"graph,omitempty"`
	A     A                `json:"a"`
	Outer *Outer           `json:"outer,omitempty"`
}

// +default={"name":"a"}
type DefaultedNode struct {
	Name string         `json:"name,omitempty"`
	Next *DefaultedNode `json:"next,omitempty"`
}

// +default={}
type DefaultedTree struct {
	Children []*DefaultedTree `json:"children,omitempty"`
}

type FieldNode struct {
	// +default={}
	Next *FieldNode `json:"next,omitempty"`
	// +kubebuilder:default={}
	Other *FieldNode `json:"other,omitempty"`
	// +default={"name":"x"}
	Leaf *Leaf `json:"leaf,omitempty"`
}

type UsesDefaultedNode struct {
	// +default={"name":"b"}
	Own  *DefaultedNode `json:"own,omitempty"`
	Type *DefaultedNode `json:"type,omitempty"`
}

// Multi has a long cycle first and a short one second: the short one is
// named.
type Multi struct {
	Long *MultiB `json:"long,omitempty"`
	Self *Multi  `json:"self,omitempty"`
}

type MultiB struct {
	Back *Multi `json:"back,omitempty"`
}

// Twice has two cycles of one length: the first is named.
type Twice struct {
	X *Twice `json:"x,omitempty"`
	Y *Twice `json:"y,omitempty"`
}
