// Package rules holds the Go types of internal/model's table-driven tests:
// each field is one case of a rule, named after what it shows.
package rules

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/controller-gen-default/controller-gen-default/internal/model/testdata/rules/off"
	"github.com/controller-gen-default/controller-gen-default/internal/model/testdata/rules/optpkg"
)

const DefaultName = "named"

// +default="typed"
type Typed string

// +default="bad
type BadTyped string

// +default={"size":3}
type Window struct {
	Size int `json:"size,omitempty"`
}

// Precedence: the field's +default, then +kubebuilder:default (the two
// must agree), then +default on the field's type, then nothing (implicit
// defaults decide).
type Precedence struct {
	// +default="field"
	FieldOverType Typed `json:"fieldOverType,omitempty"`
	// +kubebuilder:default="kb"
	KubebuilderOverType Typed `json:"kubebuilderOverType,omitempty"`
	// +default="same"
	// +kubebuilder:default="same"
	BothAgree Typed `json:"bothAgree,omitempty"`
	// +default={"a": 1, "b": [true]}
	// +kubebuilder:default={b: {true}, a: 1}
	BothAgreeObject *Object `json:"bothAgreeObject,omitempty"`
	// +default="one"
	// +kubebuilder:default="two"
	BothDiffer Typed `json:"bothDiffer,omitempty"`
	// +default=TCP
	// +kubebuilder:default="TCP"
	BothInvalidField Typed    `json:"bothInvalidField,omitempty"`
	TypeOnly         Typed    `json:"typeOnly,omitempty"`
	TypeOnlyPointer  *Typed   `json:"typeOnlyPointer,omitempty"`
	TypeOnlyStruct   *Window  `json:"typeOnlyStruct,omitempty"`
	BadType          BadTyped `json:"badType,omitempty"`
	// +default="fixes it"
	BadTypeFieldWins BadTyped `json:"badTypeFieldWins,omitempty"`
	None             string   `json:"none,omitempty"`
	// +default=ref(DefaultName)
	Ref string `json:"ref,omitempty"`
	// +default=ref(NoSuchConstant)
	BadRef Typed `json:"badRef,omitempty"`
	// +default=TCP
	Invalid Typed `json:"invalid,omitempty"`
	// +kubebuilder:default={}
	KubebuilderEmptyList []string `json:"kubebuilderEmptyList,omitempty"`
	// +kubebuilder:default={}
	KubebuilderEmptyObject *Object `json:"kubebuilderEmptyObject,omitempty"`
	// +default=1
	// +default=2
	TwoDefaults int `json:"twoDefaults,omitempty"`
	// +default=1
	// +default=1
	SameTwice int `json:"sameTwice,omitempty"`
	// +default={"a": 1, "b": [true]}
	// +default={"b": [true], "a": 1}
	SameValueTwice *Object `json:"sameValueTwice,omitempty"`
	// +default=1
	// +default=oops
	SecondInvalid int `json:"secondInvalid,omitempty"`
	// +kubebuilder:default=1
	// +kubebuilder:default=2
	TwoKubebuilder int `json:"twoKubebuilder,omitempty"`
	// +kubebuilder:default=3
	// +kubebuilder:default=3
	SameKubebuilderTwice int              `json:"sameKubebuilderTwice,omitempty"`
	TwoTypeDefaults      TwoTypeDefaults  `json:"twoTypeDefaults,omitempty"`
	SameTypeDefaultTwice SameTypeDefaults `json:"sameTypeDefaultTwice,omitempty"`
	// +default=3
	FieldOverTwoTypeDefaults TwoTypeDefaults `json:"fieldOverTwoTypeDefaults,omitempty"`
}

// +default=1
// +default=2
type TwoTypeDefaults int

// +default=7
// +default=7
type SameTypeDefaults int

type Object struct {
	A int    `json:"a,omitempty"`
	B []bool `json:"b,omitempty"`
}

