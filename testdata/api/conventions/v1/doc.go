// Package v1 follows today's API conventions, as kube-api-linter and a
// current kubebuilder scaffold write them: +optional or +required on every
// field, optional structs tagged omitzero, and MinProperties=1 on structs
// whose empty value means nothing. The generator writes no warning here.
// +kubebuilder:object:generate=true
// +groupName=conventions.example.com
package v1
