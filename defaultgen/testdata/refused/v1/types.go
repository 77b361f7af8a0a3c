// Package v1 holds a shape the defaults generator refuses: a default
// inside an embedded pointer to an unexported struct, which encoding/json
// cannot allocate.
// +groupName=refused.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Refused is the kind.
// +kubebuilder:object:root=true
type Refused struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RefusedSpec `json:"spec,omitzero"`
}

// DeepCopyObject copies the object as deeply as the tests need.
func (in *Refused) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

// RefusedSpec embeds a pointer to an unexported struct.
type RefusedSpec struct {
	*inner `json:",inline"`
}

type inner struct {
	// +optional
	// +default="x"
	S string `json:"s,omitempty"`
}
