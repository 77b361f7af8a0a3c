// Package v1 is one version of a kind served in two versions; each
// version's schema gets the defaults of its own Go types.
// +kubebuilder:object:generate=true
// +groupName=multi.example.com
package v1
