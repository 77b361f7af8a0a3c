package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// withSource is the plugin whose default toolSource is src, with note,
// as if it had been built so.
func withSource(src toolSource, note string) plugin {
	return plugin{source: func() (toolSource, string) { return src, note }}
}

// repoRoot is this checkout.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := isCheckout(root); err != nil {
		t.Skipf("not in a checkout: %v", err)
	}
	return root
}

const fakeCheckout = "/src/controller-gen-default"

// A plugin built from a checkout: the Makefile builds both tools from it.
func TestCheckoutBuildMakefile(t *testing.T) {
	t.Parallel()
	p := withSource(toolSource{checkout: fakeCheckout}, "")
	u := projectUniverse(t)
	for _, command := range []string{"init", "edit"} {
		resp, stderr := callPlugin(t, p, request(t, command, []string{"--domain", "example.com"}, u))
		if resp.Error {
			t.Fatalf("%s: %q", command, resp.ErrorMsgs)
		}
		mk := resp.Universe["Makefile"]
		golden(t, "Makefile.checkout.golden", mk)
		if want := pluginKey + ": make builds controller-gen-default and controller-gen-default-normalize into $(LOCALBIN) from the checkout " + fakeCheckout; !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", command, want, stderr)
		}
		for _, want := range []string{
			"\n" + toolCheckoutVar + " ?= " + fakeCheckout + "\n",
			"\n$(CONTROLLER_GEN): $(LOCALBIN)\n\t" + buildCall + "\n\t" + buildNormalizeCall + "\n",
			// right after go-install-tool's definition
			"ln -sf \"$$(realpath \"$(1)-$(3)\")\" \"$(1)\"\nendef\n\n" + checkoutBeginMark,
			"\ndefine " + buildTool + "\n",
			"go -C \"$(" + toolCheckoutVar + ")\" build -mod=readonly -o \"$(abspath $(1))-checkout\" \"$(2)\"",
		} {
			if !strings.Contains(mk, want) {
				t.Errorf("%s: Makefile lacks %q", command, want)
			}
		}
		if strings.Contains(mk, toolVersionVar) && !strings.Contains(mk, "$("+toolVersionVar+")") || strings.Contains(mk, "go-install-tool,$(CONTROLLER_GEN),") {
			t.Errorf("%s: a checkout Makefile installs a version:\n%s", command, mk)
		}
	}

	// edit keeps it; the checkout is not on this machine, which edit says,
	// with the line of the variable.
	resp, _ := callPlugin(t, p, request(t, "init", nil, u))
	mk := resp.Universe["Makefile"]
	u["Makefile"] = mk
	resp, stderr := callPlugin(t, p, request(t, "edit", nil, u))
	line := strings.Count(mk[:strings.Index(mk, "\n"+toolCheckoutVar+" ?=")+1], "\n") + 1
	want := fmt.Sprintf("%s: Makefile:%d: warning: %s is not a checkout of %s: no such file or directory, so make cannot build controller-gen-default from it: "+
		"set %s to a checkout, or run `kubebuilder edit --plugins %s --%s <checkout>` (or --%s <version>)\n",
		pluginKey, line, fakeCheckout, selfModule, toolCheckoutVar, pluginKey, flagToolCheckout, flagToolVersion)
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, want) {
		t.Errorf("second edit: error %v, universe %v, stderr:\n%s\nwant:\n%s", resp.Error, mapKeys(resp.Universe), stderr, want)
	}
}

