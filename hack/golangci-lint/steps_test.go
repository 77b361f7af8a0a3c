//go:build ignore

// This file is not part of this repository's module (the build tag above):
// build.sh copies it, without that tag, into package
// pkg/commands/internal of a copy of golangci-lint's module source, and
// runs it there with `go test`. It runs the steps of `golangci-lint
// custom` (Builder.Build in pkg/commands/internal/builder.go) with
// golangci-lint's own code: every step but the git clone, which build.sh
// replaced by the module proxy's copy of the same source.

package internal

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/golangci/golangci-lint/v2/pkg/logutils"
)

// TestKepdefaultsBuild is Builder.Build without clone. Its environment:
//
//	KEPDEFAULTS_CONFIG_DIR  the directory of .custom-gcl.yml
//	KEPDEFAULTS_VERSION     the golangci-lint version of this copy
//	KEPDEFAULTS_MODULE      the module whose path plugin is the checkout
//	KEPDEFAULTS_CHECKOUT    that checkout
//	KEPDEFAULTS_OUT         the binary to write, as --destination and --name
//	KEPDEFAULTS_ROOT        the builder's root: this copy is its "golangci-lint"
func TestKepdefaultsBuild(t *testing.T) {
	env := func(k string) string {
		v := os.Getenv(k)
		if v == "" {
			t.Fatalf("%s is not set", k)
		}
		return v
	}
	root, out := env("KEPDEFAULTS_ROOT"), env("KEPDEFAULTS_OUT")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "golangci-lint", "pkg", "commands", "internal"); wd != want {
		t.Fatalf("running in %s, not in %s", wd, want)
	}

	// custom.go's preRunE: LoadConfiguration reads .custom-gcl.yml in the
	// working directory; the flags --name and --destination override it.
	if err := os.Chdir(env("KEPDEFAULTS_CONFIG_DIR")); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfiguration()
	if err != nil {
		t.Fatal(err)
	}
	if v := env("KEPDEFAULTS_VERSION"); cfg.Version != v {
		t.Fatalf(".custom-gcl.yml: version %s, this copy is %s", cfg.Version, v)
	}
	cfg.Name, cfg.Destination = filepath.Base(out), filepath.Dir(out)
	found := false
	for _, p := range cfg.Plugins {
		if p.Module == env("KEPDEFAULTS_MODULE") {
			if p.Path == "" {
				t.Fatalf(".custom-gcl.yml: %s has no path", p.Module)
			}
			p.Path, found = env("KEPDEFAULTS_CHECKOUT"), true
		}
	}
	if !found {
		t.Fatalf(".custom-gcl.yml: no plugin %s", env("KEPDEFAULTS_MODULE"))
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}

	// custom.go's runE, with the log of `golangci-lint custom -v`.
	log := logutils.NewStderrLog(logutils.DebugKeyEmpty)
	log.SetLevel(logutils.LogLevelInfo)
	b := NewBuilder(log, cfg, root)

	// Build, from "Adding plugin imports" on.
	ctx := context.Background()
	b.log.Infof("Adding plugin imports")
	if err := b.updatePluginsFile(); err != nil {
		t.Fatalf("update plugin file: %v", err)
	}
	b.log.Infof("Adding replace directives")
	if err := b.addToGoMod(ctx); err != nil {
		t.Fatalf("add to go.mod: %v", err)
	}
	b.log.Infof("Running go mod tidy")
	if err := b.goModTidy(ctx); err != nil {
		t.Fatalf("go mod tidy: %v", err)
	}
	b.log.Infof("Building golangci-lint binary")
	binaryName := b.getBinaryName()
	if err := b.goBuild(ctx, binaryName); err != nil {
		t.Fatalf("build golangci-lint binary: %v", err)
	}
	b.log.Infof("Moving golangci-lint binary")
	if err := b.copyBinary(binaryName); err != nil {
		t.Fatalf("move golangci-lint binary: %v", err)
	}
}
