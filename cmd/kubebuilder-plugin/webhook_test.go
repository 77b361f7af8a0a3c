package main

import (
	"go/format"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const (
	frigateWebhook = "internal/webhook/v1/frigate_webhook.go"
	sloopWebhook   = "internal/webhook/v1/sloop_webhook.go"
)

// The args of `kubebuilder create webhook --group ship --version v1 --kind
// Frigate --defaulting`, as kubebuilder v4.15.0 sends them.
var webhookArgs = []string{"--group", "ship", "--version", "v1", "--kind", "Frigate", "--defaulting"}

// webhookFiles are the files of testdata/v4-webhooks.txtar: webhooks as
// kubebuilder v4.15.0 scaffolds them.
func webhookFiles(t *testing.T) map[string]string {
	t.Helper()
	return readTxtar(t, "v4-webhooks.txtar")
}

// webhookUniverse is the universe that `create webhook` sends to the plugin
// in a project initialised with it: the fixture project with the Makefile
// that init wrote, and the files go/v4 has just scaffolded (kubebuilder runs
// go/v4 first, then the plugin).
func webhookUniverse(t *testing.T) map[string]string {
	t.Helper()
	u := projectUniverse(t)
	resp, _ := call(t, request(t, "init", []string{pinned, "v0.1.0"}, u))
	u["Makefile"] = resp.Universe["Makefile"]
	for p, content := range webhookFiles(t) {
		if !strings.HasPrefix(p, "legacy/") && !strings.HasPrefix(p, "multigroup/") {
			u[p] = content
		}
	}
	return u
}

// addedOnly fails unless after is before with lines added, and returns the
// added lines that are not blank.
func addedOnly(t *testing.T, before, after string) []string {
	t.Helper()
	var added []string
	for _, l := range strings.Split(strings.TrimSuffix(lineDiff(before, after), "\n"), "\n") {
		switch {
		case l == "" || l == "+":
		case strings.HasPrefix(l, "+"):
			added = append(added, l[1:])
		default:
			t.Errorf("a line of the file changed or went away: %q\ndiff:\n%s", l, lineDiff(before, after))
		}
	}
	return added
}

func wantCall(indent, call string) []string {
	return []string{
		indent + "// Declarative defaults (+default markers), as the CRD applies them: generated",
		indent + "// into zz_generated.defaults.go by `make generate` (controller-gen-default's defaults).",
		indent + call,
	}
}

func isGofmt(t *testing.T, name, src string) {
	t.Helper()
	b, err := format.Source([]byte(src))
	if err != nil || string(b) != src {
		t.Errorf("%s is not gofmt'd (%v):\n%s", name, err, lineDiff(src, string(b)))
	}
}

func TestCreateWebhookCallsGeneratedDefaults(t *testing.T) {
	u := webhookUniverse(t)
	resp, stderr := call(t, request(t, "create webhook", webhookArgs, u))
	if resp.Error {
		t.Fatalf("error: %q", resp.ErrorMsgs)
	}
	// Only the new webhook: not the Makefile (it already runs defaults),
	// not the test file, not Sloop's webhook.
	if keys := mapKeys(resp.Universe); !slices.Equal(keys, []string{frigateWebhook}) {
		t.Fatalf("response universe holds %v, want only %s", keys, frigateWebhook)
	}
	out := resp.Universe[frigateWebhook]
	golden(t, "frigate_webhook.go.golden", out)
	isGofmt(t, frigateWebhook, out)
	if got, want := addedOnly(t, u[frigateWebhook], out), wantCall("\t", "shipv1.SetObjectDefaults_Frigate(obj)"); !slices.Equal(got, want) {
		t.Errorf("added lines:\n%q\nwant:\n%q", got, want)
	}
	// After the log line, before the user's TODO, with the blank lines of
	// the scaffold.
	if !strings.Contains(out, `	frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())

	// Declarative defaults`) || !strings.Contains(out, "	shipv1.SetObjectDefaults_Frigate(obj)\n\n	// TODO(user): fill in your defaulting logic.\n\n	return nil\n}\n") {
		t.Errorf("the call is not between the log line and the TODO:\n%s", out)
	}
	if !strings.Contains(stderr, "internal/webhook/v1/frigate_webhook.go:53: (*FrigateCustomDefaulter).Default now calls shipv1.SetObjectDefaults_Frigate(obj)") ||
		!strings.Contains(stderr, "api/v1/zz_generated.defaults.go") {
		t.Errorf("stderr: %q", stderr)
	}

	// Twice is once.
	u[frigateWebhook] = out
	resp, stderr = call(t, request(t, "create webhook", webhookArgs, u))
	if resp.Error || len(resp.Universe) != 0 || stderr != "" {
		t.Errorf("second create webhook: error %v %q, universe %v, stderr %q", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe), stderr)
	}
	// edit leaves it too, and takes Sloop's defaulter, which create
	// webhook --kind Frigate did not.
	resp, _ = call(t, request(t, "edit", nil, u))
	if keys := mapKeys(resp.Universe); resp.Error || !slices.Equal(keys, []string{sloopWebhook}) {
		t.Errorf("edit after create webhook: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, keys)
	}
	u[sloopWebhook] = resp.Universe[sloopWebhook]
	resp, stderr = call(t, request(t, "edit", nil, u))
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, "nothing to change") {
		t.Errorf("edit after create webhook: error %v %q, universe %v, stderr %q", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe), stderr)
	}
}

