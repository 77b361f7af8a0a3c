package objects

import (
	"bytes"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// TestNoKlogOnStderr runs the binary on an update whose errors the
// apiserver's code logs through klog (rest.BeforeUpdate logs each error
// reported twice: an invalid label is, by the strategy and by
// rest.ValidateUpdate): stderr holds nothing but what the command reports.
func TestNoKlogOnStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds controller-gen-default-objects: run without -short (make test-integration)")
	}
	bin := testkit.Binary(t, testkit.Objects)
	testdata := "../../../internal/impact/testdata/"
	cmd := exec.Command(bin, "impact", "--old", testdata+"old.yaml", "--new", testdata+"new.yaml", "-")
	cmd.Stdin = strings.NewReader("apiVersion: impact.example.com/v1\nkind: Widget\nmetadata: {name: a, labels: {k: has space}}\nspec: {color: red}\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, stderr %q; want exit 1", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), `metadata.labels: Invalid value: "has space"`) {
		t.Errorf("stdout lacks the label error:\n%s", stdout.String())
	}
}

// TestFrontEnd runs each subcommand through the same command lines
// (package cmd/internal/subcommand): -h and --help print the usage on
// stdout, exit 0; an unknown flag, a bad value and a missing flag print
// "NAME: what is wrong" and the usage on stderr, nothing on stdout, exit
// 2; a flag after a file name is a flag (the run is the one with the
// flags first), and after "--" an argument. Before the front end, -h
// printed the usage on stderr, a flag after conversion's packages was a
// package, and the flag package's own errors had no command name.
func TestFrontEnd(t *testing.T) {
	const (
		crd     = "../../../internal/apiserver/objectpath/testdata/crds/structpointers.yaml"
		valid   = "../../../internal/apiserver/objectpath/testdata/valid.yaml"
		old     = "../../../internal/impact/testdata/old.yaml"
		new     = "../../../internal/impact/testdata/new.yaml"
		objects = "../../../internal/impact/testdata/objects.yaml"
	)
	for _, sub := range []struct {
		name, prefix string
		// first: flags, then the files (or packages); after: the same
		// with the flags last
		first, after []string
	}{
		{"normalize", "normalize", []string{"--crd", crd, "-o", "json", valid}, []string{valid, "--crd", crd, "-o", "json"}},
		{"impact", "impact", []string{"--old", old, "--new", new, "-o", "json", objects}, []string{objects, "--old", old, "--new", new, "-o", "json"}},
		{"conversion", "controller-gen-default conversion", []string{"--rounds", "5", "-o", "json", "../../../markers/..."}, []string{"../../../markers/...", "--rounds", "5", "-o", "json"}},
	} {
		usage := "usage: controller-gen-default " + sub.name + " "
		run := func(args ...string) (int, string, string) {
			var stdout, stderr bytes.Buffer
			code := subcommands[sub.name](args, strings.NewReader(""), &stdout, &stderr)
			return code, stdout.String(), stderr.String()
		}
		t.Run(sub.name, func(t *testing.T) {
			for _, help := range []string{"-h", "--help"} {
				code, stdout, stderr := run(append(slices.Clone(sub.after), help)...)
				if code != 0 || !strings.HasPrefix(stdout, usage) || stderr != "" {
					t.Errorf("%s: exit %d, stdout %.80q, stderr %q; want exit 0, the usage on stdout", help, code, stdout, stderr)
				}
			}
			for _, tc := range []struct {
				name  string
				args  []string
				first string // the start of stderr's first line
			}{
				{"an unknown flag after a file", append(slices.Clone(sub.after), "--nope"), sub.prefix + ": flag provided but not defined: -nope\n"},
				{"a bad value after a file", append(slices.Clone(sub.after), "-o", "bogus"), sub.prefix + ": -o "},
				{"a flag without its value", append(slices.Clone(sub.first), "-o"), sub.prefix + ": flag needs an argument: -o\n"},
				{"no flag, no file", nil, sub.prefix + ": "},
			} {
				code, stdout, stderr := run(tc.args...)
				if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tc.first) || !strings.Contains(stderr, "\n"+usage) {
					t.Errorf("%s %q: exit %d, stdout %.80q, stderr:\n%s\nwant exit 2, nothing on stdout, %q and the usage on stderr", tc.name, tc.args, code, stdout, stderr, tc.first)
				}
			}
			code1, stdout1, stderr1 := run(sub.first...)
			code2, stdout2, stderr2 := run(sub.after...)
			if code2 != code1 || stdout2 != stdout1 || stderr2 != stderr1 || code1 == 2 {
				t.Errorf("flags after the files: exit %d, stdout %.200q, stderr %.300q\nflags first: exit %d, stdout %.200q, stderr %.300q", code2, stdout2, stderr2, code1, stdout1, stderr1)
			}
			_, _, stderr := run(append(slices.Clone(sub.first[:len(sub.first)-1]), "--", "-x")...)
			if !strings.Contains(stderr, "-x") || strings.Contains(stderr, "flag provided but not defined") {
				t.Errorf("-- -x: stderr:\n%s\nwant -x read as a file or package", stderr)
			}
		})
	}
}
