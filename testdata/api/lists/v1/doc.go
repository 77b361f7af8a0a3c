// Package v1 is KEP-1929 "Lists".
// +kubebuilder:object:generate=true
// +groupName=lists.kep.example.com
package v1