// kubebuilder's WebhookUpdater appends a defaulter to a webhook file that
// has a validator: the same Default, further down the file.
func TestCreateWebhookAppendedDefaulter(t *testing.T) {
	u := webhookUniverse(t)
	args := slices.Clone(webhookArgs)
	args[5] = "Sloop"
	resp, stderr := call(t, request(t, "create webhook", args, u))
	if keys := mapKeys(resp.Universe); resp.Error || !slices.Equal(keys, []string{sloopWebhook}) {
		t.Fatalf("error %v %q, universe %v, want only %s", resp.Error, resp.ErrorMsgs, keys, sloopWebhook)
	}
	out := resp.Universe[sloopWebhook]
	isGofmt(t, sloopWebhook, out)
	if got, want := addedOnly(t, u[sloopWebhook], out), wantCall("\t", "shipv1.SetObjectDefaults_Sloop(obj)"); !slices.Equal(got, want) {
		t.Errorf("added lines:\n%q\nwant:\n%q", got, want)
	}
	if !strings.Contains(stderr, "internal/webhook/v1/sloop_webhook.go:95: (*SloopCustomDefaulter).Default now calls shipv1.SetObjectDefaults_Sloop(obj)") {
		t.Errorf("stderr: %q", stderr)
	}
}

// edit on a project with webhooks, scaffolded without the plugin: the
// Makefile and every defaulter of the project's kinds.
func TestEditExistingProjectWithWebhooks(t *testing.T) {
	u := projectUniverse(t) // the Makefile that go/v4 scaffolds
	for p, content := range webhookFiles(t) {
		if !strings.HasPrefix(p, "legacy/") && !strings.HasPrefix(p, "multigroup/") {
			u[p] = content
		}
	}
	resp, stderr := call(t, request(t, "edit", []string{pinned, "v0.1.0"}, u))
	if resp.Error {
		t.Fatalf("error: %q", resp.ErrorMsgs)
	}
	if keys := mapKeys(resp.Universe); !slices.Equal(keys, []string{"Makefile", frigateWebhook, sloopWebhook}) {
		t.Fatalf("response universe holds %v", keys)
	}
	golden(t, "Makefile.edited.golden", resp.Universe["Makefile"])
	golden(t, "frigate_webhook.go.golden", resp.Universe[frigateWebhook])
	for _, kind := range []string{"Frigate", "Sloop"} {
		p := "internal/webhook/v1/" + strings.ToLower(kind) + "_webhook.go"
		if got, want := addedOnly(t, u[p], resp.Universe[p]), wantCall("\t", "shipv1.SetObjectDefaults_"+kind+"(obj)"); !slices.Equal(got, want) {
			t.Errorf("%s: added lines:\n%q\nwant:\n%q", p, got, want)
		}
		if !strings.Contains(stderr, "(*"+kind+"CustomDefaulter).Default now calls shipv1.SetObjectDefaults_"+kind+"(obj)") {
			t.Errorf("stderr lacks %s: %q", kind, stderr)
		}
	}
	for p, content := range resp.Universe {
		u[p] = content
	}
	resp, stderr = call(t, request(t, "edit", nil, u))
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, "nothing to change") {
		t.Errorf("second edit: error %v %q, universe %v, stderr %q", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe), stderr)
	}
}

