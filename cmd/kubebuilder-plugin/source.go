package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// The module that holds the plugin and the tools it installs.
const selfModule = "github.com/controller-gen-default/controller-gen-default"

// toolSource is where a scaffold's Makefile gets controller-gen-default and
// controller-gen-default-normalize: `go install <package>@version` through
// the module proxy, or `go build` in a checkout of this module.
type toolSource struct {
	version  string
	checkout string // absolute; set: build from it, version unused
}

// checkoutDir is the checkout the plugin was built from, recorded at link
// time by `make install-plugin` (-ldflags "-X main.checkoutDir=$(CURDIR)").
// Without it the plugin takes the directory of its own source files, which
// the compiler records unless -trimpath is given.
var checkoutDir string

// buildSource is the default toolSource of init (and of an edit that
// adopts a Makefile) unless plugin.source says otherwise: a release build
// installs its own version, a build from a checkout builds the tools from
// that checkout. note is a warning when it can do neither and falls back
// to `latest`. Decided once; tests set plugin.source instead.
var buildSource = sync.OnceValues(func() (toolSource, string) {
	bi, ok := debug.ReadBuildInfo()
	_, file, _, _ := runtime.Caller(0)
	return detectSource(bi, ok, checkoutDir, file)
})

// detectSource decides buildSource from the build info, the recorded
// checkout and the compiled-in path of this source file.
//
//   - `go install …/cmd/kubebuilder-plugin@v0.1.0` (or `go run …@v0.1.0
//     install`) builds in module mode: the main module has a version that
//     the module proxy serves, and no VCS stamp. The Makefile pins it.
//   - `go build` or `make install-plugin` in a checkout gives "(devel)" or,
//     with VCS stamping, a pseudo-version of a commit the proxy may never
//     have seen (vcs.* settings, often "+dirty"). The Makefile builds the
//     tools from that checkout, when it is still there.
func detectSource(bi *debug.BuildInfo, ok bool, recorded, sourceFile string) (toolSource, string) {
	if ok && isRelease(bi) {
		return toolSource{version: bi.Main.Version}, ""
	}
	var tried []string
	for _, dir := range []string{recorded, sourceRoot(sourceFile)} {
		if dir == "" {
			continue
		}
		if err := isCheckout(dir); err != nil {
			tried = append(tried, err.Error())
			continue
		}
		return toolSource{checkout: dir}, ""
	}
	why := "it records no checkout (built with -trimpath?)"
	if len(tried) > 0 {
		why = strings.Join(tried, "; ")
	}
	return toolSource{version: "latest"}, "warning: this plugin is a development build, but the checkout it was built from is not usable: " + why +
		". The Makefile pins controller-gen-default latest, which the module proxy may not serve; pass --" + flagToolCheckout +
		" <checkout> to build the tools from a checkout, or --" + flagToolVersion + " <version>"
}

// isRelease: the build is `go install module@version`.
func isRelease(bi *debug.BuildInfo) bool {
	v := bi.Main.Version
	if v == "" || v == "(devel)" || !strings.HasPrefix(v, "v") || strings.Contains(v, "+") {
		return false
	}
	for _, s := range bi.Settings {
		if strings.HasPrefix(s.Key, "vcs") {
			return false
		}
	}
	return true
}

// sourceRoot is the root of the module whose cmd/kubebuilder-plugin holds
// file, "" if file is not an absolute path (-trimpath).
func sourceRoot(file string) string {
	if !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// isCheckout: dir holds this module with the tools' main packages.
func isCheckout(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("%s is not an absolute path", dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return fmt.Errorf("%s is not a checkout of %s: %w", dir, selfModule, errors.Unwrap(err))
	}
	if m := modulePath(map[string]string{"go.mod": string(b)}); m != selfModule {
		return fmt.Errorf("%s is not a checkout of %s: its go.mod is module %s", dir, selfModule, m)
	}
	for _, cmd := range []string{toolBinary, normalizeBinary} {
		if fi, err := os.Stat(filepath.Join(dir, "cmd", cmd)); err != nil || !fi.IsDir() {
			return fmt.Errorf("%s has no cmd/%s", dir, cmd)
		}
	}
	if strings.ContainsAny(dir, " \t\n$#\\\"'`") {
		return fmt.Errorf("%q: make cannot use a path with blanks or any of $#\\\"'`; move the checkout", dir)
	}
	return nil
}

// sourceText says where scaffolds of this build (p.defaultSource) get the
// tools.
func (p plugin) sourceText() string {
	src, note := p.defaultSource()
	if note != "" {
		return "scaffolds pin controller-gen-default latest (a development build whose checkout is not usable)"
	}
	if src.checkout != "" {
		return "scaffolds build controller-gen-default and controller-gen-default-normalize from the checkout " + src.checkout
	}
	return "scaffolds install controller-gen-default and controller-gen-default-normalize " + src.version
}
