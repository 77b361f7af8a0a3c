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
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TourSpec   `json:"spec,omitempty"` // want `omitempty has no effect on a non-pointer struct`
	Status TourStatus `json:"status,omitzero"`
}

type TourSpec struct {
	// A constant of this package.
	// +default=ref(DefaultProtocol)
	Protocol Protocol `json:"protocol,omitempty"`

	// A constant of an imported package.
	// +default=ref(k8s.io/api/core/v1.ProtocolUDP)
	PeerProtocol corev1.Protocol `json:"peerProtocol,omitempty"`

	// No omitempty, and "" is not in the enum: no implicit default.
	Mode Protocol `json:"mode"` // want `implicit default "" \(zero value: the field has no omitempty\) skipped.*Unsupported value`

	// The author wants clients to send it: no implicit default.
	// +required
	Replicas int32 `json:"replicas"`

	// Types with their own JSON encoding, from the table of known zero values.
	Quantity resource.Quantity  `json:"quantity"`
	Timeout  metav1.Duration    `json:"timeout"`
	Port     intstr.IntOrString `json:"port"`
	// metav1.Time encodes its zero value as null: no default.
	Started metav1.Time `json:"started"`

	// omitzero counts as omitempty: no implicit default.
	Weight int `json:"weight,omitzero"`

	// controller-gen's own marker keeps its syntax.
	// +kubebuilder:default=5
	Retries int32 `json:"retries,omitempty"`

	// A type-level default, used by a pointer field.
	Backoff *Backoff `json:"backoff,omitempty"`

	// A type-level default on a scalar type, used by a field, list items and map values.
	Tier      Tier            `json:"tier,omitempty"`
	Tiers     []Tier          `json:"tiers,omitempty"`
	TierByApp map[string]Tier `json:"tierByApp,omitempty"`

	// A struct with a required child that can have no default: its {} is skipped.
	Strict Strict `json:"strict"` // want `implicit default \{\} \(non-pointer struct\) skipped.*default.protocol: Required value`

	// An empty value refused by MinProperties=1, which Go clients always
	// send without omitzero: no default, and the fix is omitzero.
	Sails Sails `json:"sails"` // want `implicit default \{\} \(non-pointer struct\) skipped.*should have at least 1 properties. Fix: the schema refuses an empty object.*add omitzero`

	// The same struct, omitzero: absent and empty are one value. No
	// default, no warning.
	// +optional
	Spare Sails `json:"spare,omitzero"`

	// A default that leaves out a field Go clients always send (Name, +required
	// so without a default of its own): written as they encode it,
	// {"name":"","port":80}, so that the CRD and Go store the same object.
	// +default={"port": 80}
	Endpoint *Endpoint `json:"endpoint,omitempty"`

	// An opted-out subtree: nothing implicit below this field.
	// +implicitDefaults=false
	Quiet Settings `json:"quiet"`

	// The same type with implicit defaults.
	Loud Settings `json:"loud"`

	// An opted-out type: nothing implicit in its fields, wherever it is used.
	Silent Silent `json:"silent"`

	Labels map[string]string `json:"labels,omitempty"`
}

// Backoff has a type-level default; a pointer to it may have any default.
// +default={"limit": 3}
type Backoff struct {
	Limit int32 `json:"limit,omitempty"`
	// +default="exponential"
	Strategy string `json:"strategy,omitempty"`
}

// +default="gold"
type Tier string

type Strict struct {
	// Required, with no possible default.
	Protocol Protocol `json:"protocol"` // want `implicit default "" \(zero value: the field has no omitempty\) skipped.*Unsupported value`
	Count    int      `json:"count"`
}

type Endpoint struct {
	// +required
	Name string `json:"name"`
	// +optional
	Port int32 `json:"port,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Sails struct {
	// +optional
	Count *int32 `json:"count,omitempty"`
}

type Settings struct {
	Enabled bool   `json:"enabled"`
	Level   int    `json:"level"`
	Name    string `json:"name"`
}

// +implicitDefaults=false
type Silent struct {
	Enabled bool `json:"enabled"`
}

type TourStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// Gadget is a second kind that shares Strict with Tour: its findings are
// reported once, not once per CRD.
// +kubebuilder:object:root=true
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec"` // want `implicit default \{\} \(non-pointer struct\) skipped.*default.strict: Required value`
}

type GadgetSpec struct {
	Strict Strict `json:"strict"` // want `implicit default \{\} \(non-pointer struct\) skipped.*default.protocol: Required value`

	// An embedded resource: its metadata, apiVersion and kind get no default.
	// +kubebuilder:validation:EmbeddedResource
	Claim EmbeddedClaim `json:"claim"`

	// A subtree that keeps unknown fields and declares none: no default.
	Blob Opaque `json:"blob"`
}

// +kubebuilder:object:root=true
type EmbeddedClaim struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Replicas        int32             `json:"replicas"`
}

// +kubebuilder:pruning:PreserveUnknownFields
type Opaque struct{}
