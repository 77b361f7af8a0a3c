// Package off turns implicit defaults off for its types.
// +implicitDefaults=false
package off

type Plain struct {
	A string `json:"a"`
}
