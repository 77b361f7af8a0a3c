// Package unknownmarker: a +kubebuilder: marker that no generator
// defines, which controller-gen ignores.
//
// +kubebuilder:validation:Optional
package unknownmarker

// +kubebuilder:oneOf:={required:{port}} // want `^warning: Spec: \+kubebuilder:oneOf: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; for a choice among a struct's fields, write \+kubebuilder:validation:ExactlyOneOf=<field>;<field> on the struct; for any other rule, \+kubebuilder:validation:XValidation \(CEL\) \[unknown-marker\]$`
type Spec struct {
	// +kubebuilder:validation:maximum=65535 // want `^warning: Spec.Port: \+kubebuilder:validation:maximum: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; did you mean \+kubebuilder:validation:Maximum\? \[unknown-marker\]$`
	Port int32 `json:"port,omitempty"`

	// +kubebuilder:default:8080 // want `^warning: Spec.Listen: \+kubebuilder:default:8080: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; did you mean \+kubebuilder:default=8080\? \[unknown-marker\]$`
	Listen int32 `json:"listen,omitempty"`

	// +kubebuilder:not:={required:{port}} // want `^warning: Spec.Tags: \+kubebuilder:not: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; remove it, or write what it means with a marker controller-gen defines \(\+kubebuilder:validation:XValidation for a rule in CEL\) \[unknown-marker\]$`
	Tags []string `json:"tags,omitempty"`

	// markers that exist, kubebuilder's own, and other tools' are not reported
	// +kubebuilder:validation:Maximum=65535
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:docs-gen:collapse=Hosts
	// +k8s:listType=atomic
	// +listType=atomic
	Hosts []string `json:"hosts,omitempty"`
}
