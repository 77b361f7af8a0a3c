// Command controller-gen-default is controller-gen (sigs.k8s.io/controller-tools
// v0.23.0) with a crd generator that implements KEP-1929 declarative defaults.
// It takes exactly controller-gen's arguments; this file only wires them.
//
//	controller-gen-default rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases
//	controller-gen-default normalize --crd config/crd/bases obj.yaml
//	controller-gen-default impact --old old/crds --new config/crd/bases objects.yaml
//	controller-gen-default conversion ./api/...
//
// normalize, impact and conversion run controller-gen-default-objects, a
// separate command (see normalize.go).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/applyconfiguration"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/genall/help"
	prettyhelp "sigs.k8s.io/controller-tools/pkg/genall/help/pretty"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/controller-tools/pkg/rbac"
	"sigs.k8s.io/controller-tools/pkg/schemapatcher"
	"sigs.k8s.io/controller-tools/pkg/webhook"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/defaultgen"
	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/genrun"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// generators are controller-gen's, with crd replaced.
var generators = map[string]genall.Generator{
	"crd":                crdgen.Generator{},
	"defaults":           defaultgen.Generator{},
	"rbac":               rbac.Generator{},
	"object":             deepcopy.Generator{},
	"applyconfiguration": applyconfiguration.Generator{},
	"webhook":            webhook.Generator{},
	"schemapatch":        schemapatcher.Generator{},
}

var outputRules = map[string]genall.OutputRule{
	"dir":       genall.OutputToDirectory(""),
	"none":      genall.OutputToNothing,
	"stdout":    genall.OutputToStdout,
	"artifacts": genall.OutputArtifacts{},
}

// optionsRegistry holds the command-line options as markers, as in controller-gen.
var optionsRegistry = &ctmarkers.Registry{}

func register(name string, v any) {
	defn := ctmarkers.Must(ctmarkers.MakeDefinition(name, ctmarkers.DescribesPackage, v))
	if err := optionsRegistry.Register(defn); err != nil {
		panic(err)
	}
	if h, ok := v.(genall.HasHelp); ok {
		if hp := h.Help(); hp != nil {
			optionsRegistry.AddHelp(defn, hp)
		}
	}
}

func init() {
	for genName, gen := range generators {
		register(genName, gen)
		for ruleName, rule := range outputRules {
			register(fmt.Sprintf("output:%s:%s", genName, ruleName), rule)
		}
	}
	for ruleName, rule := range outputRules {
		register("output:"+ruleName, rule)
	}
	if err := genall.RegisterOptionsMarkers(optionsRegistry); err != nil {
		panic(err)
	}
}

type noUsageError struct{ error }

func main() { os.Exit(mainCode()) }

// mainCode runs the command and returns the exit status, so that deferred
// work (the CPU profile) completes before the process exits.
func mainCode() (code int) {
	if path := os.Getenv("CONTROLLER_GEN_DEFAULT_CPUPROFILE"); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer func() {
			// a profile that did not reach the disk is as bad as none:
			// exit 2 as when it cannot be started, unless the run failed
			if err := stop(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				if code == 0 {
					code = 2
				}
			}
		}()
	}
	if len(os.Args) > 1 {
		if sub, ok := subcommands[os.Args[1]]; ok {
			return sub(os.Args[2:])
		}
	}
	cmd := generateCommand()
	return exitCode(cmd, cmd.Execute())
}

// subcommands are the commands that are not controller-gen's, by name;
// each is given the arguments after its name.
var subcommands = map[string]func(args []string) int{
	"normalize":  func(args []string) int { return runObjects("normalize", args) },
	"impact":     func(args []string) int { return runObjects("impact", args) },
	"conversion": func(args []string) int { return runObjects("conversion", args) },
	"lint":       func(args []string) int { return lintCommand(args, os.Stdout, os.Stderr) },
}

// generateCommand is controller-gen's command line: generators, their
// options and output rules, and its help flags.
func generateCommand() *cobra.Command {
	helpLevel, whichLevel := 0, 0
	showVersion := false
	var buildTags []string

	cmd := &cobra.Command{
		Use:   "controller-gen-default",
		Short: "Generate Kubernetes API extension resources and code, with KEP-1929 defaults in CRDs.",
		Long: "controller-gen with a crd generator that implements KEP-1929 declarative defaults.\n" +
			"Arguments are controller-gen's; `normalize` shows objects as the apiserver would store them,\n" +
			"`impact` what stored objects become when their CRDs change.",
		Example: `	# What a kubebuilder Makefile runs
	controller-gen-default rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases

	# CRDs without implicit defaults (explicit +default markers still apply)
	controller-gen-default crd:implicitDefaults=false paths=./api/... output:crd:dir=out

	# Explain the markers of the crd generator, including +default
	controller-gen-default crd -ww

	# Show an object as the apiserver would store it
	controller-gen-default normalize --crd config/crd/bases sample.yaml

	# Show what stored objects become when the CRDs change
	controller-gen-default impact --old old/crd/bases --new config/crd/bases objects.yaml

	# Find the fields that conversions between API versions lose, and the defaults they disagree on
	controller-gen-default conversion ./api/...`,
		RunE: func(c *cobra.Command, rawOpts []string) error {
			switch {
			case showVersion:
				info, ok := debug.ReadBuildInfo()
				fmt.Fprint(c.OutOrStdout(), versionText(info, ok, crdgen.Version()))
				return nil
			case helpLevel > 0:
				return c.Usage()
			case whichLevel > 0:
				reg, err := genall.RegistryFromOptions(optionsRegistry, rawOpts)
				if err != nil {
					return err
				}
				if err := markers.Register(reg); err != nil {
					return err
				}
				return helpForLevels(c.OutOrStdout(), c.OutOrStderr(), whichLevel, reg, help.SortByCategory)
			}
			return run(rawOpts, buildTags)
		},
		SilenceUsage: true,
	}
	cmd.Flags().CountVarP(&whichLevel, "which-markers", "w", "print out all markers available with the requested generators\n(up to -www for the most detailed output, or -wwww for json output)")
	cmd.Flags().CountVarP(&helpLevel, "detailed-help", "h", "print out more detailed help\n(up to -hhh for the most detailed output, or -hhhh for json output)")
	cmd.Flags().BoolVar(&showVersion, "version", false, "show this tool's version and the controller-tools version it wraps")
	cmd.Flags().StringSliceVar(&buildTags, "load-build-tags", []string{"ignore_autogenerated"}, "build tags to use when loading Go packages")
	cmd.Flags().Bool("help", false, "print out usage and a summary of options")
	oldUsage := cmd.UsageFunc()
	cmd.SetUsageFunc(func(c *cobra.Command) error {
		if err := oldUsage(c); err != nil {
			return err
		}
		if helpLevel == 0 {
			helpLevel = summaryHelp
		}
		fmt.Fprintf(c.OutOrStderr(), "\n\nOptions\n\n")
		return helpForLevels(c.OutOrStdout(), c.OutOrStderr(), helpLevel, optionsRegistry, help.SortByOption)
	})
	return cmd
}

