// Package clean has defaults that break no rule.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package clean

type Spec struct {
	// +default="TCP"
	Protocol string `json:"protocol,omitempty"`
	// +default={"limit": 3}
	Backoff *Backoff `json:"backoff,omitempty"`
	// +default={}
	Empty  Backoff `json:"empty"`
	Status Backoff `json:"status,omitzero"`
	Plain  int     `json:"plain"`
}

type Backoff struct {
	Limit int32 `json:"limit,omitempty"`
}
