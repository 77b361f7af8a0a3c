package main_test

import (
	"strings"
	"testing"
)

// TestConversionSubcommand: `controller-gen-default conversion` runs
// `controller-gen-default-objects conversion`, which is conversioncmd.Run
// (its flags tested in package conversioncmd, its run in package
// conversion, on testdata/convapi): like normalize and
// impact it creates objects with the apiserver's registry strategy, which
// links the storage layer this binary keeps out (TestNoStorageLayer).
// Usage errors are exit 2 through the binary, with what is wrong on
// stderr and nothing on stdout; packages that convert nothing are exit 0
// with a note.
func TestConversionSubcommand(t *testing.T) {
	bin := binary(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"conversion"}, 2, "usage: controller-gen-default conversion"},
		{[]string{"conversion", "-o", "yaml", "./markers/..."}, 2, "-o yaml: want text or json"},
		// packages that convert nothing: a note, exit 0, nothing built
		{[]string{"conversion", "./markers/..."}, 0, "note: nothing in ./markers/... converts between versions"},
	} {
		stdout, stderr, code := run(t, bin, tc.args...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr\n%s\nwant %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
