// Package conversioncmd is the command `controller-gen-default
// conversion` (controller-gen-default-objects conversion): its flags,
// usage and exit status on bad usage. Package conversion does the work
// (conversion.Report) and writes the findings.
package conversioncmd

import (
	"context"
	"io"

	"github.com/controller-gen-default/controller-gen-default/cmd/internal/subcommand"
	"github.com/controller-gen-default/controller-gen-default/internal/conversion"
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

// Run is `controller-gen-default conversion` with args, the arguments
// after its name: it reads the flags (package cmd/internal/subcommand)
// into conversion.Options and runs conversion.Report on the packages of
// the current directory's module. It reads nothing from stdin.
func Run(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := subcommand.New("controller-gen-default conversion", usage, stdout, stderr)
	var o conversion.Options
	fs.StringVar(&o.Output, "o", "text", "output format: text or json")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the random objects; the same seed gives the same findings")
	fs.IntVar(&o.Rounds, "rounds", 100, "random objects per kind and version")
	fs.StringVar(&o.Accept, "accept", "", "a YAML file of accepted findings, each with its reason (docs/conversion.md)")
	fs.StringsVar(&o.CRDs, "crd", "a file or directory of the CRDs (repeatable); default: generated in memory from the API packages by the crd generator")
	fs.StringVar(&o.Setup, "setup", "", "IMPORTPATH.Func: an exported func(), func() error or func(context.Context) error that the conversion program calls once before serving, to set the state main sets (docs/conversion.md#setup)")
	patterns, code, ok := fs.Parse(args)
	switch {
	case !ok:
		return code
	case len(patterns) == 0:
		return fs.Usagef("PACKAGES are required (./... at the module's root)")
	case o.Output != "text" && o.Output != "json":
		return fs.Usagef("-o %s: want text or json", o.Output)
	case o.Rounds < 1:
		return fs.Usagef("--rounds %d: want at least 1", o.Rounds)
	}
	o.Patterns = patterns
	return conversion.Report(context.Background(), o, stdout, stderr)
}
