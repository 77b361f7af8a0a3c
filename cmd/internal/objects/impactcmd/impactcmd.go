// Package impactcmd is the command `controller-gen-default impact`
// (controller-gen-default-objects impact): its flags, usage and exit
// status on bad usage. Package internal/impact does the work (impact.Run)
// and writes the report.
package impactcmd

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/controller-gen-default/controller-gen-default/cmd/internal/subcommand"
	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/input/source"
)

const usage = `usage: controller-gen-default impact --old OLD --new NEW [-o text|json|markdown] [--skip-other-groups] [-n NAMESPACE] [--convert PACKAGES [--setup IMPORTPATH.Func]] [--objects kube:// [--kubeconfig FILE] [--context NAME] [--request-timeout DURATION]] [-R] [FILE|-]...

Shows what objects stored under the CRDs OLD become when the CRDs are
replaced by NEW, as the apiserver handles them: each object as stored under
OLD (its create; flagged if OLD refuses it), as read back under NEW (a
unified diff: new defaults appear, pruned fields disappear), whether an
unchanged (no-op) update is accepted, which values NEW refuses but only
ratcheting keeps (an update that changes one of them is sent), and what
NEW changes in versions. Conversion webhooks are not called: versions are
converted as with the None strategy, unless --convert gives the API's Go
packages (patterns such as ./api/..., of the module in the current
directory; ./... at its root finds every conversion): a program built from
them converts the CRDs of the kinds it serves with the API's own
ConvertTo/ConvertFrom or registered controller-runtime Converters, as its
conversion webhook does, and each object is also shown as read at NEW's
storage version. --setup names a function the program calls first, to set
the state that main sets and the conversions read.

OLD and NEW are CRD files or directories (repeatable), each with at least one
CRD: PATH or file://PATH; git://REF?path=PATH, PATH at the git revision REF
of the repository in the working directory (from its top); kube:// for the
CRDs of the cluster in the groups of NEW's CRDs, kube://NAME for one of its
CRDs. FILEs hold objects, read as kubectl create -f reads them: manifests, or
a List such as kubectl get -A -o yaml writes (- is stdin); a directory is its
.json, .yaml and .yml files, with -R those of its subdirectories too (OLD and
NEW directories are read at their top level); --objects kube://
adds every object the cluster stores under OLD's CRDs, read page by page
(it needs only get and list: docs/impact.md gives the ClusterRole). Each
request to the cluster may take --request-timeout (1m by default, so that a
cluster that never answers ends the run; 0 waits forever, as kubectl's).
Without FILE or --objects, lists each default added, changed or removed
from OLD to NEW. -o markdown writes a report for a pull request comment.

Exit status: 0 no object loses data or has a request refused, 1 some does,
2 unusable input (bad flags, an invalid CRD, unparsable input, an object with
no CRD).
`

// Run is `controller-gen-default impact` with args, the arguments after
// its name: it reads the flags into impact.Options and runs impact.Run.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code := parseFlags(args, stdout, stderr)
	if o == nil {
		return code
	}
	return impact.Run(context.Background(), *o, stdin, stdout, stderr)
}

// parseFlags parses args (package cmd/internal/subcommand); a nil result
// ends the command with the code.
func parseFlags(args []string, stdout, stderr io.Writer) (*impact.Options, int) {
	fs := subcommand.New("impact", usage, stdout, stderr)
	var convert, types []string
	o := &impact.Options{}
	fs.StringsVar(&o.Old, "old", "CRD source before the change (repeatable): a file or directory, file://PATH, git://REF?path=PATH, kube:// or kube://NAME")
	fs.StringsVar(&o.New, "new", "CRD source after the change (repeatable): a file or directory, file://PATH, git://REF?path=PATH, kube:// or kube://NAME")
	fs.StringVar(&o.Output, "o", "text", "output format: text, json (one JSON record per line) or markdown (a pull request comment, under GitHub's 65,536 characters)")
	objects := fs.String("objects", "", "kube://: also every object the cluster stores under OLD's CRDs, read page by page (500 a request)")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", "", "the kubeconfig of kube:// sources (default: $KUBECONFIG, else ~/.kube/config, as kubectl)")
	fs.StringVar(&o.Context, "context", "", "the kubeconfig context of kube:// sources (default: its current context)")
	o.RequestTimeout = source.DefaultRequestTimeout
	fs.Var(requestTimeout{&o.RequestTimeout}, "request-timeout", "how long one request to the cluster of kube:// sources may take, as kubectl's --request-timeout: a `DURATION` (30s, 2m) or whole seconds; 0 is no limit. The default, kube-apiserver's own --request-timeout, ends the run on a cluster that never answers (kubectl's, 0, waits forever)")
	fs.BoolVar(&o.SkipOtherGroups, "skip-other-groups", false, "skip objects whose API group no CRD of OLD or NEW has (Services, Deployments...) instead of exiting 2")
	namespaceGiven := fs.NamespaceVar(&o.Namespace)
	fs.RecursiveVar(&o.Recursive)
	fs.BoolVar(&o.Verbose, "v", false, "text report: each object's details (its diff, the update's errors) as it comes, instead of the defaults grouped across objects and a line per object to look at")
	fs.StringsVar(&types, "types", "Go package patterns of the API (./api/...; repeatable or comma-separated): tell the defaults a Go client of the API's types already sends from those that change what a client reads (docs/impact.md)")
	fs.StringsVar(&convert, "convert", "Go package patterns of the API (./... or ./api/...; repeatable or comma-separated): convert versions with its conversion code (conversion.Hub/Convertible methods, Converters registered with WithConverter or RegisterConverter), as its conversion webhook does")
	fs.StringVar(&o.Setup, "setup", "", "with --convert: IMPORTPATH.Func, an exported func(), func() error or func(context.Context) error the conversion program calls once before serving, to set the state main sets (docs/impact.md)")
	files, code, ok := fs.Parse(args)
	if !ok {
		return nil, code
	}
	o.Files, o.ExplicitNamespace = files, namespaceGiven()
	switch {
	case len(o.Old) == 0:
		return nil, fs.Usagef("--old is required")
	case len(o.New) == 0:
		return nil, fs.Usagef("--new is required")
	case o.Output != "text" && o.Output != "json" && o.Output != "markdown":
		return nil, fs.Usagef("-o %q: must be text, json or markdown", o.Output)
	case *objects != "" && *objects != "kube://":
		return nil, fs.Usagef("--objects %q: only kube:// (the cluster's objects); give files of objects as arguments", *objects)
	case o.Namespace == "":
		return nil, fs.Usagef("--namespace must not be empty")
	case o.Setup != "" && len(convert) == 0:
		return nil, fs.Usagef("--setup needs --convert")
	}
	o.ClusterObjects = *objects != ""
	if o.ClusterObjects && isTerminal(stderr) {
		o.Progress = stderr
	}
	o.Convert, o.Types = patterns(convert), patterns(types)
	return o, 0
}

// patterns are the package patterns of a repeatable, comma-separated flag.
func patterns(values []string) []string {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// isTerminal says whether w is a terminal (a character device), where a
// progress line that rewrites itself is read, not stored.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// requestTimeout is --request-timeout (source.ParseRequestTimeout).
type requestTimeout struct{ d *time.Duration }

func (t requestTimeout) String() string {
	if t.d == nil {
		return "0s"
	}
	return t.d.String()
}

func (t requestTimeout) Set(s string) error {
	d, err := source.ParseRequestTimeout(s)
	if err == nil {
		*t.d = d
	}
	return err
}