// The flags switch between a version and a checkout, and a switch gives
// the Makefile that init would have written with the flag: nothing of the
// other mode is left.
func TestSwitchToolSource(t *testing.T) {
	t.Parallel()
	repo := repoRoot(t)
	p := withSource(toolSource{checkout: repo}, "")
	stock := projectUniverse(t)
	initWith := func(args ...string) string {
		t.Helper()
		resp, stderr := callPlugin(t, p, request(t, "init", append(args, "--"+flagOfflineEnvtest), stock))
		if resp.Error {
			t.Fatalf("init %v: %q", args, resp.ErrorMsgs)
		}
		if strings.Contains(stderr, "warning") {
			t.Errorf("init %v: %s", args, stderr)
		}
		return resp.Universe["Makefile"]
	}
	byCheckout := initWith("--"+flagToolCheckout, repo)
	byVersion := initWith("--"+flagToolVersion, "v0.2.0")
	if d := initWith(); d != byCheckout {
		t.Errorf("the default of a checkout build is not its checkout:\n%s", lineDiff(byCheckout, d))
	}
	// A relative path is taken from the plugin's directory, the project's.
	if d := initWith("--" + flagToolCheckout + "=../.."); d != byCheckout {
		t.Errorf("--%s=../..:\n%s", flagToolCheckout, lineDiff(byCheckout, d))
	}
	if !strings.Contains(byVersion, "\n\t"+installCall+"\n\t"+installNormalizeCall+"\n") || strings.Contains(byVersion, toolCheckoutVar+" ?=") || strings.Contains(byVersion, checkoutBeginMark) {
		t.Errorf("--%s v0.2.0:\n%s", flagToolVersion, byVersion)
	}
	edit := func(mk string, args ...string) string {
		t.Helper()
		u := projectUniverse(t)
		u["Makefile"] = mk
		resp, _ := callPlugin(t, p, request(t, "edit", args, u))
		if resp.Error {
			t.Fatalf("edit %v: %q", args, resp.ErrorMsgs)
		}
		if out, ok := resp.Universe["Makefile"]; ok {
			return out
		}
		return mk
	}
	for _, tc := range []struct {
		name     string
		from     string
		args     []string
		want     string
		wantName string
	}{
		{"checkout → version", byCheckout, []string{"--" + flagToolVersion, "v0.2.0"}, byVersion, "byVersion"},
		{"version → checkout", byVersion, []string{"--" + flagToolCheckout, repo}, byCheckout, "byCheckout"},
		{"checkout, no flag", byCheckout, nil, byCheckout, "byCheckout"},
		// The build's default is a checkout, but the Makefile's choice stays.
		{"version, no flag", byVersion, nil, byVersion, "byVersion"},
		{"version → version", byVersion, []string{"--" + flagToolVersion + "=v0.3.0"}, strings.Replace(byVersion, toolVersionVar+" ?= v0.2.0", toolVersionVar+" ?= v0.3.0", 1), "v0.3.0"},
	} {
		if got := edit(tc.from, tc.args...); got != tc.want {
			t.Errorf("%s: not %s:\n%s", tc.name, tc.wantName, lineDiff(tc.want, got))
		}
	}
	// A Makefile of an older plugin: one go-install-tool line, no normalize.
	older := strings.Replace(byVersion, "\n\t"+installNormalizeCall, "", 1)
	if got := edit(older); got != byVersion {
		t.Errorf("an older plugin's Makefile does not get the normalize line:\n%s", lineDiff(byVersion, got))
	}
}

