// Package stale is an API package after a failed `make generate`: types.go
// has changed, zz_generated.deepcopy.go has not, so the package does not
// compile. lint reads its types as the crd generator does, and says what
// crd says: nothing.
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
