// Package unversioned holds a kind without a +groupName, as open policy
// agent gatekeeper v3.23.1's apis/mutations/unversioned does (its `make
// manifests` runs crd on ./apis/... and commits the files): controller-gen
// writes a CRD with no group, "_widgets.yaml", which no apiserver accepts;
// crd writes it too, unchecked, and warns.
package unversioned

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Widget struct { // want `warning: Widget: CRD widgets\.: its package declares no \+groupName, so the CRD has no group and no apiserver accepts it \(spec\.group: Required value\); written without the apiserver's checks \(controller-gen writes it too\)\. To make it a CRD, add // \+groupName=<group> to the package's doc comment; else leave the package out of paths \[crd-without-group\]`
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WidgetSpec `json:"spec,omitzero"`
}

type WidgetSpec struct {
	// +optional
	Count int32 `json:"count"`
}
