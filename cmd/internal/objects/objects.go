// Package objects is the command of controller-gen-default-objects (and
// of its former name, controller-gen-default-normalize, kept for the
// Makefiles that install it): the commands that run the apiserver's code
// on objects. With normalize as its first argument, or none of the names
// below, it is normalize: objects as the apiserver would store them on
// create, validated as it would.
//
//	controller-gen-default-objects normalize --crd config/crd/bases config/samples/my_v1_tour.yaml
//
// With impact as its first argument it is `controller-gen-default impact`:
// what objects stored under some CRDs become when the CRDs change.
//
//	controller-gen-default-objects impact --old old/crds --new config/crd/bases dump.yaml
//
// With conversion as its first argument it is `controller-gen-default
// conversion`: what the API's own conversion code loses in round trips
// between versions, and the defaults that disagree across versions.
//
//	controller-gen-default-objects conversion ./api/...
//
// Each subcommand is a package of its own, which reads its flags with
// the one front end of package cmd/internal/subcommand (flags anywhere,
// -h on stdout, usage errors exit 2): normalizecmd, impactcmd and
// conversioncmd. They fill the Options of packages internal/normalize,
// internal/impact and internal/conversion, whose Run (conversion.Report)
// does the steps, writes the output and returns the exit status. It is
// not part of the controller-gen-default binary because the apiserver's
// custom-resource registry strategy it calls links the apiserver's
// storage layer, which a generator has no use for.
package objects

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/controller-gen-default/controller-gen-default/cmd/internal/objects/conversioncmd"
	"github.com/controller-gen-default/controller-gen-default/cmd/internal/objects/impactcmd"
	"github.com/controller-gen-default/controller-gen-default/cmd/internal/objects/normalizecmd"
)

// Main runs the command with the process's arguments and streams, and
// exits with its status.
func Main() {
	// The apiserver's code logs through klog for the operators of an
	// apiserver (rest.RecordDuplicateValidationErrors, for one, logs every
	// error an update reports twice). Here its answers are the output, on
	// stdout and stderr as documented: klog's lines would only repeat
	// them, so every klog call, global or from a context, goes nowhere.
	klog.SetLogger(logr.Discard())
	os.Exit(run())
}

// run is the command; CONTROLLER_GEN_DEFAULT_CPUPROFILE=cpu.out writes a
// pprof CPU profile of it, as for controller-gen-default.
func run() (code int) {
	if path := os.Getenv("CONTROLLER_GEN_DEFAULT_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer func() {
			pprof.StopCPUProfile()
			// a profile that did not reach the disk is as bad as none:
			// exit 2 as when it cannot be started, unless the run failed
			if err := f.Close(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				if code == 0 {
					code = 2
				}
			}
		}()
	}

	args := os.Args[1:]
	sub := subcommands["normalize"]
	if len(args) > 0 {
		if s, ok := subcommands[args[0]]; ok {
			sub, args = s, args[1:]
		}
	}
	return sub(args, os.Stdin, os.Stdout, os.Stderr)
}

// subcommands are the commands by name, each a package of its own; each
// is given the arguments after its name. Without a name, the arguments
// are normalize's.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"normalize":  normalizecmd.Run,
	"impact":     impactcmd.Run,
	"conversion": conversioncmd.Run,
}
