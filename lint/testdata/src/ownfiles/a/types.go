// Package a uses b's types: the finding about b's Level is b's, reported
// once, with b; the one about a's own field is a's.
package a

import "github.com/controller-gen-default/controller-gen-default/lint/testdata/src/ownfiles/b"

type ASpec struct {
	Level  b.Level  `json:"level,omitempty"`
	Window b.Window `json:"window"`
}
