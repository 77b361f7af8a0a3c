// Package ignoredfielddefault: a default marker on a field that
// encoding/json ignores is an error, not dropped without a word.
//
// +kubebuilder:validation:Optional
package ignoredfielddefault

type Spec struct {
	// +default="x"
	Skipped string `json:"-"` // want `^error: Spec.Skipped: \+default="x": the field is tagged .json:"-".: encoding/json ignores it and controller-gen leaves it out of the CRD, so the default applies to nothing. Fix: remove the marker, or give the field a json name \[ignored-field-default\]$`

	// +kubebuilder:default=3
	hidden int32 `json:"hidden,omitempty"` // want `^error: Spec.hidden: \+kubebuilder:default=3: the field is unexported: encoding/json ignores it, so no Go client sends or reads it, while controller-gen writes it into the CRD`

	// +default="y"
	Kept string `json:"kept,omitempty"`
}
