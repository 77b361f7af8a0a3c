// Package v1 has the shape of karpenter's NodePool disruption settings
// (sigs.k8s.io/karpenter pkg/apis/v1): a duration wrapper with its own
// MarshalJSON and UnmarshalJSON ("Never" for nil), schema-less with
// +kubebuilder:validation:Type=string, defaulted with +kubebuilder:default,
// alone and as a key inside an object default.
// +kubebuilder:object:generate=true
// +groupName=ownencoding.example.com
package v1

import (
	"encoding/json"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const never = "Never"

// NillableDuration is a time.Duration that is nil, "Never", when unset.
type NillableDuration struct {
	*time.Duration
}

func (d *NillableDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == never {
		d.Duration = nil
		return nil
	}
	p, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = &p
	return nil
}

func (d NillableDuration) MarshalJSON() ([]byte, error) {
	if d.Duration == nil {
		return json.Marshal(never)
	}
	return json.Marshal(d.Duration.String())
}

type Disruption struct {
	// consolidateAfter is how long to wait before consolidating.
	// +kubebuilder:default="0s"
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Pattern=`^(([0-9]+(s|m|h))+|Never)$`
	// +optional
	ConsolidateAfter NillableDuration `json:"consolidateAfter"`
	// budgets bound how many nodes are disrupted at once.
	// +kubebuilder:default={{nodes: "10%"}}
	// +kubebuilder:validation:MaxItems=50
	// +optional
	Budgets []Budget `json:"budgets,omitempty"`
}

type Budget struct {
	// +kubebuilder:validation:Pattern:="^((100|[0-9]{1,2})%|[0-9]+)$"
	// +kubebuilder:default:="10%"
	// +optional
	Nodes string `json:"nodes,omitempty"`
	// duration is how long the budget is active.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Schemaless
	// +optional
	Duration *NillableDuration `json:"duration,omitempty"`
}

type Template struct {
	// expireAfter is the lifetime of a node.
	// +kubebuilder:default="720h"
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Pattern=`^(([0-9]+(s|m|h))+|Never)$`
	// +optional
	ExpireAfter NillableDuration `json:"expireAfter,omitempty"`
	// terminationGracePeriod, a pointer: the defaults generator would
	// set it, and cannot.
	// +kubebuilder:default="1h"
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Schemaless
	// +optional
	TerminationGracePeriod *NillableDuration `json:"terminationGracePeriod,omitempty"` // want `warning: Template.TerminationGracePeriod: the defaults generator leaves this field unset: the CRD's default "1h" goes into a type of its own encoding \(NillableDuration has its own MarshalJSON`
}

// Hooks holds a value of a type the generator knows (apiextensions' JSON)
// before one it does not: the default it leaves unset imports nothing.
type Hooks struct {
	// +optional
	Raw *apiextensionsv1.JSON `json:"raw,omitempty"`
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Schemaless
	// +optional
	Until NillableDuration `json:"until,omitempty"`
}

type PoolSpec struct {
	// +kubebuilder:default={"raw":{"a":1},"until":"1h"}
	// +optional
	Hooks *Hooks `json:"hooks,omitempty"` // want `warning: PoolSpec.Hooks: the defaults generator leaves this field unset: the CRD's default {"raw":{"a":1},"until":"1h"} goes into a type of its own encoding \(until: NillableDuration has its own MarshalJSON`
	// +optional
	Template Template `json:"template,omitzero"`
	// disruption, defaulted as a whole.
	// +kubebuilder:default={"consolidateAfter":"0s"}
	// +optional
	Disruption *Disruption `json:"disruption,omitempty"` // want `warning: PoolSpec.Disruption: the defaults generator leaves this field unset: the CRD's default {"consolidateAfter":"0s"} goes into a type of its own encoding \(consolidateAfter: NillableDuration has its own MarshalJSON`
}

// +kubebuilder:object:root=true
type Pool struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec PoolSpec `json:"spec,omitzero"`
}
