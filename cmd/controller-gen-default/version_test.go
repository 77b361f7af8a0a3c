package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionText: --version names this tool's version, from the build
// information, and the controller-tools version it wraps.
func TestVersionText(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "45d96d0a1b2c3d4e5f"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}, Settings: rev}, true, "controller-gen-default v0.4.0 (controller-tools v0.23.0)\n"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, true, "controller-gen-default devel 45d96d0a1b2c+dirty (controller-tools v0.23.0)\n"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev[:1]}, true, "controller-gen-default devel 45d96d0a1b2c (controller-tools v0.23.0)\n"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "controller-gen-default devel (controller-tools v0.23.0)\n"},
		{nil, false, "controller-gen-default unknown (controller-tools v0.23.0)\n"},
	} {
		if got := versionText(tc.info, tc.ok, "v0.23.0"); got != tc.want {
			t.Errorf("versionText(%+v) = %q, want %q", tc.info, got, tc.want)
		}
	}
}