// Implicit: the field's +implicitDefaults, then the one on its type, then
// an enclosing field's or type's (inherit), then the package's, then the
// generator option.
type Implicit struct {
	// +implicitDefaults=true
	FieldOnTypeOff OffType `json:"fieldOnTypeOff"`
	// +implicitDefaults=false
	FieldOffTypeOn OnType  `json:"fieldOffTypeOn"`
	TypeOff        OffType `json:"typeOff"`
	TypeOn         OnType  `json:"typeOn"`
	Plain          string  `json:"plain"`
	// +implicitDefaults=false
	FieldOff string `json:"fieldOff"`
	// +implicitDefaults=true
	FieldOn string `json:"fieldOn"`
	// off.Plain's package says +implicitDefaults=false
	OffPackage off.Plain `json:"offPackage"`
	// +implicitDefaults=false
	// +implicitDefaults=true
	FieldBoth string `json:"fieldBoth"`
	// +implicitDefaults=false
	// +implicitDefaults=false
	FieldTwice string `json:"fieldTwice"`
}

// +implicitDefaults=false
type OffType struct {
	A string `json:"a"`
}

// +implicitDefaults=true
type OnType struct {
	A string `json:"a"`
}

// +implicitDefaults=true
// +implicitDefaults=false
type BothType struct {
	A string `json:"a"`
}

// Rules: KEP-1929's rules on explicit defaults and tags.
// Rules: a field with a default and no omitempty is +optional unless it
// shows requiredness (defaultOnRequired): controller-gen requires it
// otherwise.
type Rules struct {
	// +optional
	// +default={}
	StructEmpty Sub `json:"structEmpty"`
	// +optional
	// +default={"name":"x"}
	StructNotEmpty Sub `json:"structNotEmpty"`
	// +optional
	// +kubebuilder:default={"name":"x"}
	StructNotEmptyKubebuilder Sub `json:"structNotEmptyKubebuilder"`
	// +default={"name":"x"}
	StructPointer *Sub `json:"structPointer,omitempty"`
	// +optional
	// +default="x"
	NoOmitempty string `json:"noOmitempty"`
	// +optional
	// +default=""
	NoOmitemptyZero string `json:"noOmitemptyZero"`
	// +optional
	// +default=0
	NoOmitemptyZeroInt int32 `json:"noOmitemptyZeroInt"`
	// +optional
	// +default=false
	NoOmitemptyFalse bool `json:"noOmitemptyFalse"`
	// +optional
	// +default=true
	NoOmitemptyTrue bool `json:"noOmitemptyTrue"`
	// +default="x"
	Omitempty string `json:"omitempty,omitempty"`
	// +default="x"
	Omitzero string `json:"omitzero,omitzero"`
	// +optional
	// +default="x"
	Pointer *string `json:"pointer"`
	// +optional
	// +default=["x"]
	ListNoOmitempty []string `json:"listNoOmitempty"`
	// +optional
	// +default={"a":"b"}
	MapNoOmitempty map[string]string `json:"mapNoOmitempty"`
	// +optional
	// +default="1s"
	Duration metav1.Duration `json:"duration"`
	// +optional
	// +default="0s"
	DurationZero metav1.Duration `json:"durationZero"`
	// +optional
	// +default="2024-01-01T00:00:00Z"
	Time metav1.Time `json:"time"`
	// +optional
	// +default="1"
	Quantity resource.Quantity `json:"quantity"`
	// +default="lots"
	BadQuantity *resource.Quantity `json:"badQuantity,omitempty"`
	// +default="0.5n"
	RoundedQuantity *resource.Quantity `json:"roundedQuantity,omitempty"`
	// +default="2020-01-01T00:00:00.5Z"
	FractionTime *metav1.Time `json:"fractionTime,omitempty"`
	// +default="2020-01-01T01:00:00+01:00"
	OffsetTime *metav1.Time `json:"offsetTime,omitempty"`
	// +default="1.5ns"
	FractionDuration *metav1.Duration `json:"fractionDuration,omitempty"`
	// +default="0.1m"
	MilliQuantity *resource.Quantity `json:"milliQuantity,omitempty"`
	// +optional
	// +default=3
	IntOrString intstr.IntOrString `json:"intOrString"`
	// +default="three"
	WrongType int32 `json:"wrongType,omitempty"`
	// +default=128
	Overflow int8 `json:"overflow,omitempty"`
	// +default=null
	Null *string `json:"null,omitempty"`
	// +optional
	// +default={"size":3}
	WindowValue Window `json:"windowValue"`
	// +default=1.5
	Float float64 `json:"float,omitempty"`
	// +default=2
	FloatWhole float32 `json:"floatWhole,omitempty"`
	// +default="x"
	Bytes []byte `json:"bytes,omitempty"`
	// +default=["x"]
	List []string `json:"list,omitempty"`
	// +default={"a":"b"}
	Map map[string]string `json:"map,omitempty"`
	// +default=3
	Any          *Anything        `json:"any,omitempty"`
	Items        []Typed          `json:"items,omitempty"`
	PointerItems []*Window        `json:"pointerItems,omitempty"`
	BadItems     []BadTyped       `json:"badItems,omitempty"`
	WrongItems   []WrongTyped     `json:"wrongItems,omitempty"`
	Values       map[string]Typed `json:"values,omitempty"`
	Plain        []string         `json:"plain,omitempty"`

	// +required
	// +default="x"
	RequiredWithDefault string `json:"requiredWithDefault,omitempty"`
	// +kubebuilder:default=""
	InferredRequiredZero string `json:"inferredRequiredZero"`
	// +kubebuilder:validation:Optional
	// +default=""
	KubebuilderOptionalZero string `json:"kubebuilderOptionalZero"`
	// +default="x"
	RequiredNoOmitempty string `json:"requiredNoOmitempty"`

	OmitemptyStruct  Sub  `json:"omitemptyStruct,omitempty"`
	OmitzeroStruct   Sub  `json:"omitzeroStruct,omitzero"`
	OmitemptyPointer *Sub `json:"omitemptyPointer,omitempty"`
	PlainStruct      Sub  `json:"plainStruct"`
}

