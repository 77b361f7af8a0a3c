// Package stale is an API package after a failed `make generate`: types.go
// has changed, zz_generated.deepcopy.go has not, so the package does not
// compile. lint reports each type error once, at its file and line, and
// exits 2.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package stale

// Spec lost its fields Replicas and Template.
type Spec struct {
	// name of the spec.
	// +optional
	Name string `json:"name,omitempty"`
}

func resize(n int) int { return n }
