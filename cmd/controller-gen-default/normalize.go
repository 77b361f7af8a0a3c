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

// normalizeCommand implements `controller-gen-default normalize` and
// `controller-gen-default impact` (as `controller-gen-default-normalize
// impact`). It is a program of its own, found next to this one or on PATH as kubectl finds
// its plugins, because the create path it runs (the apiserver's
// custom-resource registry strategy) links the apiserver's storage layer:
// etcd's client, gRPC and informers, 20 MB of binary and 13 MiB of resident
// memory that every generator run would otherwise pay for.
const normalizeCommand = "controller-gen-default-normalize"

// exitUnusable is the exit status of normalize and impact for unusable
// input (pipeline.ExitUnusable, impact.ExitUnusable).
const exitUnusable = 2

// runNormalize runs the subcommand sub ("normalize", "impact" or
// "conversion") of normalizeCommand with args and the standard streams of
// this process, and returns its exit status.
func runNormalize(sub string, args []string) int {
	path, err := findNormalize()
	if err != nil {
		version := "latest"
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			version = info.Main.Version
		}
		fmt.Fprintf(os.Stderr, "controller-gen-default %s: %s is neither next to this binary nor on PATH.\n"+
			"Install it with: go install github.com/controller-gen-default/controller-gen-default/cmd/%s@%s\n",
			sub, normalizeCommand, normalizeCommand, version)
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

// findNormalize looks for normalizeCommand in the directory of this
// executable (where go install and make build put both), then on PATH.
func findNormalize() (string, error) {
	name := normalizeCommand
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
	}
	return exec.LookPath(normalizeCommand)
}
