// Package structdefaultnotempty: KEP-1929 "Non-pointer structs": a +default
// on a non-pointer struct must be {}.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package structdefaultnotempty

type Root struct {
	// The KEP's forbidden example.
	// +default={"name": "entry", "number": 12}
	Entry SubLevel `json:"entry"` // want `^error: Root.Entry: \+default=\{"name":"entry","number":12\} on a non-pointer struct: only \{\} is allowed, because Go clients always send the struct. Make the field a pointer to give it a default, or put defaults on the struct's own fields \[struct-default-not-empty\]$`

	// {} is what Go clients send: allowed.
	// +default={}
	Empty SubLevel `json:"empty"`

	// A pointer may have any default.
	// +default={"name": "entry"}
	Pointer *SubLevel `json:"pointer,omitempty"`

	// A default on the struct's type, used by a non-pointer field.
	Window Window `json:"window"` // want `^error: Root.Window: \+default on type Window=\{"size":3\} on a non-pointer struct: only \{\} is allowed`

	// controller-gen's marker keeps its meaning: a warning.
	// +kubebuilder:default={"name": "kb"}
	Kubebuilder SubLevel `json:"kubebuilder" yaml:"kubebuilder"` // want `^warning: Root.Kubebuilder: \+kubebuilder:default=\{"name":"kb"\} on a non-pointer struct`
}

type SubLevel struct {
	Name   string `json:"name,omitempty"`
	Number int    `json:"number,omitempty"`
}

// +default={"size": 3}
type Window struct {
	Size int `json:"size,omitempty"`
}