// +default="large"
type WrongTyped int

// Anything has its own encoding.
type Anything struct{ v int }

func (a Anything) MarshalJSON() ([]byte, error) { return []byte("0"), nil }

type Sub struct {
	Name string `json:"name,omitempty"`
	// +required
	Count int `json:"count"`
}

// Inlines: markers on inline fields, which have no property of their own.
type Inlines struct {
	// +default={"inner":"x","count":1,"unknown":true}
	InlineDefault `json:",inline"`
	// +kubebuilder:default={inner: "y"}
	*InlineKubebuilder `json:",inline"`
	// +implicitDefaults=false
	InlineImplicit `json:",inline"`
	// +default=3
	InlineNotObject `json:",inline"`
	// +default={"inner":"x"}
	NotInline          InlineDefault `json:"notInline"`
	Unmarked           InlineNone    `json:",inline"`
	InlineWithFindings `json:",inline"`
}

type InlineDefault struct {
	Inner string `json:"inner,omitempty"`
	Count int    `json:"count,omitempty"`
}

type InlineKubebuilder struct {
	Inner2 string `json:"inner2,omitempty"`
}

type InlineImplicit struct {
	Third string `json:"third"`
}

type InlineNotObject struct {
	Fourth string `json:"fourth,omitempty"`
}

type InlineNone struct {
	Fifth string `json:"fifth,omitempty"`
}

// +default=300
type SmallItem uint8

// SmallItems: an item default of the schema's JSON type that the Go type
// cannot hold.
type SmallItems struct {
	Items []SmallItem `json:"items,omitempty"`
}

// Hidden: with the crd generator's ignoreUnexportedFields, its unexported
// fields are neither properties nor edges of the graph of types.
type Hidden struct {
	Name string  `json:"name,omitempty"`
	next *Hidden `json:"next,omitempty"`
	// +default=1
	// +default=2
	// +implicitDefaults=false
	// +implicitDefaults=true
	other int `json:"other,omitempty"`
}

