// Package misplacedmarker: a +kubebuilder: marker written where its
// definition does not apply, which controller-gen ignores.
//
// +kubebuilder:validation:Optional
package misplacedmarker

// Kind selects a kind of verification. (The want comment on the marker's
// line is part of its value here, so the advice shows no value.)
// +kubebuilder:validation:Enum=Cosign;Notary
// +kubebuilder:default=Cosign // want `^warning: Kind: \+kubebuilder:default is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; write \+default=<the value in JSON> on the type instead, which gives every field of type Kind that default \(a type-level default, KEP-1929\), or \+kubebuilder:default on those fields \[misplaced-marker\]$`
type Kind string

// +kubebuilder:validation:Optional

// Spec has a package marker in the comment group right above its doc,
// which controller-tools reads for the package: not reported.
type Spec struct {
	// +kubebuilder:printcolumn:name="Kind",type=string,JSONPath=.spec.kind // want `^warning: Spec.Kind: \+kubebuilder:printcolumn is a marker of types: on a field controller-gen ignores it, so it changes nothing in the CRD; move it to the comment of type Spec \[misplaced-marker\]$`
	Kind Kind `json:"kind,omitempty"`

	// +kubebuilder:default=3
	Count int32 `json:"count,omitempty"`

	// +default="Cosign"
	Fixed Kind `json:"fixed,omitempty"`
}

// Fixed has its default as KEP-1929 writes it on a type.
// +default="Cosign"
type Fixed string
