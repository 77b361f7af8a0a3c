package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Approval struct { // want `Approval: CRD approvals.protected.k8s.io: metadata.annotations\[api-approved.kubernetes.io\]: Required value.*\[apiserver\]`
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec *ApprovalSpec `json:"spec,omitempty"`
}

type ApprovalSpec struct {
	Reviewer string `json:"reviewer,omitempty"`
}
