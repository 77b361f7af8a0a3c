// Package fixall has every fixable finding, two on one field, in
// gofmt-aligned structs: -fix applies them all and formats the file again.
// Name's "" is valid: its fix is a pointer; Number's 0 is not: omitempty.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package fixall

type Root struct {
	// +default={"text": "entry"}
	Entry SubLevel `json:"entry,omitempty" protobuf:"bytes,1,opt,name=entry"`
	Other SubLevel `json:"other,omitempty"`
	// +default="default-name"
	Name string `json:"name"`
	// +default=TCP
	Unquoted string `json:"unquoted,omitempty"`
}

type SubLevel struct {
	// +default=3
	// +kubebuilder:validation:Minimum=1
	Number int    `json:"number"`
	Text   string `json:"text,omitempty"`
}
