// Package normalizecmd is the command `controller-gen-default normalize`
// (controller-gen-default-objects normalize): its flags, usage and exit
// status on bad usage. Package internal/apiserver/objectpath does the work
// (normalize.Run) and prints the objects and their messages.
package normalizecmd

import (
	"context"
	"io"

	"github.com/controller-gen-default/controller-gen-default/cmd/internal/subcommand"
	"github.com/controller-gen-default/controller-gen-default/internal/normalize"
)

const usage = `usage: controller-gen-default normalize --crd PATH [--crd PATH]... [-o yaml|json] [--strict] [--skip-other-groups] [-n NAMESPACE] [-R] [FILE|-]...

Prints each object of FILE (or standard input) as the apiserver would store
it on create: unknown fields pruned, non-nullable nulls without a default
dropped, metadata coerced, defaults applied top-down; then validates it as on
create (OpenAPI schema, CEL, list sets and maps, metadata, request and etcd
size limits).

PATH is a CRD file or a directory of them. FILE is read as kubectl create -f
reads it: a directory is its .json, .yaml and .yml files (with -R, those of
its subdirectories too, as kubectl's -R, --recursive), empty and null
documents are skipped, and a List stands for its items. Objects are matched to a served CRD version by apiVersion and kind;
with --skip-other-groups, an object whose API group no CRD has (the
Namespace or ConfigMap of a samples file) is skipped with a note instead.
Each object is printed, in input order, as soon as it and those before it
are done (GOMAXPROCS at once): a YAML stream, or with -o json one JSON object
per line. Errors go to stderr as FILE:DOC: path: message (FILE:DOC:ITEM for
an item of a List), each object's before it; the apiserver's warnings, a
deprecated version's first, as FILE:DOC: warning: message. Exit status: 0
all valid, 1 some object refused, 2 unusable input, which ends the run
after the objects before it.
`

// Run is `controller-gen-default normalize` with args, the arguments
// after its name: it reads the flags into normalize.Options and runs
// normalize.Run on GOMAXPROCS workers.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr, 0)
}

// run is Run on n workers (0: GOMAXPROCS).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, n int) int {
	o, code := parseFlags(args, stdout, stderr)
	if o == nil {
		return code
	}
	o.Workers = n
	return normalize.Run(context.Background(), *o, stdin, stdout, stderr)
}

// parseFlags parses args (package cmd/internal/subcommand); a nil result
// ends the command with the code.
func parseFlags(args []string, stdout, stderr io.Writer) (*normalize.Options, int) {
	fs := subcommand.New("normalize", usage, stdout, stderr)
	o := &normalize.Options{}
	fs.StringsVar(&o.CRDs, "crd", "CRD file or directory (repeatable)")
	fs.StringVar(&o.Output, "o", "yaml", "output format: yaml or json (one JSON object per line)")
	fs.BoolVar(&o.Strict, "strict", false, "unknown and duplicate fields refuse the object, as fieldValidation=Strict (kubectl's --validate=strict) does")
	fs.BoolVar(&o.SkipOtherGroups, "skip-other-groups", false, "skip objects whose API group no CRD has (Namespaces, ConfigMaps...), with a note on stderr, instead of exiting 2")
	namespaceGiven := fs.NamespaceVar(&o.Namespace)
	fs.RecursiveVar(&o.Recursive)
	files, code, ok := fs.Parse(args)
	if !ok {
		return nil, code
	}
	o.Files, o.ExplicitNamespace = files, namespaceGiven()
	switch {
	case len(o.CRDs) == 0:
		return nil, fs.Usagef("--crd is required")
	case o.Output != "yaml" && o.Output != "json":
		return nil, fs.Usagef("-o %q: must be yaml or json", o.Output)
	case o.Namespace == "":
		return nil, fs.Usagef("--namespace must not be empty")
	}
	return o, 0
}
