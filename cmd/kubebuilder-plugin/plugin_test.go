package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// The line that kubebuilder's `create api --ssa` (later versions) looks for,
// as go/v4 scaffolds it: the plugin must keep it byte for byte.
const manifestsLine = "\t\"$(CONTROLLER_GEN)\" rbac:roleName=manager-role crd webhook paths=\"./...\" output:crd:artifacts:config=config/crd/bases\n"

// readTxtar reads a txtar archive (golang.org/x/tools/txtar's format: a
// comment, then "-- path --" lines each followed by the file's content).
func readTxtar(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var cur string
	var b strings.Builder
	flush := func() {
		if cur != "" {
			files[cur] = b.String()
		}
		b.Reset()
	}
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --\n") {
			flush()
			cur = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --\n")
			continue
		}
		b.WriteString(l)
	}
	flush()
	return files
}

// projectUniverse is the universe kubebuilder sends for the fixture project:
// the files of testdata/v4-project.txtar plus what a real project directory
// also holds, .git/ and the binaries under bin/, which the plugin must not
// echo back.
func projectUniverse(t *testing.T) map[string]string {
	u := readTxtar(t, "v4-project.txtar")
	u[".git/HEAD"] = "ref: refs/heads/main\n"
	u["bin/controller-gen-v0.21.0"] = "\x7fELF\x02\x01\x01\x00\xff\xfe\x00binary"
	u["bin/controller-gen"] = u["bin/controller-gen-v0.21.0"]
	return u
}

// The config and plugin chain that kubebuilder v4.15.0 sent in a captured
// run (see README.md, "How it was checked").
const capturedConfig = `{"cliVersion":"4.15.0","domain":"example.com",
 "layout":["defaults.controller-gen-default.github.io/v1","go.kubebuilder.io/v4"],
 "projectName":"fleet","repo":"example.com/fleet","version":"3"}`

func request(t *testing.T, command string, args []string, universe map[string]string) PluginRequest {
	t.Helper()
	req := PluginRequest{APIVersion: "v1alpha1", Command: command, Args: args, Universe: universe,
		PluginChain: []string{pluginKey, "go.kubebuilder.io/v4"}}
	if err := json.Unmarshal([]byte(capturedConfig), &req.Config); err != nil {
		t.Fatal(err)
	}
	return req
}

// call runs the plugin as built (plugin{}) as kubebuilder does, JSON in
// and out, and returns the response and the plugin's stderr.
func call(t *testing.T, req PluginRequest) (PluginResponse, string) {
	t.Helper()
	return callPlugin(t, plugin{}, req)
}

// callPlugin is call of p.
func callPlugin(t *testing.T, p plugin, req PluginRequest) (PluginResponse, string) {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := p.run(nil, bytes.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	var resp PluginResponse
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&resp); err != nil {
		t.Fatalf("stdout is not one PluginResponse: %v\n%s", err, stdout.String())
	}
	if dec.More() {
		t.Fatalf("stdout holds more than the response: %s", stdout.String())
	}
	if resp.APIVersion != "v1alpha1" || resp.Command != req.Command {
		t.Errorf("response apiVersion %q command %q, want v1alpha1 %q", resp.APIVersion, resp.Command, req.Command)
	}
	return resp, stderr.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (go test -update rewrites it); diff:\n%s", p, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines only in a (-) and only in b (+), in order.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	// Longest common subsequence; the files are small.
	n, m := len(al), len(bl)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if al[i] == bl[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && al[i] == bl[j]:
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out.WriteString("-" + al[i] + "\n")
			i++
		default:
			out.WriteString("+" + bl[j] + "\n")
			j++
		}
	}
	return out.String()
}

const pinned = "--" + flagToolVersion

