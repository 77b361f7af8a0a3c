// Package warningsev: with -rules=default-type-mismatch=warning,
// default-type-mismatch's findings are warnings.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package warningsev

type Spec struct {
	// +default="three"
	Count int32 `json:"count,omitempty"` // want `^warning: Spec.Count: \+default="three": the field's schema type is integer, the default is a JSON string \[default-type-mismatch\]$`
}
