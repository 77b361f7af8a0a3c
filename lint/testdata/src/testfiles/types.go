// Package testfiles: the crd generator reads no _test.go file, so neither
// do the analyzers, although go vet and golangci-lint hand them the
// package with its tests. types_test.go's Fixture breaks omitempty-struct
// and is not reported.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package testfiles

type SubLevel struct {
	Name string `json:"name,omitempty"`
}