func TestFlagsAndMetadata(t *testing.T) {
	// go/v4's own flags on the same subcommands: a duplicate makes
	// kubebuilder's flag set panic.
	taken := []string{"domain", "repo", "owner", "license", "license-file", "project-name", "project-version",
		"skip-go-version-check", "fetch-deps", "multigroup", "namespaced", "plugins", "help", "group", "version", "kind",
		"resource", "controller", "make", "force", "external-api-path", "external-api-domain", "external-api-module",
		"namespaced", "plural", "defaulting", "programmatic-validation", "conversion", "spoke", "legacy-path", "defaulting-path", "validation-path"}
	for _, sub := range []string{"init", "edit", "api", "webhook"} {
		resp, stderr := call(t, PluginRequest{APIVersion: "v1alpha1", Command: "flags", Args: []string{"--" + sub}, Universe: map[string]string{}})
		if resp.Error || stderr != "" {
			t.Errorf("flags --%s: error %v %q, stderr %q", sub, resp.Error, resp.ErrorMsgs, stderr)
		}
		for _, f := range resp.Flags {
			if slices.Contains(taken, f.Name) {
				t.Errorf("flags --%s: %q is already a go/v4 flag", sub, f.Name)
			}
			if !slices.Contains([]string{"string", "bool", "int", "float"}, f.Type) || f.Usage == "" {
				t.Errorf("flags --%s: bad flag %+v", sub, f)
			}
		}
		names := []string{}
		for _, f := range resp.Flags {
			names = append(names, f.Name)
		}
		want := []string{}
		if sub == "init" || sub == "edit" {
			want = []string{flagOfflineEnvtest, flagToolVersion, flagToolCheckout}
		}
		if !slices.Equal(names, want) {
			t.Errorf("flags --%s = %v, want %v", sub, names, want)
		}

		resp, _ = call(t, PluginRequest{APIVersion: "v1alpha1", Command: "metadata", Args: []string{"--" + sub}, Universe: map[string]string{}})
		if resp.Error || resp.Metadata.Description == "" {
			t.Errorf("metadata --%s: %+v", sub, resp)
		}
		if (sub == "init" || sub == "edit") && !strings.Contains(resp.Metadata.Examples, "--plugins") {
			t.Errorf("metadata --%s: no example: %+v", sub, resp.Metadata)
		}
	}

	// kubebuilder's Flag has no JSON tags: the keys are the field names.
	var raw bytes.Buffer
	plugin{}.run(nil, strings.NewReader(`{"apiVersion":"v1alpha1","command":"flags","args":["--init"],"universe":{}}`), &raw, &bytes.Buffer{})
	if !strings.Contains(raw.String(), `"Name":"offline-envtest","Type":"bool","Default":"false","Usage":`) {
		t.Errorf("flags response does not use kubebuilder's keys: %s", raw.String())
	}
}

