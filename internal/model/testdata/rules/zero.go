package rules

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Zero: what encoding/json writes for each kind of field.
type Zero struct {
	S           string            `json:"s"`
	SOmit       string            `json:"sOmit,omitempty"`
	I           int32             `json:"i"`
	B           bool              `json:"b"`
	F           float64           `json:"f"`
	P           *string           `json:"p"`
	L           []string          `json:"l"`
	M           map[string]string `json:"m"`
	Sub         ZeroSub           `json:"sub"`
	SubOmitzero ZeroSub           `json:"subOmitzero,omitzero"`
	D           metav1.Duration   `json:"d"`
	T           metav1.Time       `json:"t"`
	Any         interface{}       `json:"any"`
	ZeroInline  `json:",inline"`

	Subs    []ZeroSub          `json:"subs,omitempty"`
	Array   [2]ZeroSub         `json:"array"`
	ByName  map[string]ZeroSub `json:"byName,omitempty"`
	Bytes   []byte             `json:"bytes,omitempty"`
	Own     *Anything          `json:"own,omitempty"`
	Unknown ZeroUnknown        `json:"unknown"`
}

type ZeroSub struct {
	N int `json:"n"`
}

type ZeroInline struct {
	X string `json:"x"`
}

type ZeroUnknown struct {
	O Anything `json:"o"`
}

type ZeroUnknownOmit struct {
	O Anything `json:"o,omitempty"`
}

// Omit: what omitempty and omitzero leave out.
type Omit struct {
	S     string            `json:"s,omitempty"`
	B     bool              `json:"b,omitempty"`
	N     int               `json:"n,omitempty"`
	F     float64           `json:"f,omitempty"`
	L     []string          `json:"l,omitempty"`
	M     map[string]string `json:"m,omitempty"`
	St    ZeroSub           `json:"st,omitempty"`
	P     *string           `json:"p,omitempty"`
	PSt   *ZeroSub          `json:"pst,omitzero"`
	ZS    string            `json:"zs,omitzero"`
	ZN    int               `json:"zn,omitzero"`
	ZL    []string          `json:"zl,omitzero"`
	ZM    map[string]string `json:"zm,omitzero"`
	ZSt   ZeroSub           `json:"zst,omitzero"`
	ZUn   ZeroUnknown       `json:"zun,omitzero"`
	Plain string            `json:"plain"`
}