// --legacy puts the webhook in the API package: the call is unqualified.
func TestLegacyWebhook(t *testing.T) {
	u := projectUniverse(t)
	const p = "api/v1/frigate_webhook.go"
	u[p] = webhookFiles(t)["legacy/"+p]
	for _, req := range []PluginRequest{
		request(t, "edit", nil, u),
		request(t, "create webhook", append(slices.Clone(webhookArgs), "--legacy"), func() map[string]string {
			v := webhookUniverse(t)
			v[p] = u[p]
			return v
		}()),
	} {
		resp, _ := call(t, req)
		out, ok := resp.Universe[p]
		if resp.Error || !ok {
			t.Fatalf("%s: error %v %q, universe %v", req.Command, resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
		}
		isGofmt(t, p, out)
		if got, want := addedOnly(t, u[p], out), wantCall("\t", "SetObjectDefaults_Frigate(obj)"); !slices.Equal(got, want) {
			t.Errorf("%s: added lines:\n%q\nwant:\n%q", req.Command, got, want)
		}
	}
}

func TestMultigroupWebhook(t *testing.T) {
	const p = "internal/webhook/ship/v1/frigate_webhook.go"
	mg := strings.ReplaceAll(webhookFiles(t)["multigroup/"+p], "example.com/mg/", "example.com/fleet/")
	for _, tc := range []struct {
		group string
		edits bool
	}{{"ship", true}, {"crew", false}} {
		u := webhookUniverse(t)
		delete(u, frigateWebhook)
		u[p] = mg
		u["api/ship/v1/frigate_types.go"] = u["api/v1/frigate_types.go"]
		req := request(t, "create webhook", []string{"--group", tc.group, "--version", "v1", "--kind", "Frigate", "--defaulting"}, u)
		req.Config["multigroup"] = true
		resp, _ := call(t, req)
		if _, ok := resp.Universe[p]; ok != tc.edits || resp.Error {
			t.Errorf("--group %s: error %v %q, universe %v", tc.group, resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
		}
		if tc.edits {
			if got, want := addedOnly(t, mg, resp.Universe[p]), wantCall("\t", "shipv1.SetObjectDefaults_Frigate(obj)"); !slices.Equal(got, want) {
				t.Errorf("added lines:\n%q\nwant:\n%q", got, want)
			}
		}
	}
}

// defaultHead is the first line of the scaffold's Default.
const defaultHead = "func (d *FrigateCustomDefaulter) Default(_ context.Context, obj *shipv1.Frigate) error {\n"

// scaffoldDefault is the Frigate webhook that kubebuilder v4.15.0
// scaffolds, and its Default method.
func scaffoldDefault(t *testing.T) (scaffold, body string) {
	scaffold = webhookFiles(t)[frigateWebhook]
	body = scaffold[strings.Index(scaffold, defaultHead):]
	return scaffold, body[:strings.Index(body, "\n}\n")+3]
}

// User code in Default stays: the call is only added.
func TestDefaultKeepsUserCode(t *testing.T) {
	scaffold, body := scaffoldDefault(t)
	const head = defaultHead
	for _, tc := range []struct {
		name, body string
		gofmt      bool     // the result is gofmt'd
		added      []string // the added lines that are not blank
	}{
		{
			name: "user code after the log line",
			body: head + `	frigatelog.Info("Defaulting for Frigate", "name", obj.GetName()) // logged

	if obj.Labels == nil {
		obj.Labels = map[string]string{}
	}
	obj.Labels["fleet"] = "yes"
	return nil
}
`,
			gofmt: true,
			added: wantCall("\t", "shipv1.SetObjectDefaults_Frigate(obj)"),
		},
		{
			name: "no log line",
			body: `func (d *FrigateCustomDefaulter) Default(ctx context.Context, o *shipv1.Frigate) error {
	// user's comment
	o.Labels = map[string]string{"fleet": "yes"}
	return nil
}
`,
			gofmt: true,
			added: wantCall("\t", "shipv1.SetObjectDefaults_Frigate(o)"),
		},
		{
			name: "not gofmt'd: only the call is new",
			body: head + `	frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())
	x :=  1  // odd spacing kept
	_ = x
	return nil
}
`,
			added: wantCall("\t", "shipv1.SetObjectDefaults_Frigate(obj)"),
		},
		{
			name: "spaces for indentation",
			body: head + `    frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())

    return nil
}
`,
			added: wantCall("    ", "shipv1.SetObjectDefaults_Frigate(obj)"),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := webhookUniverse(t)
			in := strings.Replace(scaffold, body, tc.body, 1)
			if in == scaffold {
				t.Fatal("the scaffold's Default was not replaced")
			}
			u[frigateWebhook] = in
			resp, _ := call(t, request(t, "create webhook", webhookArgs, u))
			out, ok := resp.Universe[frigateWebhook]
			if !ok {
				t.Fatalf("not edited: %+v", resp)
			}
			if got := addedOnly(t, in, out); !slices.Equal(got, tc.added) {
				t.Errorf("added lines:\n%q\nwant:\n%q", got, tc.added)
			}
			if tc.gofmt {
				isGofmt(t, frigateWebhook, out)
			}
			u[frigateWebhook] = out
			if resp, _ := call(t, request(t, "create webhook", webhookArgs, u)); len(resp.Universe) != 0 {
				t.Errorf("second create webhook changed it again")
			}
		})
	}
}

// The file's line endings stay, and a Default on one line is laid out by
// gofmt.
func TestDefaultKeepsLineEndings(t *testing.T) {
	scaffold, body := scaffoldDefault(t)
	const head = defaultHead
	// CRLF line endings stay CRLF.
	u := webhookUniverse(t)
	crlf := strings.ReplaceAll(scaffold, "\n", "\r\n")
	u[frigateWebhook] = crlf
	resp, _ := call(t, request(t, "create webhook", webhookArgs, u))
	if out := resp.Universe[frigateWebhook]; strings.Count(out, "\n") != strings.Count(out, "\r\n") ||
		!strings.Contains(out, "\tshipv1.SetObjectDefaults_Frigate(obj)\r\n") {
		t.Errorf("CRLF:\n%q", out)
	}

	// A body on one line: gofmt lays it out, the user's statement stays.
	u = webhookUniverse(t)
	u[frigateWebhook] = strings.Replace(scaffold, body, head[:len(head)-1]+" return nil }\n", 1)
	resp, _ = call(t, request(t, "create webhook", webhookArgs, u))
	out := resp.Universe[frigateWebhook]
	isGofmt(t, frigateWebhook, out)
	if !strings.Contains(out, head+"\t// Declarative defaults") || !strings.Contains(out, "\tshipv1.SetObjectDefaults_Frigate(obj)\n\treturn nil\n}\n") {
		t.Errorf("one-line body:\n%s", out)
	}
}

// Defaulters the plugin must not edit, and what it says about them.
func TestDefaultersLeftAlone(t *testing.T) {
	scaffold := webhookFiles(t)[frigateWebhook]
	for _, tc := range []struct {
		name   string
		edit   func(string) string
		args   []string // default: webhookArgs
		stderr string   // "" means silence
	}{
		{name: "already calls SetObjectDefaults", edit: func(s string) string {
			return strings.Replace(s, "\t// TODO(user): fill in your defaulting logic.\n", "\tif obj.Spec.Foo != \"x\" {\n\t\tshipv1.SetObjectDefaults_Frigate(obj)\n\t}\n", 1)
		}},
		{name: "delegates to DeclarativeDefaulter", edit: func(s string) string {
			return strings.Replace(s, "\t// TODO(user): fill in your defaulting logic.\n\n\treturn nil\n", "\treturn shipv1.DeclarativeDefaulter{}.Default(ctx, obj)\n", 1)
		}},
		{name: "opted out", edit: func(s string) string {
			return strings.Replace(s, "\t// TODO(user): fill in your defaulting logic.\n", "\t_ = shipv1.SetObjectDefaults_Frigate // not this one\n", 1)
		}},
		{name: "unnamed object", edit: func(s string) string {
			return strings.Replace(strings.Replace(s, "obj *shipv1.Frigate) error {", "_ *shipv1.Frigate) error {", 1), "obj.GetName()", `""`, 1)
		}, stderr: "frigate_webhook.go:53: warning: (*FrigateCustomDefaulter).Default is not wired to the declarative defaults: its object parameter has no name; name it obj and add \"shipv1.SetObjectDefaults_Frigate(obj)\" as the first statement of (*FrigateCustomDefaulter).Default"},
		{name: "a kind of another module", edit: func(s string) string {
			return strings.Replace(s, `shipv1 "example.com/fleet/api/v1"`, `shipv1 "example.com/shipyard/api/v1"`, 1)
		}, stderr: "example.com/shipyard/api/v1 is not a package of this module (example.com/fleet)"},
		{name: "a core kind", edit: func(s string) string {
			s = strings.Replace(s, `shipv1 "example.com/fleet/api/v1"`, `corev1 "k8s.io/api/core/v1"`, 1)
			s = strings.ReplaceAll(s, "*shipv1.Frigate", "*corev1.Pod")
			s = strings.ReplaceAll(s, "&shipv1.Frigate", "&corev1.Pod")
			return strings.ReplaceAll(s, "FrigateCustomDefaulter", "PodCustomDefaulter")
		}, args: []string{"--group", "core", "--version", "v1", "--kind", "Pod", "--defaulting"},
			stderr: "frigate_webhook.go:53: note: (*PodCustomDefaulter).Default is left as it is: k8s.io/api/core/v1 is not a package of this module"},
		{name: "a kind the package does not declare", edit: func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, "shipv1.Frigate", "shipv1.Corvette"), "FrigateCustomDefaulter", "CorvetteCustomDefaulter")
		}, args: []string{"--group", "ship", "--version", "v1", "--kind", "Corvette", "--defaulting"},
			stderr: "frigate_webhook.go:53: warning: (*CorvetteCustomDefaulter).Default is not wired to the declarative defaults: api/v1 declares no root type Corvette"},
		{name: "another version", args: []string{"--group", "ship", "--version", "v2", "--kind", "Frigate", "--defaulting"},
			stderr: "warning: create webhook --defaulting --kind Frigate --version v2: the plugin found no WithDefaulter(…) for Frigate"},
		{name: "another kind", args: []string{"--group", "ship", "--version", "v1", "--kind", "Corvette", "--defaulting"},
			stderr: "warning: create webhook --defaulting --kind Corvette --version v1: the plugin found no WithDefaulter(…) for Corvette"},
		{name: "another kind, validation only", args: []string{"--group", "ship", "--version", "v1", "--kind", "Corvette", "--programmatic-validation"}},
		{name: "does not parse", edit: func(s string) string { return s + "\nfunc {\n" },
			stderr: "internal/webhook/v1/frigate_webhook.go: warning: not edited, it does not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := webhookUniverse(t)
			delete(u, sloopWebhook)
			if tc.edit != nil {
				u[frigateWebhook] = tc.edit(scaffold)
				if u[frigateWebhook] == scaffold {
					t.Fatal("the case changed nothing")
				}
			}
			args := tc.args
			if args == nil {
				args = webhookArgs
			}
			resp, stderr := call(t, request(t, "create webhook", args, u))
			if resp.Error || len(resp.Universe) != 0 {
				t.Errorf("create webhook: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
			}
			if tc.stderr == "" && stderr != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q, want %q", stderr, tc.stderr)
			}
			// edit leaves them alone too (another version and kind: edit
			// takes every defaulter, so it edits the scaffold's).
			if tc.edit != nil {
				if resp, _ := call(t, request(t, "edit", nil, u)); resp.Error || len(resp.Universe) != 0 {
					t.Errorf("edit: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
				}
			}
		})
	}
}

