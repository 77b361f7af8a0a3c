package rules

// +k8s:default="typed"
type K8sTyped string

// K8s holds +k8s:default, declarative validation's name for +default.
type K8s struct {
	// +k8s:default="x"
	// +optional
	Alone string `json:"alone,omitempty"`
	// +default="x"
	// +k8s:default="x"
	// +optional
	Agree string `json:"agree,omitempty"`
	// +default="x"
	// +k8s:default="y"
	// +optional
	Conflict string `json:"conflict,omitempty"`
	// +k8s:default="x"
	// +kubebuilder:default="y"
	// +optional
	Kubebuilder string `json:"kubebuilder,omitempty"`
	// +k8s:default="x"
	// +optional
	NoOmitempty string `json:"noOmitempty"`
	// +optional
	Typed K8sTyped `json:"typed,omitempty"`
}
