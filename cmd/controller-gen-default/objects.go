package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
)

// objectsCommand runs `controller-gen-default normalize`, `impact` and
// `conversion` (as `controller-gen-default-objects impact`, and so on). It
// is a program of its own, found next to this one or on PATH as kubectl
// finds its plugins, because the create path it runs (the apiserver's
// custom-resource registry strategy) links the apiserver's storage layer:
// etcd's client, gRPC and informers, 20 MB of binary and 13 MiB of
// resident memory that every generator run would otherwise pay for.
// formerObjectsCommand is its former name, which the Makefiles of projects
// scaffolded before the rename install: it is looked for second.
const (
	objectsCommand       = "controller-gen-default-objects"
	formerObjectsCommand = "controller-gen-default-normalize"
)

// exitUnusable is the exit status of normalize and impact for unusable
// input (normalize.ExitUnusable, impact.ExitUnusable).
const exitUnusable = 2

// runNormalize runs the subcommand sub ("normalize", "impact" or
// "conversion") of objectsCommand with args and the standard streams of
// this process, and returns its exit status.
func runObjects(sub string, args []string) int {
	path, err := findObjects(exec.LookPath)
	if err != nil {
		version := "latest"
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			version = info.Main.Version
		}
		fmt.Fprintf(os.Stderr, "controller-gen-default %s: %s is neither next to this binary nor on PATH.\n"+
			"Install it with: go install github.com/controller-gen-default/controller-gen-default/cmd/%s@%s\n",
			sub, objectsCommand, objectsCommand, version)
		return exitUnusable
	}
	cmd := exec.Command(path, append([]string{sub}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.ExitCode() >= 0 {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "controller-gen-default %s: %v\n", sub, err)
		return exitUnusable
	}
	return 0
}

// findObjects looks for objectsCommand, then formerObjectsCommand, in the
// directory of this executable (where go install and make build put
// them), then on PATH with lookPath.
func findObjects(lookPath func(string) (string, error)) (string, error) {
	names := []string{objectsCommand, formerObjectsCommand}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			for _, name := range names {
				if runtime.GOOS == "windows" {
					name += ".exe"
				}
				p := filepath.Join(filepath.Dir(exe), name)
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					return p, nil
				}
			}
		}
	}
	var first error
	for _, name := range names {
		p, err := lookPath(name)
		if err == nil {
			return p, nil
		}
		if first == nil {
			first = err
		}
	}
	return "", first
}
