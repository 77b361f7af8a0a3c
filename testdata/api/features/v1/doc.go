// Package v1 is a tour of the generator: ref(), type-level defaults, opt-outs, known types, warnings.
// +kubebuilder:object:generate=true
// +groupName=features.example.com
package v1
