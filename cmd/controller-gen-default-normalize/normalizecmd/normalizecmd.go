// Package normalizecmd is the command `controller-gen-default normalize`
// (controller-gen-default-normalize normalize): its flags, usage and exit
// status on bad usage. Package normalize/pipeline does the work
// (pipeline.Run) and prints the objects and their messages.
package normalizecmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/interspersed"
	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

const usage = `usage: controller-gen-default normalize --crd PATH [--crd PATH]... [-o yaml|json] [--strict] [--skip-other-groups] [-n NAMESPACE] [FILE|-]...

Prints each object of FILE (or standard input) as the apiserver would store
it on create: unknown fields pruned, non-nullable nulls without a default
dropped, metadata coerced, defaults applied top-down; then validates it as on
create (OpenAPI schema, CEL, list sets and maps, metadata, request and etcd
size limits).

PATH is a CRD file or a directory of them. FILE is read as kubectl create -f
reads it: a directory is its .json, .yaml and .yml files, empty and null
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

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// Run is `controller-gen-default normalize` with args, the arguments
// after its name: it reads the flags into pipeline.Options and runs
// pipeline.Run on GOMAXPROCS workers.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr, 0)
}

// run is Run on n workers (0: GOMAXPROCS).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, n int) int {
	o, code := parseFlags(args, stderr)
	if o == nil {
		return code
	}
	o.Workers = n
	return pipeline.Run(context.Background(), *o, stdin, stdout, stderr)
}

// parseFlags parses args; a nil result ends the command with the code.
func parseFlags(args []string, stderr io.Writer) (*pipeline.Options, int) {
	fs := flag.NewFlagSet("normalize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	var crds stringList
	o := &pipeline.Options{}
	fs.Var(&crds, "crd", "CRD file or directory (repeatable)")
	fs.StringVar(&o.Output, "o", "yaml", "output format: yaml or json (one JSON object per line)")
	fs.BoolVar(&o.Strict, "strict", false, "unknown and duplicate fields refuse the object, as fieldValidation=Strict (kubectl's --validate=strict) does")
	fs.BoolVar(&o.SkipOtherGroups, "skip-other-groups", false, "skip objects whose API group no CRD has (Namespaces, ConfigMaps...), with a note on stderr, instead of exiting 2")
	fs.StringVar(&o.Namespace, "namespace", metav1.NamespaceDefault, "the namespace of namespaced objects that have none, as kubectl's -n; with it, an object in another namespace is refused as kubectl refuses it")
	fs.StringVar(&o.Namespace, "n", metav1.NamespaceDefault, "shorthand for --namespace")
	positional, err := interspersed.Parse(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, pipeline.ExitOK
		}
		return nil, pipeline.ExitUnusable
	}
	o.CRDs, o.Files = crds, positional
	fs.Visit(func(f *flag.Flag) {
		o.ExplicitNamespace = o.ExplicitNamespace || f.Name == "n" || f.Name == "namespace"
	})
	var problem string
	switch {
	case len(o.CRDs) == 0:
		problem = "--crd is required"
	case o.Output != "yaml" && o.Output != "json":
		problem = fmt.Sprintf("-o %q: must be yaml or json", o.Output)
	case o.Namespace == "":
		problem = "--namespace must not be empty"
	}
	if problem != "" {
		fmt.Fprintf(stderr, "normalize: %s\n", problem)
		fs.Usage()
		return nil, pipeline.ExitUnusable
	}
	return o, -1
}