// create webhook and the Makefile: the call needs make generate to run the
// defaults generator.
func TestCreateWebhookMakefile(t *testing.T) {
	// Not adopted (controller-gen): nothing is edited; the log says what to do.
	u := webhookUniverse(t)
	u["Makefile"] = projectUniverse(t)["Makefile"]
	resp, stderr := call(t, request(t, "create webhook", webhookArgs, u))
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, "does not run controller-gen-default") ||
		!strings.Contains(stderr, "kubebuilder edit --plugins "+pluginKey) {
		t.Errorf("stock Makefile: error %v, universe %v, stderr %q", resp.Error, mapKeys(resp.Universe), stderr)
	}

	// Adopted by an older plugin, without defaults: generate gets it.
	u = webhookUniverse(t)
	adopted := u["Makefile"]
	const defaultsArg = ` defaults:headerFile="hack/boilerplate.go.txt",year=$(YEAR)`
	u["Makefile"] = strings.Replace(adopted, defaultsArg, "", 1)
	if u["Makefile"] == adopted {
		t.Fatal("the adopted Makefile does not run defaults")
	}
	resp, stderr = call(t, request(t, "create webhook", webhookArgs, u))
	if keys := mapKeys(resp.Universe); resp.Error || !slices.Equal(keys, []string{"Makefile", frigateWebhook}) {
		t.Fatalf("older Makefile: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, keys)
	}
	if resp.Universe["Makefile"] != adopted || !strings.Contains(stderr, "make generate now runs the defaults generator") {
		t.Errorf("older Makefile:\n%s\nstderr %q", lineDiff(adopted, resp.Universe["Makefile"]), stderr)
	}

	// No recipe runs object: nothing to add defaults to, so no call either.
	u["Makefile"] = strings.Replace(u["Makefile"], `"$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt",year=$(YEAR) paths="./..."`, `./hack/generate.sh`, 1)
	resp, stderr = call(t, request(t, "create webhook", webhookArgs, u))
	if resp.Error || len(resp.Universe) != 0 || !strings.Contains(stderr, "no recipe of the Makefile runs") {
		t.Errorf("no object recipe: error %v, universe %v, stderr %q", resp.Error, mapKeys(resp.Universe), stderr)
	}
	// edit adopts that Makefile but leaves the webhooks be, and says why.
	u["Makefile"] = strings.Replace(projectUniverse(t)["Makefile"], `"$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt",year=$(YEAR) paths="./..."`, `./hack/generate.sh`, 1)
	resp, stderr = call(t, request(t, "edit", nil, u))
	if keys := mapKeys(resp.Universe); resp.Error || !slices.Equal(keys, []string{"Makefile"}) || !strings.Contains(stderr, "no recipe of the Makefile runs") {
		t.Errorf("edit without an object recipe: error %v, universe %v, stderr %q", resp.Error, keys, stderr)
	}
}