func TestInitEditsOnlyTheMakefile(t *testing.T) {
	for _, command := range []string{"init", "edit"} {
		t.Run(command, func(t *testing.T) {
			u := projectUniverse(t)
			// The args are every flag of the command line, other plugins' too.
			args := []string{"--domain", "example.com", "--repo", "example.com/fleet", "--owner", "Fleet Authors", pinned, "v0.1.0"}
			resp, stderr := call(t, request(t, command, args, u))
			if resp.Error {
				t.Fatalf("error: %q", resp.ErrorMsgs)
			}
			if keys := mapKeys(resp.Universe); !slices.Equal(keys, []string{"Makefile"}) {
				t.Fatalf("response universe holds %v, want only the Makefile", keys)
			}
			mk := resp.Universe["Makefile"]
			golden(t, "Makefile.edited.golden", mk)
			if !strings.Contains(mk, manifestsLine) || !strings.Contains(u["Makefile"], manifestsLine) {
				t.Errorf("the manifests line changed")
			}
			// Only the lines that install and name the binaries change, and
			// the generate recipe runs defaults next to object.
			d := lineDiff(u["Makefile"], mk)
			wantDiff := "-\t\"$(CONTROLLER_GEN)\" object:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) paths=\"./...\"\n" +
				"+\t\"$(CONTROLLER_GEN)\" object:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) defaults:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) paths=\"./...\"\n" +
				"-CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen\n" +
				"+CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen-default\n" +
				"+#CONTROLLER_GEN_DEFAULT_VERSION is the version of controller-gen-default (controller-gen with KEP-1929 defaults) that CONTROLLER_GEN installs\n" +
				"+CONTROLLER_GEN_DEFAULT_VERSION ?= v0.1.0\n" +
				"-\t$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen,$(CONTROLLER_TOOLS_VERSION))\n" +
				"+\t$(call go-install-tool,$(CONTROLLER_GEN),github.com/controller-gen-default/controller-gen-default/cmd/controller-gen-default,$(CONTROLLER_GEN_DEFAULT_VERSION))\n" +
				"+\t$(call go-install-tool,$(CONTROLLER_GEN)-normalize,github.com/controller-gen-default/controller-gen-default/cmd/controller-gen-default-normalize,$(CONTROLLER_GEN_DEFAULT_VERSION))\n"
			if d != wantDiff {
				t.Errorf("diff:\n%s\nwant:\n%s", d, wantDiff)
			}
			if !strings.Contains(stderr, "now runs controller-gen-default") {
				t.Errorf("stderr: %q", stderr)
			}

			// Twice is once: the edited project gets no change.
			u["Makefile"] = mk
			resp, stderr = call(t, request(t, "edit", nil, u))
			if resp.Error || len(resp.Universe) != 0 {
				t.Errorf("second edit: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
			}
			if !strings.Contains(stderr, "nothing to change") {
				t.Errorf("second edit stderr: %q", stderr)
			}
		})
	}
}

func TestOfflineEnvtest(t *testing.T) {
	u := projectUniverse(t)
	plain, _ := call(t, request(t, "init", []string{pinned, "v0.1.0"}, u))
	resp, stderr := call(t, request(t, "init", []string{"--domain", "example.com", "--" + flagOfflineEnvtest, pinned, "v0.1.0"}, u))
	if resp.Error {
		t.Fatalf("error: %q", resp.ErrorMsgs)
	}
	mk := resp.Universe["Makefile"]
	golden(t, "Makefile.offline.golden", mk)
	if !strings.HasPrefix(mk, plain.Universe["Makefile"]) {
		t.Errorf("--offline-envtest changes more than the end of the Makefile")
	}
	if !strings.Contains(stderr, "make envtest-assets") {
		t.Errorf("stderr: %q", stderr)
	}
	u["Makefile"] = mk
	for _, args := range [][]string{{"--" + flagOfflineEnvtest}, {"--" + flagOfflineEnvtest + "=true"}, {"--" + flagOfflineEnvtest, "true"}, nil} {
		resp, _ := call(t, request(t, "edit", append(args, pinned, "v0.1.0"), u))
		if resp.Error || len(resp.Universe) != 0 {
			t.Errorf("edit %v of the offline Makefile changed it: %v %q", args, mapKeys(resp.Universe), resp.ErrorMsgs)
		}
	}
	// =false takes the block out again.
	resp, _ = call(t, request(t, "edit", []string{"--" + flagOfflineEnvtest + "=false"}, u))
	if resp.Universe["Makefile"] != plain.Universe["Makefile"] {
		t.Errorf("--offline-envtest=false did not restore the Makefile:\n%s", lineDiff(plain.Universe["Makefile"], resp.Universe["Makefile"]))
	}
	// A stale block (an older plugin's) is rewritten in place.
	stale := strings.Replace(mk, "ENVTEST_K8S_VERSION = "+envtestK8sVersion, "ENVTEST_K8S_VERSION = 1.30.0", 1) + "# user line after the block\n"
	u["Makefile"] = stale
	resp, _ = call(t, request(t, "edit", []string{"--" + flagOfflineEnvtest}, u))
	if want := mk + "# user line after the block\n"; resp.Universe["Makefile"] != want {
		t.Errorf("stale block not refreshed:\n%s", lineDiff(want, resp.Universe["Makefile"]))
	}
}

func TestOlderV4MakefileWithUserEdits(t *testing.T) {
	in, err := os.ReadFile("testdata/Makefile.v4-old")
	if err != nil {
		t.Fatal(err)
	}
	u := map[string]string{"Makefile": string(in)}
	resp, _ := call(t, request(t, "edit", []string{pinned, "v0.1.0", "--" + flagOfflineEnvtest}, u))
	if resp.Error {
		t.Fatalf("error: %q", resp.ErrorMsgs)
	}
	mk := resp.Universe["Makefile"]
	golden(t, "Makefile.v4-old.golden", mk)
	for _, want := range []string{
		"\t$(CONTROLLER_GEN) rbac:roleName=manager-role crd webhook paths=\"./...\" output:crd:artifacts:config=config/crd/bases\n",
		"\t$(LOCALBIN)/controller-gen-default crd:maxDescLen=0 paths=\"./...\" output:crd:dir=docs/crds\n",
		"CONTROLLER_TOOLS_VERSION ?= v0.16.4\nCONTROLLER_GEN_DEFAULT_VERSION ?= v0.1.0\n" /* after its comment */ [len("CONTROLLER_TOOLS_VERSION ?= v0.16.4\n"):],
		"\ntest: envtest-assets\n",
	} {
		if !strings.Contains(mk, want) {
			t.Errorf("edited Makefile lacks %q", want)
		}
	}
	if strings.Contains(mk, "setup-envtest: envtest-assets") {
		t.Errorf("a rule for setup-envtest, which this Makefile does not have")
	}
	u["Makefile"] = mk
	if resp, _ := call(t, request(t, "edit", []string{"--" + flagOfflineEnvtest}, u)); resp.Error || len(resp.Universe) != 0 {
		t.Errorf("second edit changed it: %+v", resp)
	}
}

func TestUnrecognisedMakefile(t *testing.T) {
	v3, err := os.ReadFile("testdata/Makefile.go-v3")
	if err != nil {
		t.Fatal(err)
	}
	v4 := projectUniverse(t)["Makefile"]
	for name, mk := range map[string]string{
		"go/v3": string(v3),
		"no install rule": strings.Replace(v4,
			"$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen,$(CONTROLLER_TOOLS_VERSION))",
			"GOBIN=$(LOCALBIN) go install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_TOOLS_VERSION)", 1),
		"no CONTROLLER_GEN":        strings.Replace(v4, "CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen\n", "", 1),
		"CONTROLLER_GEN elsewhere": strings.Replace(v4, "CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen\n", "CONTROLLER_GEN ?= $(shell which controller-gen)\n", 1),
		"another tool":             strings.Replace(v4, "sigs.k8s.io/controller-tools/cmd/controller-gen,", "example.com/my/controller-gen,", 1),
		"a second controller-gen":  v4 + "\nschemas:\n\tgo run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 crd paths=./...\n",
		"empty":                    "",
	} {
		t.Run(name, func(t *testing.T) {
			resp, _ := call(t, request(t, "edit", nil, map[string]string{"Makefile": mk, "PROJECT": "version: \"3\"\n"}))
			if !resp.Error || len(resp.Universe) != 0 {
				t.Fatalf("want an error and no files, got error=%v universe=%v", resp.Error, mapKeys(resp.Universe))
			}
			msg := strings.Join(resp.ErrorMsgs, "\n")
			for _, want := range []string{"changed nothing", "CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen-default", installCall, "kubebuilder edit --plugins " + pluginKey} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}
		})
	}
	// Without a Makefile (e.g. --plugins KEY,go/v4: the plugin runs first).
	resp, _ := call(t, request(t, "init", nil, map[string]string{}))
	if !resp.Error || !strings.Contains(strings.Join(resp.ErrorMsgs, "\n"), "go/v4,"+pluginKey) {
		t.Errorf("no Makefile: %+v", resp)
	}
}