// What init pins when no flag says: a release its version; a development
// build whose checkout is gone latest, with a warning.
func TestToolSourceDefault(t *testing.T) {
	t.Parallel()
	u := projectUniverse(t)
	release := withSource(toolSource{version: "v0.3.0"}, "")
	resp, stderr := callPlugin(t, release, request(t, "init", nil, u))
	if mk := resp.Universe["Makefile"]; !strings.Contains(mk, "\n"+toolVersionVar+" ?= v0.3.0\n") || strings.Contains(mk, toolCheckoutVar) ||
		!strings.Contains(stderr, "make installs controller-gen-default and controller-gen-default-normalize v0.3.0 into $(LOCALBIN) with go install") {
		t.Errorf("release build: stderr %q, Makefile:\n%s", stderr, mk)
	}

	const note = "warning: this plugin is a development build, but …"
	fallback := withSource(toolSource{version: "latest"}, note)
	resp, stderr = callPlugin(t, fallback, request(t, "init", nil, u))
	if !strings.Contains(resp.Universe["Makefile"], "\n"+toolVersionVar+" ?= latest\n") || !strings.Contains(stderr, pluginKey+": "+note+"\n") {
		t.Errorf("fallback: stderr %q", stderr)
	}
	// A flag wins, and the warning goes.
	resp, stderr = callPlugin(t, fallback, request(t, "init", []string{"--" + flagToolVersion, "v0.1.0"}, u))
	if !strings.Contains(resp.Universe["Makefile"], "\n"+toolVersionVar+" ?= v0.1.0\n") || strings.Contains(stderr, "warning") {
		t.Errorf("fallback and a flag: stderr %q", stderr)
	}

	notOurs := t.TempDir()
	if err := os.WriteFile(filepath.Join(notOurs, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--" + flagToolVersion}, "--controller-gen-default-version needs a value"},
		{[]string{"--" + flagToolVersion, "--domain"}, "needs a value"},
		{[]string{"--" + flagToolVersion + "=$(shell rm -rf /)"}, "not a version"},
		{[]string{"--" + flagOfflineEnvtest + "=maybe"}, "not true or false"},
		{[]string{"--" + flagToolCheckout, "/nowhere/cgd"}, "--controller-gen-default-checkout=/nowhere/cgd: /nowhere/cgd is not a checkout of " + selfModule},
		{[]string{"--" + flagToolCheckout, notOurs}, "its go.mod is module example.com/other"},
		{[]string{"--" + flagToolCheckout, "../..", "--" + flagToolVersion, "v0.1.0"}, "--controller-gen-default-checkout and --controller-gen-default-version: give one"},
	} {
		resp, _ := callPlugin(t, fallback, request(t, "edit", tc.args, u))
		if !resp.Error || len(resp.Universe) != 0 || !strings.Contains(strings.Join(resp.ErrorMsgs, "\n"), tc.want) {
			t.Errorf("edit %v: want an error %q and no files, got %+v", tc.args, tc.want, resp)
		}
	}
}

func TestDetectSource(t *testing.T) {
	repo := repoRoot(t)
	src := filepath.Join(repo, "cmd", "kubebuilder-plugin", "source.go")
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abcdef"}}
	for _, tc := range []struct {
		name           string
		version        string
		settings       []debug.BuildSetting
		recorded, file string
		want           toolSource
		note           bool
	}{
		{name: "go install …@v0.1.0", version: "v0.1.0", file: "/root/go/pkg/mod/" + selfModule + "@v0.1.0/cmd/kubebuilder-plugin/source.go", want: toolSource{version: "v0.1.0"}},
		{name: "go install …@<commit>, from the proxy", version: "v0.0.0-20260101000000-abcdefabcdef", want: toolSource{version: "v0.0.0-20260101000000-abcdefabcdef"}},
		{name: "go build in a checkout, VCS-stamped", version: "v0.1.1-0.20260101000000-abcdefabcdef+dirty", settings: vcs, file: src, want: toolSource{checkout: repo}},
		{name: "a pseudo-version with VCS settings", version: "v0.0.0-20260101000000-abcdefabcdef", settings: vcs, file: src, want: toolSource{checkout: repo}},
		{name: "go build -buildvcs=false", version: "(devel)", file: src, want: toolSource{checkout: repo}},
		{name: "make install-plugin recorded it", version: "(devel)", recorded: repo, file: "github.com/x/y.go", want: toolSource{checkout: repo}},
		{name: "the recorded checkout wins", version: "(devel)", recorded: repo, file: "/elsewhere/cmd/kubebuilder-plugin/source.go", want: toolSource{checkout: repo}},
		{name: "-trimpath", version: "(devel)", file: selfModule + "/cmd/kubebuilder-plugin/source.go", want: toolSource{version: "latest"}, note: true},
		{name: "the checkout moved", version: "(devel)", file: "/gone/cmd/kubebuilder-plugin/source.go", want: toolSource{version: "latest"}, note: true},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: selfModule, Version: tc.version}, Settings: tc.settings}
		got, note := detectSource(bi, true, tc.recorded, tc.file)
		if got != tc.want || (note != "") != tc.note {
			t.Errorf("%s: %+v %q, want %+v (note %v)", tc.name, got, note, tc.want, tc.note)
		}
		if tc.note && (!strings.Contains(note, "--"+flagToolCheckout) || !strings.Contains(note, "latest")) {
			t.Errorf("%s: note %q", tc.name, note)
		}
	}
}