func TestAddDefaultsGenerator(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// kubebuilder v4.6+
		{"\t\"$(CONTROLLER_GEN)\" object:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) paths=\"./...\"",
			"\t\"$(CONTROLLER_GEN)\" object:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) defaults:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) paths=\"./...\""},
		// v4.0 to v4.5
		{"\t$(CONTROLLER_GEN) object:headerFile=\"hack/boilerplate.go.txt\" paths=\"./...\"",
			"\t$(CONTROLLER_GEN) object:headerFile=\"hack/boilerplate.go.txt\" defaults:headerFile=\"hack/boilerplate.go.txt\" paths=\"./...\""},
		{"\t${CONTROLLER_GEN} object paths=./api/...", "\t${CONTROLLER_GEN} object defaults paths=./api/..."},
		{"\t$(LOCALBIN)/controller-gen-default object paths=./...", "\t$(LOCALBIN)/controller-gen-default object defaults paths=./..."},
		// quotes and make functions with blanks
		{"\t$(CONTROLLER_GEN) object:headerFile=\"my hack/b.txt\",year=$(shell date +%Y) paths=./...",
			"\t$(CONTROLLER_GEN) object:headerFile=\"my hack/b.txt\",year=$(shell date +%Y) defaults:headerFile=\"my hack/b.txt\",year=$(shell date +%Y) paths=./..."},
		// continuation lines
		{"\t$(CONTROLLER_GEN) \\\n\t\tobject:headerFile=h.txt \\\n\t\tpaths=./...",
			"\t$(CONTROLLER_GEN) \\\n\t\tobject:headerFile=h.txt defaults:headerFile=h.txt \\\n\t\tpaths=./..."},
		// CRLF
		{"\t$(CONTROLLER_GEN) object paths=./...\r", "\t$(CONTROLLER_GEN) object defaults paths=./...\r"},
		{"\t$(CONTROLLER_GEN) object\r", "\t$(CONTROLLER_GEN) object defaults\r"},
		// unchanged: defaults already there, no object, not a recipe, not controller-gen, a comment
		{"\t$(CONTROLLER_GEN) object defaults:headerFile=h.txt paths=./...", ""},
		{"\t$(CONTROLLER_GEN) \\\n\t\tobject \\\n\t\tdefaults paths=./...", ""},
		{"\t\"$(CONTROLLER_GEN)\" rbac:roleName=manager-role crd webhook paths=\"./...\" output:crd:artifacts:config=config/crd/bases", ""},
		{"\t$(CONTROLLER_GEN) object:headerFile=h.txt output:object:dir=x paths=./...", "\t$(CONTROLLER_GEN) object:headerFile=h.txt defaults:headerFile=h.txt output:object:dir=x paths=./..."},
		{"OBJ = $(CONTROLLER_GEN) object paths=./...", ""},
		{"\tdeepcopy-gen object paths=./...", ""},
		{"\t$(CONTROLLER_GEN) objects paths=./...", ""},
		{"#\t$(CONTROLLER_GEN) object paths=./...", ""},
	} {
		lines := strings.Split(tc.in, "\n")
		changed, _ := addDefaultsGenerator(lines)
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if got := strings.Join(lines, "\n"); got != want || changed != (tc.want != "") {
			t.Errorf("%q:\n got %q (changed %v)\nwant %q", tc.in, got, changed, want)
		}
		// idempotent
		again := strings.Split(want, "\n")
		if changed, _ := addDefaultsGenerator(again); changed {
			t.Errorf("%q: a second pass changed %q", tc.in, want)
		}
	}
}