// TestCreateAPIWarnsAboutOmitemptyStructs: create api warns about
// omitempty on the new kind's struct fields, with the crd generator's
// omitempty-struct rule, on the universe loaded in the project's directory
// (an empty one here: the universe is the overlay).
func TestCreateAPIWarnsAboutOmitemptyStructs(t *testing.T) {
	if testing.Short() {
		// TestCreateAPIOmitemptyAsTheGenerator keeps the warning in the unit tier.
		t.Skip("-short: loads the scaffold's API with its k8s.io imports three times (about 7 s): run without -short (make test-integration)")
	}
	u := projectUniverse(t)
	t.Chdir(t.TempDir())
	args := []string{"--group", "ship", "--version", "v1", "--kind", "Frigate", "--resource", "--controller"}
	// The v4.15.0 scaffold is clean.
	resp, stderr := call(t, request(t, "create api", args, u))
	if resp.Error || len(resp.Universe) != 0 || stderr != "" {
		t.Fatalf("scaffolded types: error=%v universe=%v stderr=%q", resp.Error, mapKeys(resp.Universe), stderr)
	}
	// Older scaffolds wrote omitempty on spec and status.
	types := u["api/v1/frigate_types.go"]
	types = strings.Replace(types, "`json:\"spec\"`", "`json:\"spec,omitempty\"`", 1)
	types = strings.Replace(types, "`json:\"status,omitzero\"`", "`json:\"status,omitempty\"`", 1)
	u["api/v1/frigate_types.go"] = types
	resp, stderr = call(t, request(t, "create api", args, u))
	if resp.Error || len(resp.Universe) != 0 {
		t.Fatalf("error=%v universe=%v", resp.Error, mapKeys(resp.Universe))
	}
	for _, want := range []string{"api/v1/frigate_types.go:", "warning: Frigate.Spec (spec): omitempty has no effect on a non-pointer struct", "Frigate.Status (status)", "Use omitzero", "[omitempty-struct]"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "warning:"); n != 2 {
		t.Errorf("%d warnings, want 2:\n%s", n, stderr)
	}
	// Only the kind being created is checked.
	args[5] = "Sloop"
	if _, stderr := call(t, request(t, "create api", args, u)); stderr != "" {
		t.Errorf("create api --kind Sloop warned about Frigate: %s", stderr)
	}
}

