// Package common declares a struct type that package v1 embeds through an
// alias and defines a type of its own from.
package common

type Inner struct {
	// +optional
	Count int32 `json:"count"`
	// +optional
	// +default="x"
	Name string `json:"name,omitempty"`
}
