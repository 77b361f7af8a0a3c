package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// KEP-1929 "Non-pointer structs", the forbidden example.
type NonPointer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec NonPointerRoot `json:"spec"` // want `implicit default \{\} \(non-pointer struct\) skipped.*default.entry: Required value`
}

type NonPointerRoot struct {
	// Defaults on non-pointer structs are FORBIDDEN:
	// +default={"name": "entry", "number": 12}
	Entry NonPointerSubLevel `json:"entry"` // want `\+default=\{"name":"entry","number":12\} on a non-pointer struct: only \{\} is allowed`
}

type NonPointerSubLevel struct {
	Name   string `json:"name,omitempty"`
	Number int    `json:"number"`
}

// KEP-1929 "Non-pointer scalar fields", the Invalid type.
type Invalid struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InvalidSpec `json:"spec"` // want `implicit default \{\} \(non-pointer struct\) skipped.*default.name: Required value`
}

type InvalidSpec struct {
	// This field is NOT omit-empty, and CRD and built-in defaulting would differ,
	// even when going through Golang types on the client
	// +default="default-name"
	Name string `json:"name"` // want `\+default="default-name" is not the zero value "", and without omitempty`
}

// Errors in marker values.
type BadMarker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BadMarkerSpec `json:"spec"` // want `implicit default \{\} \(non-pointer struct\) skipped.*default.window: Required value`
}

type BadMarkerSpec struct {
	// +default=TCP
	Unquoted string `json:"unquoted,omitempty"` // want `\+default=TCP is not valid JSON`

	// +default=ref(NoSuchConstant)
	Unresolved string `json:"unresolved,omitempty"` // want `\+default=ref\(NoSuchConstant\): no constant NoSuchConstant in package`

	// +default=ref(k8s.io/api/core/v1.ProtocolTCP)
	NotImported string `json:"notImported,omitempty"` // want `package "k8s.io/api/core/v1" is not imported`

	// +default="three"
	Count int32 `json:"count,omitempty"` // want `the field's schema type is integer, the default is a JSON string`

	// +default=1
	// +kubebuilder:default=2
	Twice int32 `json:"twice,omitempty"` // want `two different defaults: \+default=1 and \+kubebuilder:default=2`

	// +default=null
	Null *string `json:"null,omitempty"` // want `default null is ignored by the apiserver`

	// A type-level default on a struct used as a non-pointer field.
	Window Window `json:"window"` // want `\+default on type Window=\{"size":3\} on a non-pointer struct`

	// A type-level default of the wrong type, used by list items.
	Sizes []Size `json:"sizes,omitempty"`
}

// +default={"size": 3}
type Window struct {
	Size int `json:"size,omitempty"`
}

// +default="large"
type Size int // want `\+default on type Size="large": the field's schema type is integer`
