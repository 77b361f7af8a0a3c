// Package optpkg makes its fields optional unless they say otherwise, as
// controller-gen reads +kubebuilder:validation:Optional on a package.
// +kubebuilder:validation:Optional
package optpkg

type Fields struct {
	Plain string `json:"plain"`
	// +required
	Required string `json:"required"`
	// +kubebuilder:validation:Required
	KubebuilderRequired string `json:"kubebuilderRequired,omitempty"`
}
