package rules

// +kubebuilder:validation:Enum=Fast;Slow
type Speed string

// ZeroValid has non-zero defaults on scalars without omitempty, whose zero
// value the field's validation accepts or refuses.
type ZeroValid struct {
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +optional
	MinZero int32 `json:"minZero"`
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +optional
	MinOne int32 `json:"minOne"`
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +optional
	Exclusive int32 `json:"exclusive"`
	// +kubebuilder:default=-1
	// +kubebuilder:validation:Maximum=-1
	// +optional
	MaxNegative int32 `json:"maxNegative"`
	// +kubebuilder:default="a"
	// +kubebuilder:validation:MinLength=1
	// +optional
	MinLength string `json:"minLength"`
	// +kubebuilder:default="a"
	// +kubebuilder:validation:Pattern=`^[a-z]+$`
	// +optional
	Pattern string `json:"pattern"`
	// +kubebuilder:default="a"
	// +kubebuilder:validation:Pattern=`^[a-z]*$`
	// +optional
	PatternEmpty string `json:"patternEmpty"`
	// +kubebuilder:default="Fast"
	// +optional
	TypeEnum Speed `json:"typeEnum"`
	// +kubebuilder:default=true
	// +kubebuilder:validation:Enum=true
	// +optional
	BoolEnum bool `json:"boolEnum"`
}

// OmitzeroDefault has a whole-struct default on an omitzero struct.
type OmitzeroDefault struct {
	// +kubebuilder:default={"name":"x"}
	// +optional
	Sub Sub `json:"sub,omitzero"`
}
