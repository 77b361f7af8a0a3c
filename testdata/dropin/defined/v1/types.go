// Package v1 embeds common.Inner through an alias, and defines a type
// from it: both have common.Inner's fields and defaults, as encoding/json
// and controller-gen read them.
// +groupName=defined.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/testdata/dropin/defined/common"
)

// Inner is an alias: it is common.Inner.
type Inner = common.Inner

// Defined is a type of its own with common.Inner's fields.
type Defined common.Inner

type WidgetSpec struct {
	Inner `json:",inline"`
	// +optional
	D Defined `json:"d"`
}

// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WidgetSpec `json:"spec,omitzero"`
}