// TestCreateAPIOmitemptyAsTheGenerator: the warning is the crd
// generator's rule on the package's types, not on the file's syntax: a
// spec whose struct type is another package's (api/shared) is warned
// about, one given as a pointer is not; and when the API packages do not
// load (a module missing from go.sum), create api says that it checked
// nothing, and still succeeds.
func TestCreateAPIOmitemptyAsTheGenerator(t *testing.T) {
	u := projectUniverse(t)
	t.Chdir(t.TempDir())
	args := []string{"--group", "ship", "--version", "v1", "--kind", "Frigate", "--resource", "--controller"}
	u["api/shared/shared.go"] = "package shared\n\ntype Spec struct {\n\tSize int `json:\"size,omitempty\"`\n}\n"
	types := u["api/v1/frigate_types.go"]
	types = strings.Replace(types, "\"k8s.io/apimachinery/pkg/runtime\"\n", "\"k8s.io/apimachinery/pkg/runtime\"\n\n\t\"example.com/fleet/api/shared\"\n", 1)
	types = strings.Replace(types, "Spec FrigateSpec `json:\"spec\"`", "Spec shared.Spec `json:\"spec,omitempty\"`", 1)
	types = strings.Replace(types, "Status FrigateStatus `json:\"status,omitzero\"`", "Status *FrigateStatus `json:\"status,omitempty\"`", 1)
	u["api/v1/frigate_types.go"] = types
	resp, stderr := call(t, request(t, "create api", args, u))
	if resp.Error || len(resp.Universe) != 0 {
		t.Fatalf("error=%v universe=%v", resp.Error, mapKeys(resp.Universe))
	}
	want := regexp.MustCompile(`^` + regexp.QuoteMeta(pluginKey) + `: api/v1/frigate_types.go:\d+:2: warning: Frigate.Spec \(spec\): omitempty has no effect on a non-pointer struct: .* \[omitempty-struct\]\n$`)
	if !want.MatchString(stderr) {
		t.Errorf("stderr, want one warning on Frigate.Spec:\n%s", stderr)
	}
	u["go.sum"] = ""
	resp, stderr = call(t, request(t, "create api", args, u))
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, "note: the API packages did not load, omitempty on structs is not checked here") ||
		!strings.Contains(stderr, "missing go.sum entry") || strings.Contains(stderr, "warning:") {
		t.Errorf("without go.sum: error=%v, stderr:\n%s", resp.Error, stderr)
	}
}

func TestCreateWebhookAndErrors(t *testing.T) {
	u := projectUniverse(t)
	// No webhook in the universe: nothing to edit, and a warning that the
	// defaulter was not found.
	adopted, _ := call(t, request(t, "init", nil, u))
	u["Makefile"] = adopted.Universe["Makefile"]
	resp, stderr := call(t, request(t, "create webhook", []string{"--group", "ship", "--version", "v1", "--kind", "Frigate", "--defaulting"}, u))
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, "found no WithDefaulter(…) for Frigate") {
		t.Errorf("create webhook: %+v %q", resp, stderr)
	}
	for _, req := range []PluginRequest{
		{APIVersion: "v1alpha1", Command: "delete api", Universe: u},
		{APIVersion: "v2", Command: "init", Universe: u},
	} {
		if resp, _ := call(t, req); !resp.Error || len(resp.Universe) != 0 {
			t.Errorf("%s %s: want an error, got %+v", req.APIVersion, req.Command, resp)
		}
	}
	var stdout bytes.Buffer
	if code := (plugin{}).run(nil, strings.NewReader("not json"), &stdout, &bytes.Buffer{}); code != 0 || !strings.Contains(stdout.String(), `"error":true`) {
		t.Errorf("bad JSON: exit %d, %s", code, stdout.String())
	}
}

