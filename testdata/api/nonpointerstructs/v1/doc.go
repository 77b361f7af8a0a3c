// Package v1 is KEP-1929 "Non-pointer structs".
//
// The KEP's fields that its tables leave out, and its root type (the spec
// here), say +optional: controller-gen requires a field without omitempty,
// and a property the schema requires gets no implicit default (docs/crd.md,
// "Required fields").
// +kubebuilder:object:generate=true
// +groupName=nonpointerstructs.kep.example.com
package v1
