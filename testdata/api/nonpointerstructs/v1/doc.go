// Package v1 is KEP-1929 "Non-pointer structs".
// +kubebuilder:object:generate=true
// +groupName=nonpointerstructs.kep.example.com
package v1
