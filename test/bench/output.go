package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/diaglines"
)

// outputMain is `go run ./test/bench output`: the lines controller-gen-default
// prints on a first run over each real API module, per binary and scenario,
// as a markdown table (docs/crd.md, "Output").
//
//	go run ./test/bench output [-modules gateway-api,...] [-bin label=path]...
//
// Scenarios, each with the module's own crd options (internal/testsupport/realapis):
//
//	fresh        default options, into an empty directory
//	opt-out      crd:implicitDefaults=false, into an empty directory
//	over CRDs    default options, into a directory holding the CRDs that
//	             crd:implicitDefaults=false wrote (controller-gen's CRDs,
//	             but for ref() defaults): a project's first run over the
//	             CRDs it publishes
func outputMain(args []string) {
	flags := flag.NewFlagSet("output", flag.ExitOnError)
	modules := flags.String("modules", "", "comma-separated modules (default: all of internal/testsupport/realapis.Default)")
	var bins binFlags
	flags.Var(&bins, "bin", "label=path of a controller-gen-default binary to measure; repeatable (default: after=go build ./cmd/controller-gen-default)")
	keep := flags.Bool("keep", false, "keep the work directory (throwaway module, stderr of every run)")
	_ = flags.Parse(args) // flag.ExitOnError: Parse exits on a bad flag
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := runOutput(ctx, *modules, bins, *keep, os.Stdout); err != nil {
		fatalf("%v", err)
	}
}

type binFlag struct{ label, path string }

type binFlags []binFlag

func (b *binFlags) String() string { return fmt.Sprint(*b) }

func (b *binFlags) Set(s string) error {
	label, path, ok := strings.Cut(s, "=")
	if !ok || label == "" || path == "" {
		return fmt.Errorf("want label=path, got %q", s)
	}
	*b = append(*b, binFlag{label, path})
	return nil
}

// outputCount is what one run printed on stderr.
type outputCount struct {
	lines, errors, warnings, notes, other int
	exit                                  int
}

func countOutput(s sample) outputCount {
	c := outputCount{exit: s.exit}
	found, other := diaglines.Parse(s.stderr)
	c.other = len(other)
	for _, f := range found {
		switch f.Severity {
		case "error":
			c.errors++
		case "warning":
			c.warnings++
		default:
			c.notes++
		}
	}
	c.lines = c.errors + c.warnings + c.notes + c.other
	return c
}

func runOutput(ctx context.Context, modules string, bins binFlags, keep bool, out io.Writer) error {
	mods, err := realapis.Select(modules)
	if err != nil {
		return err
	}
	root, err := repoRoot(ctx)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "cgd-output-")
	if err != nil {
		return err
	}
	if keep {
		progress("work directory: %s", work)
	} else {
		defer os.RemoveAll(work)
	}
	if len(bins) == 0 {
		p, _, err := oursBinary(ctx, "", root, work)
		if err != nil {
			return err
		}
		bins = binFlags{{"after", p}}
	}
	for i := range bins {
		if bins[i].path, err = filepath.Abs(bins[i].path); err != nil {
			return err
		}
	}
	wsDir := filepath.Join(work, "module")
	if err := os.Mkdir(wsDir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	ws, err := realapis.Prepare(ctx, wsDir, mods...)
	if err != nil {
		return err
	}
	progress("fetched %d modules in %s", len(mods), time.Since(start).Round(time.Millisecond))

	scenarios := []struct {
		name  string
		extra []string
		over  bool // first write the CRDs of implicitDefaults=false into the directory
	}{
		{name: "default options, empty output directory"},
		{name: "`crd:implicitDefaults=false`, empty output directory", extra: []string{"implicitDefaults=false"}},
		{name: "default options, over the CRDs of `implicitDefaults=false`", over: true},
	}
	results := map[string]map[string]map[string]outputCount{} // module → scenario → bin
	seq := 0
	for _, m := range mods {
		results[m.Name] = map[string]map[string]outputCount{}
		for _, sc := range scenarios {
			results[m.Name][sc.name] = map[string]outputCount{}
			for _, b := range bins {
				seq++
				dir := filepath.Join(work, "out", fmt.Sprintf("%03d-%s-%s", seq, m.Name, b.label))
				if sc.over {
					s, err := measure(ctx, ws, b.path, m.Args(dir, "implicitDefaults=false"))
					if err != nil {
						return err
					}
					if s.exit != 0 {
						return fmt.Errorf("%s %s: exit %d writing the opt-out CRDs\n%s", b.label, m.Name, s.exit, s.stderr)
					}
				}
				s, err := measure(ctx, ws, b.path, m.Args(dir, sc.extra...))
				if err != nil {
					return err
				}
				c := countOutput(s)
				results[m.Name][sc.name][b.label] = c
				progress("%-20s %-8s %-60s %5d lines, exit %d", m.Name, b.label, sc.name, c.lines, c.exit)
				if keep {
					_ = os.WriteFile(dir+".stderr", []byte(s.stderr), 0o644)
				} else {
					os.RemoveAll(dir)
				}
			}
		}
	}

	fmt.Fprintf(out, "Lines on stderr (errors / warnings / notes / other lines), exit status; measured %s, %s.\n\n",
		time.Now().Format("2006-01-02"), goVersion(ctx))
	fmt.Fprintf(out, "| module | run |")
	for _, b := range bins {
		fmt.Fprintf(out, " %s |", b.label)
	}
	fmt.Fprintf(out, "\n|---|---|")
	for range bins {
		fmt.Fprintf(out, "---|")
	}
	fmt.Fprintln(out)
	for _, m := range mods {
		for _, sc := range scenarios {
			fmt.Fprintf(out, "| %s | %s |", m.Name, sc.name)
			for _, b := range bins {
				c := results[m.Name][sc.name][b.label]
				fmt.Fprintf(out, " **%d** (%d / %d / %d / %d), exit %d |", c.lines, c.errors, c.warnings, c.notes, c.other, c.exit)
			}
			fmt.Fprintln(out)
		}
	}
	fmt.Fprintf(out, "\nCommands, in a throwaway module that requires the API modules (internal/testsupport/realapis):\n\n```sh\n")
	for _, m := range mods {
		fmt.Fprintf(out, "controller-gen-default %s\n", strings.Join(m.Args("<out>"), " "))
	}
	fmt.Fprintf(out, "```\n")
	return nil
}
