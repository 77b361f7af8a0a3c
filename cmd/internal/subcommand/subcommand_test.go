package subcommand

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestParse: flags anywhere, -h and --help on stdout with exit 0, a usage
// error on stderr with the command's name and exit 2, Given and
// StringsVar.
func TestParse(t *testing.T) {
	parse := func(args ...string) (*FlagSet, []string, []string, int, bool, string, string) {
		var stdout, stderr bytes.Buffer
		fs := New("cmd", "usage: cmd [-o X] [--crd PATH]... FILE...\n", &stdout, &stderr)
		var crds []string
		fs.StringsVar(&crds, "crd", "a CRD")
		fs.String("o", "text", "output")
		got, code, ok := fs.Parse(args)
		return fs, got, crds, code, ok, stdout.String(), stderr.String()
	}
	fs, got, crds, code, ok, stdout, stderr := parse("a.yaml", "--crd", "c1", "-o", "json", "b.yaml", "--crd=c2", "--", "-x")
	if !ok || code != 0 || !slices.Equal(got, []string{"a.yaml", "b.yaml", "-x"}) || !slices.Equal(crds, []string{"c1", "c2"}) ||
		!fs.Given("o") || fs.Given("n") || stdout != "" || stderr != "" {
		t.Errorf("flags anywhere: %q, crds %q, exit %d, %v, stdout %q, stderr %q", got, crds, code, ok, stdout, stderr)
	}
	for _, help := range []string{"-h", "--help"} {
		_, _, _, code, ok, stdout, stderr = parse("a.yaml", help)
		if ok || code != 0 || !strings.HasPrefix(stdout, "usage: cmd ") || !strings.Contains(stdout, "-crd value") || stderr != "" {
			t.Errorf("%s: exit %d, %v, stdout %q, stderr %q; want the usage on stdout, exit 0", help, code, ok, stdout, stderr)
		}
	}
	for args, want := range map[string]string{
		"--nope": "cmd: flag provided but not defined: -nope\nusage: cmd ",
		"-o":     "cmd: flag needs an argument: -o\nusage: cmd ",
	} {
		_, _, _, code, ok, stdout, stderr = parse("a.yaml", args)
		if ok || code != ExitUsage || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "-crd value") {
			t.Errorf("%s: exit %d, %v, stdout %q, stderr %q; want exit 2 and %q", args, code, ok, stdout, stderr, want)
		}
	}
	var stdout2, stderr2 bytes.Buffer
	fs = New("cmd", "usage: cmd\n", &stdout2, &stderr2)
	if code := fs.Usagef("-o %q: must be %s", "x", "text"); code != ExitUsage || stderr2.String() != "cmd: -o \"x\": must be text\nusage: cmd\n" || stdout2.Len() > 0 {
		t.Errorf("Usagef: exit %d, stderr %q", code, stderr2.String())
	}
}

// TestNamespaceVar: -n and --namespace set the same namespace, "default"
// when neither is given, and say whether one was.
func TestNamespaceVar(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		want  string
		given bool
	}{
		{nil, "default", false},
		{[]string{"-n", "team"}, "team", true},
		{[]string{"a.yaml", "--namespace=prod"}, "prod", true},
		{[]string{"-namespace", "default"}, "default", true},
	} {
		fs := New("cmd", "usage\n", &bytes.Buffer{}, &bytes.Buffer{})
		var ns string
		given := fs.NamespaceVar(&ns)
		if _, _, ok := fs.Parse(tc.args); !ok || ns != tc.want || given() != tc.given {
			t.Errorf("%q: namespace %q given %v, want %q %v", tc.args, ns, given(), tc.want, tc.given)
		}
	}
}