// exitCode reports err, the generate command's, and returns the exit
// status: an I/O error says what failed and how to fix it, anything else
// is followed by the usage, as controller-gen does.
func exitCode(cmd *cobra.Command, err error) int {
	if err != nil {
		if werr, ok := errors.AsType[*atomicout.Error](err); ok {
			// an I/O error: the usage text would not help
			if werr.Fix != "" {
				fmt.Fprintln(cmd.OutOrStderr(), werr.Fix)
			}
			return 1
		}
		if _, ok := errors.AsType[noUsageError](err); !ok {
			if err := cmd.Usage(); err != nil {
				panic(err)
			}
		}
		fmt.Fprintf(cmd.OutOrStderr(), "run `%[1]s %[2]s -w` to see all available markers, or `%[1]s %[2]s -h` for usage\n", cmd.CalledAs(), strings.Join(os.Args[1:], " "))
		return 1
	}
	return 0
}

// startCPUProfile writes a pprof CPU profile to path until stop is called
// (CONTROLLER_GEN_DEFAULT_CPUPROFILE=cpu.out; go tool pprof cpu.out); stop
// returns the error of closing the file, which may lose its last writes.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close() // nothing was written; StartCPUProfile's error is the one to report
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// writeHeapProfile writes a pprof heap profile
// (CONTROLLER_GEN_DEFAULT_MEMPROFILE=mem.out; go tool pprof -sample_index=inuse_space mem.out).
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // the profile shows the heap as of the last GC
	if err := pprof.WriteHeapProfile(f); err != nil {
		_ = f.Close() // the profile is incomplete already; report why
		return err
	}
	return f.Close()
}

// run loads the packages, runs the generators with every output staged in
// memory, and writes the files only when no generator and no package had an
// error.
func run(rawOpts, buildTags []string) error {
	rt, err := newRuntime(rawOpts, buildTags, os.Stderr)
	if err != nil {
		return err
	}
	var staging atomicout.Staging
	rt.OutputRules = staging.Wrap(rt.OutputRules)
	hadErrs := rt.Run()
	if path := os.Getenv("CONTROLLER_GEN_DEFAULT_MEMPROFILE"); path != "" {
		// while the loaded packages and every generator's output are alive
		if err := writeHeapProfile(path); err != nil {
			return err
		}
	}
	if hadErrs {
		return noUsageError{fmt.Errorf("not all generators ran successfully; no files were written")}
	}
	return staging.Commit()
}

// newRuntime loads the packages and sets up the generators of rawOpts as
// controller-gen does, wired as this tool runs them (genrun.Wire: this
// tool's markers registered after every generator's, one session for the
// run), with the findings going to diags.
func newRuntime(rawOpts, buildTags []string, diags io.Writer) (*genall.Runtime, error) {
	cfg := &packages.Config{BuildFlags: []string{"-tags=" + strings.Join(buildTags, ",")}}
	rt, err := genall.FromOptionsWithConfig(cfg, optionsRegistry, rawOpts)
	if err != nil {
		return nil, err
	}
	if len(rt.Generators) == 0 {
		return nil, fmt.Errorf("no generators specified")
	}
	if _, err := genrun.Wire(rt, diags); err != nil {
		return nil, err
	}
	return rt, nil
}

func helpForLevels(mainOut, errOut io.Writer, level int, reg *ctmarkers.Registry, sorter help.SortGroup) error {
	helpInfo := help.ByCategory(reg, sorter)
	switch level {
	case jsonHelp:
		return json.NewEncoder(mainOut).Encode(helpInfo)
	case detailedHelp, fullHelp:
		for _, cat := range helpInfo {
			if cat.Category == "" {
				continue
			}
			if err := prettyhelp.MarkersDetails(level == fullHelp, cat.Category, cat.Markers).Write(errOut); err != nil {
				return err
			}
		}
	case summaryHelp:
		for _, cat := range helpInfo {
			if cat.Category == "" {
				continue
			}
			if err := prettyhelp.MarkersSummary(cat.Category, cat.Markers).Write(errOut); err != nil {
				return err
			}
		}
	}
	return nil
}

const (
	_ = iota
	summaryHelp
	detailedHelp
	fullHelp
	jsonHelp
)
