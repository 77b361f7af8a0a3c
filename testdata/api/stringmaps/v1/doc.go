// Package v1 is KEP-1929 "String Maps".
// +kubebuilder:object:generate=true
// +groupName=stringmaps.kep.example.com
package v1
