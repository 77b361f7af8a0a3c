// Package subcommand is the one flag front end of the subcommands of
// controller-gen-default-objects (normalize, impact and conversion): the
// same command line read the same way, as kubectl and controller-gen read
// theirs.
//
//   - Flags may come before, between or after the arguments (a file name
//     does not end the flags); "--" does, and "-" alone is an argument
//     (standard input). See cmd/internal/interspersed.
//   - -h or --help prints the usage on standard output, exit 0.
//   - A usage error (an unknown flag, a flag without its value or with a
//     bad one, a missing or contradictory flag) prints "NAME: what is
//     wrong", then the usage, on standard error, nothing on standard
//     output, exit 2 (ExitUsage: unusable input, as each command's own
//     exit status 2).
package subcommand

import (
	"errors"
	"flag"
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/cmd/internal/interspersed"
)

// ExitUsage is the exit status of a usage error.
const ExitUsage = 2

// FlagSet is a subcommand's flags, its name and its usage text.
type FlagSet struct {
	*flag.FlagSet
	name, usage    string
	stdout, stderr io.Writer
}

// New is the flag set of the subcommand name (the prefix of its usage
// errors), whose usage text, printed before the flags' defaults, is usage.
func New(name, usage string, stdout, stderr io.Writer) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// the flag package's own messages go nowhere: Parse says them
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &FlagSet{FlagSet: fs, name: name, usage: usage, stdout: stdout, stderr: stderr}
}

// StringsVar defines a repeatable flag whose values are appended to p.
func (f *FlagSet) StringsVar(p *[]string, name, usage string) {
	f.Func(name, usage, func(v string) error { *p = append(*p, v); return nil })
}

// Parse parses args, flags wherever they stand, and returns the
// arguments. When ok is false the command ends with code: 0 after the
// usage for -h or --help, ExitUsage after a usage error.
func (f *FlagSet) Parse(args []string) (arguments []string, code int, ok bool) {
	arguments, err := interspersed.Parse(f.FlagSet, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		f.printUsage(f.stdout)
		return nil, 0, false
	case err != nil:
		return nil, f.Usagef("%v", err), false
	}
	return arguments, 0, true
}

// Usagef says what is wrong with the command line, then the usage, on
// standard error, and returns ExitUsage.
func (f *FlagSet) Usagef(format string, a ...any) int {
	fmt.Fprintf(f.stderr, "%s: %s\n", f.name, fmt.Sprintf(format, a...))
	f.printUsage(f.stderr)
	return ExitUsage
}

// NamespaceVar defines -n and --namespace as kubectl's: the namespace of
// namespaced objects that have none, "default" unless given; given says
// whether one was (then an object in another namespace is refused).
func (f *FlagSet) NamespaceVar(p *string) (given func() bool) {
	const usage = "the namespace of namespaced objects that have none, as kubectl's -n; with it, an object in another namespace is refused as kubectl refuses it"
	f.StringVar(p, "namespace", metav1.NamespaceDefault, usage)
	f.StringVar(p, "n", metav1.NamespaceDefault, "shorthand for --namespace")
	return func() bool { return f.Given("n", "namespace") }
}

// RecursiveVar defines -R and --recursive as kubectl's: a directory of
// objects is read with its subdirectories.
func (f *FlagSet) RecursiveVar(p *bool) {
	const usage = "read a directory of objects with its subdirectories, as kubectl's -R, --recursive (without it, only the files directly in it)"
	f.BoolVar(p, "recursive", false, usage)
	f.BoolVar(p, "R", false, "shorthand for --recursive")
}

// Given says whether one of the flags names was set on the command line.
func (f *FlagSet) Given(names ...string) bool {
	given := false
	f.Visit(func(fl *flag.Flag) {
		for _, n := range names {
			given = given || fl.Name == n
		}
	})
	return given
}

// printUsage writes the usage text and the flags' defaults to w.
func (f *FlagSet) printUsage(w io.Writer) {
	fmt.Fprint(w, f.usage)
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
}
