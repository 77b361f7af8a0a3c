// Package v1 is KEP-1929 "Non-pointer scalar fields" (the valid Object type).
// +kubebuilder:object:generate=true
// +groupName=scalars.kep.example.com
package v1
