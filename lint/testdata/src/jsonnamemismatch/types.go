// Package jsonnamemismatch: a json tag that encoding/json reads otherwise
// than controller-gen is an error.
//
// +kubebuilder:validation:Optional
package jsonnamemismatch

type Spec struct {
	Settings Inner `json:",inline"` // want `^error: Spec.Settings: json tag ",inline": controller-gen writes its fields inline into the CRD, encoding/json \(Go clients\) "Settings": .* Fix: embed the struct to inline it, or write .json:"settings". to keep a key \[json-name-mismatch\]$`

	Named Inner `json:"named,inline"` // want `controller-gen writes its fields inline into the CRD, encoding/json \(Go clients\) "named"`

	Odd string `json:"odd\\name,omitempty"` // want `encoding/json refuses the name "odd\\\\name"`

	Inner `json:",inline"`
}

type Inner struct {
	Port int32 `json:"port,omitempty"`
}
