// Package b declares types with defaults that package a uses.
package b

// +default=high
type Level string

type BSpec struct {
	Level Level `json:"level,omitempty"`
}

// +default={"size": 3}
type Window struct {
	Size int `json:"size,omitempty"`
}
