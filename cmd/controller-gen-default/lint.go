package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/cmd/internal/subcommand"
	"github.com/controller-gen-default/controller-gen-default/lint"
)

// Exit statuses of `controller-gen-default lint`.
const (
	lintClean    = 0 // no finding
	lintFindings = 1 // findings (with -fix: findings that remain)
	lintUsage    = 2 // bad arguments, or packages that do not load
)

const lintUsageText = `usage: controller-gen-default lint [-fix] [-implicit-defaults=false] [-rules RULE=SETTING,...] PACKAGES...

Reports the KEP-1929 findings of the crd generator that need no schema
(%s),
in go vet style: FILE:LINE:COL: error|warning: Type.Field: message [rule].
Exit status: 0 no finding, 1 findings, 2 usage or load error.

Flags:
`

// lintCommand is `controller-gen-default lint`: it loads PACKAGES (go
// list patterns, e.g. ./api/...) from the working directory, runs the
// analyzers (lint.Run), prints each diagnostic to stderr in go vet style,
// sorted by position, with file names relative to the working directory,
// and returns the exit status. With -fix it applies the suggested fixes and
// prints only what they do not fix. Its command line is read as the other
// subcommands' (package cmd/internal/subcommand): flags anywhere, -h on
// stdout, a usage error with the usage on stderr, exit 2.
func lintCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommand.New("controller-gen-default lint", fmt.Sprintf(lintUsageText, strings.Join(lint.Rules, ", ")), stdout, stderr)
	fix := fs.Bool("fix", false, "apply the suggested fixes, and report only what they do not fix")
	implicit := fs.Bool("implicit-defaults", true, "as crd:implicitDefaults: false reports KEP-1929 rule violations as warnings")
	rules := map[string]lint.RuleSetting{}
	fs.Func("rules", "rules one by one, RULE=off|on|error|warning, comma-separated (repeatable): off reports nothing of RULE, error and warning report its findings at that severity", func(v string) error {
		m, err := lint.ParseRuleSettings(v)
		for r, s := range m {
			rules[r] = s
		}
		return err
	})
	patterns, code, ok := fs.Parse(args)
	if !ok {
		return code
	}
	if len(patterns) == 0 {
		return fs.Usagef("no packages: give go list patterns, e.g. ./api/...")
	}
	diags, err := lint.Run(patterns, lint.Options{Config: lint.Config{ImplicitDefaults: *implicit, Rules: rules}, Fix: *fix})
	if err != nil {
		printLintError(stderr, err)
		return lintUsage
	}
	for _, d := range diags {
		fmt.Fprintln(stderr, d)
	}
	if len(diags) > 0 {
		return lintFindings
	}
	return lintClean
}

// printLintError prints an error of lint.Run: each error of a package
// that does not load at its position, and the other errors, one a line,
// after the command's name.
func printLintError(stderr io.Writer, err error) {
	var load *lint.LoadError
	if errors.As(err, &load) {
		for _, e := range load.Errors {
			if e.Pos == "" {
				fmt.Fprintf(stderr, "controller-gen-default lint: %s\n", e.Msg)
			} else {
				fmt.Fprintln(stderr, e)
			}
		}
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "controller-gen-default lint: %v\n", e)
	}
}
