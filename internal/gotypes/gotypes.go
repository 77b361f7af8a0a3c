// Package gotypes answers questions about Go types that both generators ask.
package gotypes

import "go/types"

// HasOwnEncoding reports whether encoding/json calls a method of n
// (MarshalJSON or MarshalText, on the value or the pointer) instead of
// encoding it by kind, field by field.
func HasOwnEncoding(n *types.Named) bool {
	for _, t := range []types.Type{n, types.NewPointer(n)} {
		ms := types.NewMethodSet(t)
		if ms.Lookup(nil, "MarshalJSON") != nil || ms.Lookup(nil, "MarshalText") != nil {
			return true
		}
	}
	return false
}