// InlineWithFindings is embedded inline by Inlines: its markers' findings
// are Inlines' too.
type InlineWithFindings struct {
	// +implicitDefaults=false
	// +implicitDefaults=true
	Sixth string `json:"sixth"`
}

// Meta embeds a struct of another package inline.
type Meta struct {
	metav1.TypeMeta `json:",inline"`
	Name            string `json:"name,omitempty"`
}

// Plain has the name of off.Plain.
type Plain struct {
	B string `json:"b"`
}

// Flux is a root kind with the status subresource: create drops its status,
// so a status default applies to Go clients' objects too.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Flux struct {
	// +optional
	// +default={"observedGeneration":-1}
	Status FluxStatus `json:"status"`
}

// NoSubresource is a root kind without the status subresource: Go clients'
// status is stored as they send it.
// +kubebuilder:object:root=true
type NoSubresource struct {
	// +optional
	// +default={"observedGeneration":-1}
	Status FluxStatus `json:"status"`
}

type FluxStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Requiredness: which fields controller-gen lists in their struct's
// `required` (SchemaRequired).
type Requiredness struct {
	Plain     string `json:"plain"`
	Omitempty string `json:"omitempty,omitempty"`
	Omitzero  Sub    `json:"omitzero,omitzero"`
	// +optional
	Optional string `json:"optional"`
	// +k8s:optional
	K8sOptional string `json:"k8sOptional"`
	// +kubebuilder:validation:Optional
	KubebuilderOptional string `json:"kubebuilderOptional"`
	// +required
	RequiredOmitempty string `json:"requiredOmitempty,omitempty"`
	// +k8s:required
	K8sRequired string `json:"k8sRequired,omitempty"`
	// +kubebuilder:validation:Required
	KubebuilderRequired string `json:"kubebuilderRequired,omitempty"`
	// +kubebuilder:validation:Optional
	// +required
	KubebuilderOptionalFirst string `json:"kubebuilderOptionalFirst"`
	// +kubebuilder:validation:Required
	// +optional
	KubebuilderRequiredFirst string `json:"kubebuilderRequiredFirst,omitempty"`
	InlineFields             `json:",inline"`
	OptPkg                   optpkg.Fields `json:"optPkg"`
}

type InlineFields struct {
	EmbeddedPlain string `json:"embeddedPlain"`
	// +optional
	EmbeddedOptional string `json:"embeddedOptional"`
}

// Repeats: struct defaults that repeat, or not, the struct's own defaults.
type Repeats struct {
	// +optional
	// +kubebuilder:default={creationPolicy:Owner,deletionPolicy:Retain}
	Same Target `json:"same,omitempty"`
	// +optional
	// +kubebuilder:default={creationPolicy:Orphan}
	Other Target `json:"other,omitempty"`
	// +optional
	// +kubebuilder:default={name:x}
	NoDefault Target `json:"noDefault,omitempty"`
	// +optional
	// +kubebuilder:default={sent:3}
	Sent Target `json:"sent,omitempty"`
}

type Target struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	// +kubebuilder:default="Owner"
	CreationPolicy string `json:"creationPolicy,omitempty"`
	// +optional
	// +kubebuilder:default="Retain"
	DeletionPolicy string `json:"deletionPolicy,omitempty"`
	// +optional
	// +kubebuilder:default=3
	Sent int32 `json:"sent"`
}

// Ignored: default markers on fields that encoding/json ignores, and json
// tags that it reads otherwise than controller-gen.
type Ignored struct {
	// +default="x"
	Dropped string `json:"-"`
	// +kubebuilder:default=3
	DroppedKubebuilder int `json:"-"`
	// +default="y"
	Dash  string     `json:"-,omitempty"` // named "-" by both
	Quote string     `json:"a\"b,omitempty"`
	Spec  InlineNone `json:"spec,inline"`
	Kept  string     `json:"kept,omitempty"`
}
