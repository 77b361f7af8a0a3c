//go:build !linux

package convprog

import "errors"

// limitMemory sets no hard limit outside Linux: the program runs with
// GOMEMLIMIT only, a soft limit that makes its garbage collector work
// harder near it but does not stop it.
func limitMemory(pid int, bytes int64) error {
	return errors.ErrUnsupported
}