// TestEnvtestVersionMatchesAssetBuilder: the Makefile block asks setup-envtest
// for the version that e2e/assets/build.sh builds, k8s.io/kubernetes in
// e2e/assets/go.mod.
func TestEnvtestVersionMatchesAssetBuilder(t *testing.T) {
	sh, err := os.ReadFile("../../e2e/assets/build.sh")
	if err != nil {
		t.Skipf("no asset builder: %v", err)
	}
	if !strings.Contains(string(sh), "DEST_ROOT") {
		t.Errorf("e2e/assets/build.sh no longer takes DEST_ROOT")
	}
	mod, err := os.ReadFile("../../e2e/assets/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*k8s\.io/kubernetes v([0-9]+\.[0-9]+\.[0-9]+)\s*$`).FindSubmatch(mod)
	if m == nil {
		t.Fatalf("no k8s.io/kubernetes requirement in e2e/assets/go.mod")
	}
	if string(m[1]) != envtestK8sVersion {
		t.Errorf("e2e/assets builds Kubernetes %s, the plugin's envtestK8sVersion is %s", m[1], envtestK8sVersion)
	}
}

// TestMakefileRuns runs the edited Makefile with make: go-install-tool
// installs the renamed binary, and envtest-assets calls build.sh, found
// through `go mod download` or CONTROLLER_GEN_DEFAULT_ASSETS_DIR, and
// checks the version it built. Fake go and build.sh stand in.
func TestMakefileRuns(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	if runtime.GOOS == "windows" {
		t.Skip("kubebuilder plugins run on linux and darwin")
	}
	u := projectUniverse(t)
	resp, _ := call(t, request(t, "init", []string{pinned, "v0.1.0", "--" + flagOfflineEnvtest}, u))
	m := &makeRun{t: t, dir: t.TempDir()}
	m.write("project/Makefile", resp.Universe["Makefile"], 0o644)
	m.fakeTools()
	m.installsVersion()
	m.buildsAssets()
	m.buildsFromCheckout(u)
	m.olderMakefile()
}

// makeRun runs make in dir/project, with the fake go of dir/fakebin.
type makeRun struct {
	t   *testing.T
	dir string
}

func (m *makeRun) write(name, content string, mode os.FileMode) {
	t := m.t
	t.Helper()
	p := filepath.Join(m.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func (m *makeRun) mk(args ...string) (string, error) {
	cmd := exec.Command("make", append([]string{"--no-print-directory"}, args...)...)
	cmd.Dir = filepath.Join(m.dir, "project")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(m.dir, "fakebin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// fakeTools writes a fake go: `go install` makes $GOBIN/<last path
// element>, `go mod download -json` prints the module's Dir, the rest is
// the real go; and two asset builders, assets/ (of envtestK8sVersion) and
// other/.
func (m *makeRun) fakeTools() {
	t, dir, write := m.t, m.dir, m.write
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go in PATH")
	}
	write("fakebin/go", `#!/usr/bin/env bash
set -eu
echo "go $*" >> "`+dir+`/go.log"
case "$1 ${2:-}" in
"install "*) pkg="${2%@*}"; printf '#!/bin/sh\necho fake %s\n' "$2" > "$GOBIN/${pkg##*/}"; chmod +x "$GOBIN/${pkg##*/}";;
"-C "*) dir="$2"; shift 2; [ "$1" = build ] || exit 9; shift
	while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift 2;; -*) shift;; *) pkg="$1"; shift;; esac; done
	printf '#!/bin/sh\necho built %s from %s\n' "$pkg" "$dir" > "$out"; chmod +x "$out";;
"mod download") printf '{\n\t"Path": "x",\n\t"Dir": "%s",\n\t"Sum": "h1:x"\n}\n' "`+dir+`/assets";;
*) exec "`+realGo+`" "$@";;
esac
`, 0o755)
	write("assets/build.sh", `echo "building into $1" >&2; mkdir -p "$1/`+envtestK8sVersion+`-linux-amd64"; echo "$1/`+envtestK8sVersion+`-linux-amd64"`+"\n", 0o644)
	write("other/build.sh", `echo "$1/1.30.0-linux-amd64"`+"\n", 0o644)
}

// installsVersion: make controller-gen installs both binaries of the
// version, once.
func (m *makeRun) installsVersion() {
	t, dir, mk := m.t, m.dir, m.mk
	out, err := mk("controller-gen")
	if err != nil {
		t.Fatalf("make controller-gen: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Downloading "+toolPackage+"@v0.1.0") || !strings.Contains(out, "Downloading "+normalizePackage+"@v0.1.0") {
		t.Errorf("make controller-gen:\n%s", out)
	}
	// Both binaries, versioned and linked, side by side: the main binary
	// finds the normalize binary next to its link's target.
	for _, name := range []string{toolBinary, normalizeBinary} {
		target, err := os.Readlink(filepath.Join(dir, "project/bin", name))
		if err != nil || target != filepath.Join(dir, "project/bin", name+"-v0.1.0") {
			t.Errorf("bin/%s -> %q, %v", name, target, err)
		}
	}
	if out, err := mk("controller-gen"); err != nil || strings.Contains(out, "Downloading") {
		t.Errorf("second make controller-gen reinstalled: %v\n%s", err, out)
	}

	// generate runs object and defaults with the same header, in one run.
	if out, err := mk("-n", "generate", "YEAR=2042"); err != nil ||
		!strings.Contains(out, `/bin/controller-gen-default" object:headerFile="hack/boilerplate.go.txt",year=2042 defaults:headerFile="hack/boilerplate.go.txt",year=2042 paths="./..."`) {
		t.Errorf("make -n generate: %v\n%s", err, out)
	}
}

// buildsAssets: make envtest-assets downloads the asset builder's module
// and checks the version it built; setup-envtest depends on it.
func (m *makeRun) buildsAssets() {
	t, dir, mk := m.t, m.dir, m.mk
	out, err := mk("envtest-assets")
	if err != nil {
		t.Fatalf("make envtest-assets: %v\n%s", err, out)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "go.log"))
	if !strings.Contains(string(log), "go mod download -json "+assetsModule+"@v0.1.0") {
		t.Errorf("go calls:\n%s", log)
	}
	if want := "envtest binaries for Kubernetes " + envtestK8sVersion + " in " + filepath.Join(dir, "project/bin/k8s", envtestK8sVersion+"-linux-amd64"); !strings.Contains(out, want) {
		t.Errorf("make envtest-assets:\n%s\nwant %q", out, want)
	}
	if out, err := mk("envtest-assets", "CONTROLLER_GEN_DEFAULT_ASSETS_DIR="+filepath.Join(dir, "other")); err == nil || !strings.Contains(out, "not Kubernetes "+envtestK8sVersion) {
		t.Errorf("a builder of another version: %v\n%s", err, out)
	}
	if out, err := mk("envtest-assets", "CONTROLLER_GEN_DEFAULT_ASSETS_DIR="+filepath.Join(dir, "nowhere")); err == nil || !strings.Contains(out, "no build.sh") {
		t.Errorf("no builder: %v\n%s", err, out)
	}
	// setup-envtest and test depend on it.
	if out, err := mk("-n", "setup-envtest"); err != nil || !strings.Contains(out, "build.sh") {
		t.Errorf("make -n setup-envtest does not build the assets: %v\n%s", err, out)
	}
}

// buildsFromCheckout: from a checkout, go -C <checkout> build into
// <name>-checkout, linked, and the same links replaced.
func (m *makeRun) buildsFromCheckout(u map[string]string) {
	t, dir, mk, write := m.t, m.dir, m.mk, m.write
	checkout := filepath.Join(dir, "checkout")
	write("checkout/go.mod", "module "+selfModule+"\n", 0o644)
	write("checkout/e2e/assets/build.sh", `echo "checkout builder into $1" >&2; mkdir -p "$1/`+envtestK8sVersion+`-linux-amd64"; echo "$1/`+envtestK8sVersion+`-linux-amd64"`+"\n", 0o644)
	p := withSource(toolSource{checkout: checkout}, "")
	resp, _ := callPlugin(t, p, request(t, "init", []string{"--" + flagOfflineEnvtest}, u))
	write("project/Makefile", resp.Universe["Makefile"], 0o644)
	out, err := mk("controller-gen")
	if err != nil || !strings.Contains(out, "Building ./cmd/"+toolBinary+" from "+checkout) || !strings.Contains(out, "Building ./cmd/"+normalizeBinary+" from "+checkout) {
		t.Errorf("make controller-gen from a checkout: %v\n%s", err, out)
	}
	for _, name := range []string{toolBinary, normalizeBinary} {
		bin := filepath.Join(dir, "project/bin", name)
		target, err := os.Readlink(bin)
		if err != nil || target != bin+"-checkout" {
			t.Errorf("bin/%s -> %q, %v", name, target, err)
		}
		if b, err := exec.Command(bin).Output(); err != nil || string(b) != "built ./cmd/"+name+" from "+checkout+"\n" {
			t.Errorf("bin/%s: %q %v", name, b, err)
		}
		// The version's binary, which the link pointed at, is untouched.
		if b, _ := os.ReadFile(bin + "-v0.1.0"); !strings.Contains(string(b), "fake ") {
			t.Errorf("bin/%s-v0.1.0 was overwritten: %q", name, b)
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, "go.log"))
	if want := "go -C " + checkout + " build -mod=readonly -o " + filepath.Join(dir, "project/bin", toolBinary) + "-checkout ./cmd/" + toolBinary + "\n"; !strings.Contains(string(log), want) {
		t.Errorf("go calls lack %q:\n%s", want, log)
	}
	// Again: go build runs (it decides what is stale), quietly.
	if out, err := mk("controller-gen"); err != nil || strings.Contains(out, "Building") {
		t.Errorf("second make controller-gen from a checkout: %v\n%s", err, out)
	}
	if log2, _ := os.ReadFile(filepath.Join(dir, "go.log")); strings.Count(string(log2), " build -mod=readonly ") != 4 {
		t.Errorf("go build ran %d times, want 4:\n%s", strings.Count(string(log2), " build -mod=readonly "), log2)
	}
	if out, err := mk("controller-gen", toolCheckoutVar+"="+filepath.Join(dir, "nowhere")); err == nil ||
		!strings.Contains(out, "error: "+toolCheckoutVar+"='"+filepath.Join(dir, "nowhere")+"' is not a checkout of controller-gen-default (no go.mod)") {
		t.Errorf("make controller-gen without a checkout: %v\n%s", err, out)
	}
	// envtest-assets takes the checkout's builder.
	if out, err := mk("envtest-assets"); err != nil || !strings.Contains(out, "checkout builder into") {
		t.Errorf("make envtest-assets from a checkout: %v\n%s", err, out)
	}
}

// olderMakefile: the go-install-tool of kubebuilder v4.0 to v4.5 moves $(1)
// itself.
func (m *makeRun) olderMakefile() {
	t, dir, mk, write := m.t, m.dir, m.mk, m.write
	old, err := os.ReadFile("testdata/Makefile.v4-old.golden")
	if err != nil {
		t.Fatal(err)
	}
	write("project/Makefile", string(old), 0o644)
	if err := os.RemoveAll(filepath.Join(dir, "project/bin")); err != nil {
		t.Fatal(err)
	}
	if out, err := mk("controller-gen"); err != nil || !strings.Contains(out, "Downloading "+toolPackage+"@v0.1.0") || !strings.Contains(out, "Downloading "+normalizePackage+"@v0.1.0") {
		t.Errorf("older Makefile: make controller-gen: %v\n%s", err, out)
	}
	for _, name := range []string{toolBinary, normalizeBinary} {
		if target, err := os.Readlink(filepath.Join(dir, "project/bin", name)); err != nil || !strings.HasSuffix(target, "/bin/"+name+"-v0.1.0") {
			t.Errorf("older Makefile: bin/%s -> %q, %v", name, target, err)
		}
	}
}

func TestInstall(t *testing.T) {
	root := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := (plugin{}).run([]string{"install", "--dir", root}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("install: exit %d: %s", code, stderr.String())
	}
	want := filepath.Join(root, pluginName, pluginVersion, pluginName)
	if got := strings.TrimSpace(stdout.String()); got != want {
		t.Errorf("install printed %q, want %q", got, want)
	}
	fi, err := os.Stat(want)
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("%s: %v, mode %v", want, err, fi.Mode())
	}
	// The discovery order of kubebuilder.
	t.Setenv("EXTERNAL_PLUGINS_PATH", "")
	t.Setenv("XDG_CONFIG_HOME", "/x")
	if r, _ := pluginsRoot(); r != "/x/kubebuilder/plugins" {
		t.Errorf("XDG_CONFIG_HOME: %s", r)
	}
	t.Setenv("EXTERNAL_PLUGINS_PATH", "/y")
	if r, _ := pluginsRoot(); r != "/y" {
		t.Errorf("EXTERNAL_PLUGINS_PATH: %s", r)
	}
}

func mapKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
