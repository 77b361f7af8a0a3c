// Package v1 is a kubebuilder scaffold's API with what the crd generator
// does not read beside what it reads: a List type (its ListMeta tagged
// omitempty, as every scaffold writes it), a helper type that no kind
// reaches, the metadata of an embedded resource, and the inside of a
// schema-less field. `controller-gen-default lint` must report exactly
// what `crd` reports here (TestLintIsTheGenerator).
// +kubebuilder:object:generate=true
// +groupName=scope.example.com
package v1
