// Package shared holds types that the kinds of package v1 use; it has no
// kind of its own.
package shared

// Box is reached from v1.WidgetSpec.
type Box struct {
	// +optional
	Lid Lid `json:"lid,omitempty"` // want "omitempty-struct"
}

type Lid struct {
	// +optional
	Open bool `json:"open,omitempty"`
}

// Unused is reached by no kind.
type Unused struct {
	// +optional
	Lid Lid `json:"lid,omitempty"`
}
