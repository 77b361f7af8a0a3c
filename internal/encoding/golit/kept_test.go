package golit

import (
	"strings"
	"testing"
)

// TestKeptByGo: a default of a known type with its own encoding is
// refused when the Go value that the type's UnmarshalJSON makes of it is
// sent by its MarshalJSON as another value; another form of the same
// value is kept.
func TestKeptByGo(t *testing.T) {
	for _, c := range []struct {
		k    known
		lit  string
		want string // "" when kept, else a substring of the refusal
	}{
		// quantities: exact down to a nanounit, and up to any size in
		// decimal; "0.1m" is 100u, "1.0001Gi" 1073849198182400u
		{knownQuantity, `"0.1m"`, ""},
		{knownQuantity, `"1e-4"`, ""},
		{knownQuantity, `"1.0001Gi"`, ""},
		{knownQuantity, `"1.5"`, ""},
		{knownQuantity, `1`, ""},
		{knownQuantity, `"1n"`, ""},
		{knownQuantity, `"7Ei"`, ""},
		{knownQuantity, `"1e100"`, ""},
		{knownQuantity, `"123456789012345678901234567890m"`, ""},
		{knownQuantity, `"0.5n"`, `a resource.Quantity is rounded up to a whole nanounit, and capped at 2^63-1 when binary: ` +
			`Go clients would send "1n" where the apiserver stores "0.5n"; write "1n"`},
		{knownQuantity, `"1.0000000001"`, `write "1000000001n"`},
		{knownQuantity, `"1e-10"`, `write "1e-9"`},
		{knownQuantity, `1e-10`, `write "1e-9"`},
		{knownQuantity, `"-0.5n"`, `write "-1n"`},
		{knownQuantity, `"8Ei"`, `write "9223372036854775807"`},
		// durations: whole nanoseconds
		{knownDuration, `"60s"`, ""},
		{knownDuration, `"1.5h"`, ""},
		{knownDuration, `"0.5us"`, ""},
		{knownDuration, `"-1m30s"`, ""},
		{knownDuration, `"1.5ns"`, `write "1ns"`},
		{knownDuration, `"1h1.0000000001s"`, `write "1h0m1s"`},
		// times: a Time to the second, in any offset
		{knownTime, `"2020-01-01T00:00:00Z"`, ""},
		{knownTime, `"2020-01-01T01:00:00+01:00"`, ""},
		{knownTime, `"0001-01-01T00:00:00Z"`, ""},
		{knownTime, `"2020-01-01T00:00:00.5Z"`, `a metav1.Time is sent to the second: Go clients would send "2020-01-01T00:00:00Z" where the apiserver stores "2020-01-01T00:00:00.5Z"; ` +
			`write "2020-01-01T00:00:00Z"`},
		{knownTime, `"2020-01-01T00:00:00.0000000001Z"`, `write "2020-01-01T00:00:00Z"`},
		{knownMicroTime, `"2020-01-01T00:00:00.123456Z"`, ""},
		{knownMicroTime, `"2020-01-01T02:00:00.123456+02:00"`, ""},
		// others are written as they are
		{knownIntOrString, `"50%"`, ""},
	} {
		_, err := keptByGo(c.k, []byte(c.lit))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%d %s: %q, want %q", c.k, c.lit, got, c.want)
		}
	}
}
