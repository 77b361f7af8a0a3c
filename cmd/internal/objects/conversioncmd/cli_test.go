package conversioncmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/conversion"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(args, nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestUsage: bad arguments are exit 2, with what is wrong.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "usage: controller-gen-default conversion"},
		{[]string{"-o", "yaml", "./..."}, "-o yaml: want text or json"},
		{[]string{"--rounds", "0", "./..."}, "--rounds 0: want at least 1"},
		{[]string{"--nope", "./..."}, "flag provided but not defined: -nope"},
	} {
		code, _, stderr := run(t, tc.args...)
		if code != conversion.ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant %q", tc.args, code, stderr, tc.want)
		}
	}
}
