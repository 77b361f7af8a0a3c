package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// DefaultProtocol is the default of TourSpec.Protocol, named by ref().
const DefaultProtocol Protocol = "TCP"

// Protocol is an enum whose zero value "" is not allowed.
// +kubebuilder:validation:Enum=TCP;UDP
type Protocol string

// Tour shows each default the generator writes, and each warning.
// +kubebuilder:subresource:status
// +kubebuilder:object:root=true
type Tour struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state; its omitempty is the omitempty-struct warning.
	// +optional
	Spec TourSpec `json:"spec,omitempty"` // want `omitempty has no effect on a non-pointer struct`
	// status is the observed state.
	// +optional
	Status TourStatus `json:"status,omitzero"`
}

type TourSpec struct {
	// protocol defaults to a constant of this package.
	// +optional
	// +default=ref(DefaultProtocol)
	Protocol Protocol `json:"protocol,omitempty"`

	// peerProtocol defaults to a constant of an imported package.
	// +optional
	// +default=ref(k8s.io/api/core/v1.ProtocolUDP)
	PeerProtocol corev1.Protocol `json:"peerProtocol,omitempty"`

	// mode has no omitempty, and "" is not in the enum: no implicit default.
	// +optional
	Mode Protocol `json:"mode"` // want `implicit default "" \(zero value: the field has no omitempty\) skipped: the apiserver would reject it: the default "" is not one of the values the schema allows, "TCP", "UDP" \(enum\)`

	// replicas is one the author wants clients to send: no implicit default.
	// +required
	Replicas int32 `json:"replicas"`

	// quantity has its own JSON encoding, from the table of known zero values.
	// +optional
	Quantity resource.Quantity `json:"quantity"`
	// timeout has its own JSON encoding, from the table of known zero values.
	// +optional
	Timeout metav1.Duration `json:"timeout"`
	// port has its own JSON encoding, from the table of known zero values.
	// +optional
	Port intstr.IntOrString `json:"port"`
	// started is a metav1.Time, which encodes its zero value as null: no default.
	// +optional
	Started metav1.Time `json:"started"`

	// weight has omitzero, which counts as omitempty: no implicit default.
	// +optional
	Weight int `json:"weight,omitzero"`

	// retries has controller-gen's own marker, which keeps its syntax.
	// +optional
	// +kubebuilder:default=5
	Retries int32 `json:"retries,omitempty"`

	// maxBytes keeps every digit of its default, 2^63-1, in the CRD and in
	// Go: a float64 (and controller-gen v0.23.0) rounds it to
	// 9223372036854775808, which no int64 holds.
	// +optional
	// +default=9223372036854775807
	MaxBytes int64 `json:"maxBytes,omitempty"`

	// backoff uses a type-level default, as a pointer field.
	// +optional
	Backoff *Backoff `json:"backoff,omitempty"`

	// tier uses the type-level default of a scalar type, as a field.
	// +optional
	Tier Tier `json:"tier,omitempty"`
	// tiers uses the type-level default of a scalar type, in list items.
	// +optional
	Tiers []Tier `json:"tiers,omitempty"`
	// tierByApp uses the type-level default of a scalar type, in map values.
	// +optional
	TierByApp map[string]Tier `json:"tierByApp,omitempty"`

	// strict is a struct with a required child: {} is not a valid value, so
	// it gets no default, and no warning (the child is meant to be sent).
	// +optional
	Strict Strict `json:"strict"`

	// sails has an empty value refused by MinProperties=1, which Go clients
	// always send without omitzero: no default, and the fix is omitzero.
	// +optional
	Sails Sails `json:"sails"` // want `implicit default \{\} \(non-pointer struct\) skipped: the apiserver would reject it: the default \{\} has 0 properties; the schema requires at least 1 \(minProperties\). Fix: the schema refuses an empty object.*add omitzero`

	// spare is the same struct, omitzero: absent and empty are one value. No
	// default, no warning.
	// +optional
	Spare Sails `json:"spare,omitzero"`

	// endpoint has a default that leaves out a field Go clients always send
	// (Name, +required so without a default of its own): written as they
	// encode it, {"name":"","port":80}, so that the CRD and Go store the same
	// object.
	// +optional
	// +default={"port": 80}
	Endpoint *Endpoint `json:"endpoint,omitempty"`

	// quiet is an opted-out subtree: nothing implicit below this field.
	// +optional
	// +implicitDefaults=false
	Quiet Settings `json:"quiet"`

	// loud is the same type with implicit defaults.
	// +optional
	Loud Settings `json:"loud"`

	// silent is of an opted-out type: nothing implicit in its fields, wherever it is used.
	// +optional
	Silent Silent `json:"silent"`

	// labels are free-form labels.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// Backoff has a type-level default; a pointer to it may have any default.
// +default={"limit": 3}
type Backoff struct {
	// limit is the number of retries.
	// +optional
	Limit int32 `json:"limit,omitempty"`
	// strategy defaults to "exponential".
	// +optional
	// +default="exponential"
	Strategy string `json:"strategy,omitempty"`
}

// +default="gold"
type Tier string

// Region shows a default written as a field marker on a type, which
// controller-gen ignores: +default on the type is KEP-1929's way.
// +kubebuilder:default=eu // want `Region: \+kubebuilder:default is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; write \+default=<the value in JSON> on the type instead, .* \[misplaced-marker\]`
type Region string

type Strict struct {
	// protocol is required: no implicit default.
	Protocol Protocol `json:"protocol"`
	// count gets the implicit default 0.
	// +optional
	Count int `json:"count"`
}

type Endpoint struct {
	// name has no default of its own.
	// +required
	Name string `json:"name"`
	// port is the endpoint's port.
	// +kubebuilder:validation:maximum=65535 // want `Endpoint.Port: \+kubebuilder:validation:maximum: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; did you mean \+kubebuilder:validation:Maximum\? \[unknown-marker\]`
	// +optional
	Port int32 `json:"port,omitempty"`
}

// +kubebuilder:oneOf:={required:{count}} // want `Sails: \+kubebuilder:oneOf: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; for a choice among a struct's fields, write \+kubebuilder:validation:ExactlyOneOf=<field>;<field> on the struct; for any other rule, \+kubebuilder:validation:XValidation \(CEL\) \[unknown-marker\]`
// +kubebuilder:validation:MinProperties=1
type Sails struct {
	// count is the number of sails.
	// +optional
	Count *int32 `json:"count,omitempty"`
}

type Settings struct {
	// enabled gets the implicit default false, unless opted out.
	// +optional
	Enabled bool `json:"enabled"`
	// level gets the implicit default 0, unless opted out.
	// +optional
	Level int `json:"level"`
	// name gets the implicit default "", unless opted out.
	// +optional
	Name string `json:"name"`
}

// +implicitDefaults=false
type Silent struct {
	// enabled gets no implicit default: its type opts out.
	// +optional
	Enabled bool `json:"enabled"`
}

type TourStatus struct {
	// conditions are the tour's conditions.
	// +patchStrategy=merge
	// +patchMergeKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
	// observedGeneration is the generation the status is about.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Gadget is a second kind that shares Strict with Tour: its findings are
// reported once, not once per CRD.
// +kubebuilder:object:root=true
type Gadget struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is required: no implicit default.
	Spec GadgetSpec `json:"spec"`
}

type GadgetSpec struct {
	// strict is shared with Tour, and required here.
	Strict Strict `json:"strict"`

	// claim is an embedded resource: its metadata, apiVersion and kind get no default.
	// +kubebuilder:validation:EmbeddedResource
	Claim EmbeddedClaim `json:"claim"`

	// blob is a subtree that keeps unknown fields and declares none: no default.
	Blob Opaque `json:"blob"`
}

// +kubebuilder:object:root=true
type EmbeddedClaim struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the embedded object's metadata.
	Metadata metav1.ObjectMeta `json:"metadata"`
	// replicas is the embedded object's replicas.
	Replicas int32 `json:"replicas"`
}

// +kubebuilder:pruning:PreserveUnknownFields
type Opaque struct{}
