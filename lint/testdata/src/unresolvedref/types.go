// Package unresolvedref: +default=ref(...) names a Go constant.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package unresolvedref

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const DefaultProtocol = "TCP"

type Spec struct {
	// +default=ref(NoSuchConstant)
	Missing string `json:"missing,omitempty"` // want `^error: Spec.Missing: \+default=ref\(NoSuchConstant\): no constant NoSuchConstant in package github.com/controller-gen-default/controller-gen-default/lint/testdata/src/unresolvedref \[unresolved-ref\]$`

	// +default=ref(k8s.io/api/core/v1.ProtocolTCP)
	NotImported string `json:"notImported,omitempty"` // want `^error: Spec.NotImported: \+default=ref\(k8s.io/api/core/v1.ProtocolTCP\): package "k8s.io/api/core/v1" is not imported`

	// +default=ref(DefaultProtocol)
	Local string `json:"local,omitempty"`

	// +default=ref(k8s.io/apimachinery/pkg/apis/meta/v1.NamespaceDefault)
	Imported string `json:"imported,omitempty"`

	Meta metav1.ObjectMeta `json:"metadata,omitzero"`
}
