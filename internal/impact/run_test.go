package impact

import (
	"bytes"
	"strings"
	"testing"
)

// runImpact runs Run with o on stdin, and returns stdout, stderr and the
// exit status.
func runImpact(t *testing.T, stdin string, o Options) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), o, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// withConvert is o with the package patterns of --convert.
func withConvert(o Options, patterns ...string) Options {
	o.Convert = patterns
	return o
}
