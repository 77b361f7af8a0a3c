// Package v1 declares the names the generated file declares as its API
// (RegisterDefaults, DeclarativeDefaulter, SetObjectDefaults_<Kind>): the
// defaults generator refuses it, at each declaration.
// +groupName=clash.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Clash is the kind.
// +kubebuilder:object:root=true
type Clash struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ClashSpec `json:"spec,omitzero"`
}

// DeepCopyObject copies the object as deeply as the tests need.
func (in *Clash) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

// ClashSpec has a default.
type ClashSpec struct {
	// +optional
	// +default="x"
	S string `json:"s,omitempty"`
}

// RegisterDefaults is written by hand.
func RegisterDefaults(*runtime.Scheme) error { return nil }

// DeclarativeDefaulter is a type of the package.
type DeclarativeDefaulter int

// SetObjectDefaults_Clash is a variable of the package.
var SetObjectDefaults_Clash = 0
