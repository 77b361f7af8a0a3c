// Package invaliddefault: a +default value is one-line JSON.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package invaliddefault

type Spec struct {
	// +default=TCP
	Unquoted string `json:"unquoted,omitempty"` // want `^error: Spec.Unquoted: \+default=TCP is not valid JSON \(invalid character 'T' looking for beginning of value\). The value is one-line JSON: strings need double quotes, e.g. \+default="TCP"; or use ref\(Name\) for a Go constant \[invalid-default\]$`

	// +default={"a": 1
	Truncated *Pair `json:"truncated,omitempty"` // want `^error: Spec.Truncated: \+default=\{"a": 1 is not valid JSON`

	// +default="TCP"
	Quoted string `json:"quoted,omitempty"`

	// A bad default on a type, reported where the type is declared.
	Level Level `json:"level,omitempty"`
}

type Pair struct {
	A int `json:"a,omitempty"`
}

// +default=high
type Level string // want `^error: Level: \+default=high is not valid JSON`
