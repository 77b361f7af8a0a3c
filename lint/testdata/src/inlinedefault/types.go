// Package inlinedefault: a default on an inline field sets nothing.
//
// +kubebuilder:validation:Optional
package inlinedefault

type Spec struct {
	// +default={"inner":"x"}
	Embedded `json:",inline"` // want `^error: Spec.Embedded: \+default=\{"inner":"x"\} on an inline field sets nothing: Embedded has no property of its own, its fields are Spec's. Put the default on the fields of Embedded \(\+default="x" on Embedded.Inner\), on a field of type Spec, or on type Spec itself \[inline-default\]$`
}

type Other struct {
	// a default on the embedded type's field is the fix
	Fixed `json:",inline"`
}

type Embedded struct {
	Inner string `json:"inner,omitempty"`
}

type Fixed struct {
	// +default="x"
	Inner string `json:"inner,omitempty"`
}
