// Package conversioncmd is the command `controller-gen-default
// conversion` (controller-gen-default-normalize conversion): its flags,
// usage and exit status on bad usage. Package conversion does the work
// (conversion.Report) and writes the findings.
package conversioncmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/conversion"
)

const usage = `usage: controller-gen-default conversion [-o text|json] [--seed N] [--rounds N] [--crd PATH]... [--setup IMPORTPATH.Func] [--accept FILE] PACKAGES...

Finds, with the API's own Go conversions (conversion.Hub and
conversion.Convertible methods, or controller-runtime Converters registered
with WithConverter or RegisterConverter, served by controller-runtime's
conversion webhook handler), the fields that a round trip between versions
loses or changes (conversion-lost-field), the defaults that disagree across
versions (conversion-default-mismatch), and the conversions that fail
(conversion-failed, or conversion-needs-setup when main sets state the
conversions read and --setup is not given). PACKAGES are package patterns
of the current module (./... at its root finds every conversion).
Findings go to stdout, as FILE:LINE:COL: error: Type.Field (json.path):
message [rule], or with -o json as a JSON array.
Exit status: 0 no finding (or nothing converts), 1 findings, 2 usage,
load, build or CRD error.

Flags:
`

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// Run is `controller-gen-default conversion` with args, the arguments
// after its name: it reads the flags into conversion.Options and runs
// conversion.Report on the packages of the current directory's module.
// It reads nothing from stdin.
func Run(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("controller-gen-default conversion", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o conversion.Options
	var crds stringList
	fs.StringVar(&o.Output, "o", "text", "output format: text or json")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the random objects; the same seed gives the same findings")
	fs.IntVar(&o.Rounds, "rounds", 100, "random objects per kind and version")
	fs.StringVar(&o.Accept, "accept", "", "a YAML file of accepted findings, each with its reason (docs/conversion.md)")
	fs.Var(&crds, "crd", "a file or directory of the CRDs (repeatable); default: generated in memory from the API packages by the crd generator")
	fs.StringVar(&o.Setup, "setup", "", "IMPORTPATH.Func: an exported func(), func() error or func(context.Context) error that the conversion program calls once before serving, to set the state main sets (docs/conversion.md#setup)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return conversion.ExitClean
		}
		return conversion.ExitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return conversion.ExitUsage
	}
	if o.Output != "text" && o.Output != "json" {
		fmt.Fprintf(stderr, "controller-gen-default conversion: -o %s: want text or json\n", o.Output)
		return conversion.ExitUsage
	}
	if o.Rounds < 1 {
		fmt.Fprintf(stderr, "controller-gen-default conversion: --rounds %d: want at least 1\n", o.Rounds)
		return conversion.ExitUsage
	}
	o.Patterns, o.CRDs = fs.Args(), crds
	return conversion.Report(context.Background(), o, stdout, stderr)
}
