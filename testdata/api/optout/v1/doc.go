// Package v1 turns implicit defaults off for the whole package; explicit
// +default markers still apply.
// +kubebuilder:object:generate=true
// +groupName=optout.example.com
// +implicitDefaults=false
package v1
