// Package buildtags: the analyzers see the files of the build the driver
// analyses. tagged.go is in the build only with -tags kepdefaults_tagged,
// untagged.go only without; each holds a forbidden default (KEP-1929
// "Non-pointer structs"), reported in its build alone.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package buildtags

type SubLevel struct {
	Name string `json:"name,omitempty"`
}
