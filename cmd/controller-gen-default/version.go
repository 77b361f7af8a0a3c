package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// versionText is what --version prints: this tool's version, from the
// build information of the binary (the module version `go install
// ...@vX` records, else the VCS revision a build from a checkout records),
// and the controller-tools version it wraps, which is also what it writes
// in the CRDs' controller-gen.kubebuilder.io/version annotation, as
// controller-gen does.
func versionText(info *debug.BuildInfo, ok bool, controllerTools string) string {
	return fmt.Sprintf("controller-gen-default %s (controller-tools %s)\n", toolVersion(info, ok), controllerTools)
}

// toolVersion is the main module's version in info: a release or
// pseudo-version as `go install` records it; for a build from a checkout,
// "devel" with the commit and "+dirty" when the tree had changes;
// "unknown" without build information.
func toolVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "unknown"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	out := "devel " + rev
	if modified == "true" {
		out += "+dirty"
	}
	return strings.TrimSpace(out)
}
