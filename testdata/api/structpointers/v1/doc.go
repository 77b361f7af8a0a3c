// Package v1 is KEP-1929 "Struct pointers".
// +kubebuilder:object:generate=true
// +groupName=structpointers.kep.example.com
package v1
