// Package conflict says two different things about implicit defaults.
// +implicitDefaults=false
package conflict

type T struct {
	A string `json:"a"`
}