// The metadata says what init, edit and create webhook do.
func TestWebhookMetadata(t *testing.T) {
	for _, sub := range []string{"init", "edit", "webhook"} {
		resp, _ := call(t, PluginRequest{APIVersion: "v1alpha1", Command: "metadata", Args: []string{"--" + sub}, Universe: map[string]string{}})
		if !strings.Contains(resp.Metadata.Description, "SetObjectDefaults_<Kind>") {
			t.Errorf("metadata --%s: %q", sub, resp.Metadata.Description)
		}
	}
}

// A universe path outside the project (absolute, or climbing out with
// "..") is refused, although the plugin would edit the webhook it holds:
// kubebuilder would write the returned file there.
func TestRefusesPathsOutsideTheProject(t *testing.T) {
	for _, outside := range []string{"/tmp/" + frigateWebhook, "../" + frigateWebhook, "internal/../../" + frigateWebhook} {
		u := projectUniverse(t)
		for p, content := range webhookFiles(t) {
			if p == frigateWebhook {
				u[outside] = content
			}
		}
		resp, _ := call(t, request(t, "edit", []string{pinned, "v0.1.0"}, u))
		want := "universe path " + strconv.Quote(outside) + " is not inside the project directory"
		if !resp.Error || len(resp.ErrorMsgs) != 1 || !strings.HasPrefix(resp.ErrorMsgs[0], want) || len(resp.Universe) != 0 {
			t.Errorf("%s: error %v %q, universe %v; want the request refused with %q", outside, resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe), want)
		}
	}
}
