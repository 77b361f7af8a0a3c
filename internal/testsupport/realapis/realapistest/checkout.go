// Package realapistest is what tests of other packages use to run real
// API modules: a checkout of a module at a release, and the two
// controller-gen binaries they compare.
package realapistest

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// Checkout writes module@version into dir as a clone of its repository at
// that release holds it, for a test that runs a command from the module's
// root (conversion ./..., impact --convert ./...): the module from the Go
// module proxy, and each nested module that its go.mod replaces with a
// directory inside it (cluster-api's `replace sigs.k8s.io/cluster-api/api
// => ./api`) at the same version, since a module's zip leaves nested
// modules out. Files are writable, so that a test can add a package (a
// setup function) as the project's maintainers would. dir must not exist
// or be empty. A refusal of the proxy is an realapis.ErrFetch naming module@version.
func Checkout(ctx context.Context, dir, module, version string) error {
	src, err := realapis.ModuleDir(ctx, module, version)
	if err != nil {
		return err
	}
	if err := CopyTree(src, dir); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "edit", "-json")
	cmd.Dir, cmd.Env = dir, realapis.GoEnv("-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod edit -json in %s: %w", dir, err)
	}
	var mod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return fmt.Errorf("realapis: go mod edit -json in %s: %w", dir, err)
	}
	for _, r := range mod.Replace {
		nested := r.New.Version == "" && strings.HasPrefix(r.Old.Path, module+"/") &&
			(strings.HasPrefix(r.New.Path, "./") || strings.HasPrefix(r.New.Path, "../"))
		if !nested {
			continue
		}
		target := filepath.Join(dir, filepath.FromSlash(path.Clean(r.New.Path)))
		if rel, err := filepath.Rel(dir, target); err != nil || strings.HasPrefix(rel, "..") {
			continue // a directory outside the module: not a nested module
		}
		nsrc, err := realapis.ModuleDir(ctx, r.Old.Path, version)
		if err != nil {
			return err
		}
		if err := CopyTree(nsrc, target); err != nil {
			return err
		}
	}
	return nil
}

// CopyTree copies the regular files and directories of src (a file or a
// directory) into dst, writable by the owner (the module cache's are
// read-only), for tests that change a copy of a module.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(out, b, 0o644)
		}
		return nil
	})
}
