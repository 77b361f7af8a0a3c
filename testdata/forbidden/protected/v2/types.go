package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Approval struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec *ApprovalSpec `json:"spec,omitempty"`
}

type ApprovalSpec struct {
	Reviewers []string `json:"reviewers,omitempty"`
}
