// Package v1 is KEP-1929 "Lists without default".
// +kubebuilder:object:generate=true
// +groupName=listsnodefault.kep.example.com
package v1
