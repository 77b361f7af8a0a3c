// Package v1 is KEP-1929 "String maps without default".
// +kubebuilder:object:generate=true
// +groupName=stringmapsnodefault.kep.example.com
package v1
