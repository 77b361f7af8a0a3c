package main_test

import (
	"strings"
	"testing"
)

// TestConversionSubcommand: `controller-gen-default conversion` runs
// `controller-gen-default-normalize conversion`, which is conversion.Main
// (tested in package conversion, on testdata/convapi): like normalize and
// impact it creates objects with the apiserver's registry strategy, which
// links the storage layer this binary keeps out (TestNoStorageLayer).
// Usage errors and a load error are exit 2 through the binary, with what
// is wrong on stderr and nothing on stdout.
func TestConversionSubcommand(t *testing.T) {
	bin := binary(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"conversion"}, "usage: controller-gen-default conversion"},
		{[]string{"conversion", "-o", "yaml", "./markers/..."}, "-o yaml: want text or json"},
		{[]string{"conversion", "./markers/..."}, "no kind in ./markers/..."},
	} {
		stdout, stderr, code := run(t, bin, tc.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr\n%s\nwant %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
