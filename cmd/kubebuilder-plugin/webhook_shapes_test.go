package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The shapes of testdata/webhook-shapes.txtar that the cases start from.
const (
	shapeMain          = "main/" + frigateWebhook
	shapeRenamed       = "renamed/" + frigateWebhook
	shapeRuntimeObject = "runtime-object/" + frigateWebhook
	legacyWebhook      = "api/v1/frigate_webhook.go"
)

// shapes are the files of testdata/webhook-shapes.txtar.
func shapes(t *testing.T) map[string]string {
	t.Helper()
	return readTxtar(t, "webhook-shapes.txtar")
}

// shapeUniverse is the project of webhookUniverse whose Frigate webhook
// files are files (path → content), and without Sloop's webhook.
func shapeUniverse(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	u := webhookUniverse(t)
	delete(u, frigateWebhook)
	delete(u, sloopWebhook)
	for p, content := range files {
		u[p] = content
	}
	return u
}

// lineOf is the 1-based line of the first line of src that contains s.
func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	i := strings.Index(src, s)
	if i < 0 {
		t.Fatalf("no %q in\n%s", s, src)
	}
	return strings.Count(src[:i], "\n") + 1
}

// replace is strings.Replace that fails the test when old is not there.
func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("no %q in\n%s", old, s)
	}
	return strings.Replace(s, old, new, 1)
}

// defaulterShape is a shape of defaulting webhook that the plugin wires:
// files are the webhook files (from the shapes sh), the rest what
// TestDefaulterShapes checks.
type defaulterShape struct {
	name  string
	files func(t *testing.T, sh map[string]string) map[string]string
	// file gets the call; method is the edited method and its receiver
	// as the log names it.
	file, method, call string
	// before is the statement the call must follow, "" for the body's
	// start.
	before string
}

var defaulterShapes = []defaulterShape{
	{
		name: "kubebuilder main: FrigateDefaulter",
		files: func(_ *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: sh[shapeMain]}
		},
		method: "(*FrigateDefaulter).Default", call: "shipv1.SetObjectDefaults_Frigate(obj)",
		before: `frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())`,
	},
	{
		name: "kubebuilder v4.15.0: FrigateCustomDefaulter",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: webhookFiles(t)[frigateWebhook]}
		},
		method: "(*FrigateCustomDefaulter).Default", call: "shipv1.SetObjectDefaults_Frigate(obj)",
		before: `frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())`,
	},
	{
		name: "renamed: &ShipFiller{}, import ship, no log line",
		files: func(_ *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: sh[shapeRenamed]}
		},
		method: "(*ShipFiller).Default", call: "ship.SetObjectDefaults_Frigate(vessel)",
	},
	{
		name: "ShipFiller{} with a value receiver",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			s := replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithDefaulter(ShipFiller{})")
			return map[string]string{frigateWebhook: replace(t, s, "func (f *ShipFiller) Default(", "func (f ShipFiller) Default(")}
		},
		method: "(ShipFiller).Default", call: "ship.SetObjectDefaults_Frigate(vessel)",
	},
	{
		name: "new(ShipFiller)",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithDefaulter(new(ShipFiller))")}
		},
		method: "(*ShipFiller).Default", call: "ship.SetObjectDefaults_Frigate(vessel)",
	},
	{
		name: "a variable, and the builder in another",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh[shapeRenamed],
				"\treturn ctrl.NewWebhookManagedBy(mgr, &ship.Frigate{}).\n\t\tWithDefaulter(&ShipFiller{}).\n\t\tComplete()",
				"\tfiller := &ShipFiller{}\n\tb := ctrl.NewWebhookManagedBy(mgr, &ship.Frigate{})\n\treturn b.WithDefaulter(filler).Complete()")}
		},
		method: "(*ShipFiller).Default", call: "ship.SetObjectDefaults_Frigate(vessel)",
	},
	{
		name: "a constructor",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			s := replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithDefaulter(NewShipFiller(mgr))")
			return map[string]string{frigateWebhook: s + "\n// NewShipFiller is the defaulter of Frigates.\nfunc NewShipFiller(mgr ctrl.Manager) *ShipFiller {\n\treturn &ShipFiller{}\n}\n"}
		},
		method: "(*ShipFiller).Default", call: "ship.SetObjectDefaults_Frigate(vessel)",
	},
	{
		name: "a constructor in another package, returning the interface, and Default in another file",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			s := replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithDefaulter(fillers.New())")
			s = replace(t, s, "\tship \"example.com/fleet/api/v1\"\n", "\tship \"example.com/fleet/api/v1\"\n\t\"example.com/fleet/internal/fillers\"\n")
			s = s[:strings.Index(s, "// ShipFiller fills")]
			return map[string]string{
				frigateWebhook: s,
				"internal/fillers/new.go": "package fillers\n\nimport (\n\t\"sigs.k8s.io/controller-runtime/pkg/webhook/admission\"\n\n\tship \"example.com/fleet/api/v1\"\n)\n\n" +
					"// New is the defaulter of Frigates.\nfunc New() admission.Defaulter[*ship.Frigate] {\n\tf := &ShipFiller{}\n\treturn f\n}\n",
				"internal/fillers/filler.go": "package fillers\n\n" + sh[shapeRenamed][strings.Index(sh[shapeRenamed], "import ("):strings.Index(sh[shapeRenamed], "// Setup")] +
					sh[shapeRenamed][strings.Index(sh[shapeRenamed], "// ShipFiller fills"):],
			}
		},
		file:   "internal/fillers/filler.go",
		method: "(*ShipFiller).Default", call: "ship.SetObjectDefaults_Frigate(vessel)",
	},
	{
		name: "older v4: For(…) and a runtime.Object that Default type-asserts",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: sh["runtime-object/"+frigateWebhook]}
		},
		method: "(*FrigateCustomDefaulter).Default", call: "shipv1.SetObjectDefaults_Frigate(frigate)",
		before: `frigatelog.Info("Defaulting for Frigate", "name", frigate.GetName())`,
	},
	{
		name: "a runtime.Object asserted without ok, no log line",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			s := replace(t, sh["runtime-object/"+frigateWebhook], "\tfrigate, ok := obj.(*shipv1.Frigate)\n\n\tif !ok {\n\t\treturn fmt.Errorf(\"expected an Frigate object but got %T\", obj)\n\t}\n\tfrigatelog.Info(\"Defaulting for Frigate\", \"name\", frigate.GetName())\n",
				"\tfrigate := obj.(*shipv1.Frigate)\n\t_ = fmt.Sprint(frigate)\n")
			return map[string]string{frigateWebhook: s}
		},
		method: "(*FrigateCustomDefaulter).Default", call: "shipv1.SetObjectDefaults_Frigate(frigate)",
		before: "frigate := obj.(*shipv1.Frigate)",
	},
	{
		name: "legacy path: the kind is its own defaulter, WithDefaulter(r)",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{legacyWebhook: "package v1\n\nimport (\n\t\"context\"\n\n\tctrl \"sigs.k8s.io/controller-runtime\"\n)\n\n" +
				"func (r *Frigate) SetupWebhookWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewWebhookManagedBy(mgr, r).\n\t\tWithDefaulter(r).\n\t\tComplete()\n}\n\n" +
				"func (r *Frigate) Default(_ context.Context, obj *Frigate) error {\n\treturn nil\n}\n"}
		},
		file:   legacyWebhook,
		method: "(*Frigate).Default", call: "SetObjectDefaults_Frigate(obj)",
	},
}

// TestDefaulterShapes: the plugin finds the defaulter by structure, the
// value passed to WithDefaulter and its type's Default method, whatever the
// type is called and however the value is written.
func TestDefaulterShapes(t *testing.T) {
	sh := shapes(t)
	for _, tc := range defaulterShapes {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files(t, sh)
			file := tc.file
			if file == "" {
				file = frigateWebhook
			}
			if _, ok := files[file]; !ok {
				for p := range files {
					file = p
				}
			}
			u := shapeUniverse(t, files)
			for _, command := range []string{"create webhook", "edit"} {
				resp, stderr := call(t, request(t, command, webhookArgs, u))
				if keys := mapKeys(resp.Universe); resp.Error || !slices.Equal(keys, []string{file}) {
					t.Fatalf("%s: error %v %q, universe %v, stderr:\n%s", command, resp.Error, resp.ErrorMsgs, keys, stderr)
				}
				out := resp.Universe[file]
				isGofmt(t, file, out)
				if got, want := addedOnly(t, u[file], out), wantCall("\t", tc.call); !slices.Equal(got, want) {
					t.Errorf("%s: added lines:\n%q\nwant:\n%q", command, got, want)
				}
				line := lineOf(t, u[file], ") Default(")
				wantLog := fmt.Sprintf("%s: %s:%d: %s now calls %s, the declarative defaults of Frigate that `make generate` writes into api/v1/zz_generated.defaults.go\n",
					pluginKey, file, line, tc.method, tc.call)
				if !strings.Contains(stderr, wantLog) || strings.Contains(stderr, "warning") {
					t.Errorf("%s: stderr:\n%s\nwant:\n%s", command, stderr, wantLog)
				}
				// Where: right after `before` (and a blank line), or first.
				callAt := strings.Index(out, "\t"+strings.Split(defaultsCallComment, "\n")[0])
				if tc.before == "" {
					head := out[:callAt]
					if !strings.HasSuffix(head, "error {\n") {
						t.Errorf("%s: the call is not the first statement:\n%s", command, out)
					}
				} else if !strings.HasSuffix(out[:callAt], tc.before+"\n\n") {
					t.Errorf("%s: the call does not follow %q:\n%s", command, tc.before, out)
				}
				// Twice is once.
				v := shapeUniverse(t, files)
				v[file] = out
				if resp, stderr := call(t, request(t, command, webhookArgs, v)); len(resp.Universe) != 0 && !(command == "edit" && slices.Equal(mapKeys(resp.Universe), []string{"Makefile"})) ||
					strings.Contains(stderr, "now calls") || strings.Contains(stderr, "warning") {
					t.Errorf("%s twice: universe %v, stderr %q", command, mapKeys(resp.Universe), stderr)
				}
			}
		})
	}
}

// defaulterWarning is a defaulting webhook that the plugin cannot wire,
// and the warning that TestDefaulterWarnings expects.
type defaulterWarning struct {
	name  string
	files func(t *testing.T, sh map[string]string) map[string]string
	// want is the warning: file, the line of the line containing
	// lineOf in that file (0: no line), and the rest.
	file, lineOf string
	want         string
	// edit: also with kubebuilder edit (create webhook otherwise only).
	editWant string
}

var defaulterWarnings = []defaulterWarning{
	{
		name: "a WithDefaulter argument whose type the source does not tell",
		files: func(_ *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: sh["unrecognised/"+frigateWebhook]}
		},
		file:   frigateWebhook,
		lineOf: `WithDefaulter(defaulters["Frigate"])`,
		want: `warning: the defaulting webhook of Frigate is not wired to the declarative defaults: the plugin cannot tell from the source which type WithDefaulter(defaulters["Frigate"]) is ` +
			`(it follows &T{}, T{}, new(T), variables and the module's constructors); add "shipv1.SetObjectDefaults_Frigate(obj)" as the first statement of that type's Default method`,
	},
	{
		name: "the same with an older builder, For(…) after WithDefaulter",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh["unrecognised/"+frigateWebhook], "NewWebhookManagedBy(mgr, &shipv1.Frigate{}).\n\t\tWithDefaulter(defaulters[\"Frigate\"]).",
				"NewWebhookManagedBy(mgr).\n\t\tWithDefaulter(defaulters[\"Frigate\"]).\n\t\tFor(&shipv1.Frigate{}).")}
		},
		file:   frigateWebhook,
		lineOf: `WithDefaulter(defaulters["Frigate"])`,
		want: `warning: the defaulting webhook of Frigate is not wired to the declarative defaults: the plugin cannot tell from the source which type WithDefaulter(defaulters["Frigate"]) is ` +
			`(it follows &T{}, T{}, new(T), variables and the module's constructors); add "shipv1.SetObjectDefaults_Frigate(obj)" as the first statement of that type's Default method`,
	},
	{
		name: "a type without a Default method",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh[shapeRenamed], ") Default(", ") Fill(")}
		},
		file:   frigateWebhook,
		lineOf: "type ShipFiller struct{}",
		want: "warning: the defaulting webhook of Frigate is not wired to the declarative defaults: ShipFiller, passed to WithDefaulter at @WithDefaulter(&ShipFiller{})@, " +
			`has no Default method the plugin can edit (its package declares no Default method for it); add "ship.SetObjectDefaults_Frigate(obj)" as the first statement of (*ShipFiller).Default`,
	},
	{
		name: "a runtime.Object that Default does not type-assert",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh[shapeRuntimeObject], "frigate, ok := obj.(*shipv1.Frigate)", "frigate, ok := toFrigate(obj)")}
		},
		file:   frigateWebhook,
		lineOf: ") Default(",
		want: "warning: (*FrigateCustomDefaulter).Default is not wired to the declarative defaults: (*FrigateCustomDefaulter).Default takes obj runtime.Object and its body does not type-assert it " +
			"to a pointer to the kind at its top level (`x, ok := obj.(*<pkg>.<Kind>)` then `if !ok { return … }`)",
	},
	{
		name: "a runtime.Object type-asserted without a check",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh[shapeRuntimeObject], "\tif !ok {", "\tif ok && false {")}
		},
		file:   frigateWebhook,
		lineOf: ") Default(",
		want: "warning: (*FrigateCustomDefaulter).Default is not wired to the declarative defaults: (*FrigateCustomDefaulter).Default type-asserts obj at @frigate, ok := obj.(*shipv1.Frigate)@ " +
			"without an `if !ok { return … }` after it; add \"shipv1.SetObjectDefaults_Frigate(frigate)\" after that check",
	},
	{
		name: "the builder's kind is not Default's",
		files: func(t *testing.T, sh map[string]string) map[string]string {
			return map[string]string{frigateWebhook: replace(t, sh["main/"+frigateWebhook], "NewWebhookManagedBy(mgr, &shipv1.Frigate{})", "NewWebhookManagedBy(mgr, &shipv1.Sloop{})")}
		},
		file:   frigateWebhook,
		lineOf: ") Default(",
		want: "warning: (*FrigateDefaulter).Default is not wired to the declarative defaults: it defaults a example.com/fleet/api/v1.Frigate, but WithDefaulter at @WithDefaulter(&FrigateDefaulter{})@ " +
			"registers it for example.com/fleet/api/v1.Sloop; make them agree, then run `kubebuilder edit --plugins " + pluginKey + "`",
	},
	{
		name: "go/v3: the API type as its own webhook.Defaulter",
		files: func(_ *testing.T, sh map[string]string) map[string]string {
			return map[string]string{"api/v1/frigate_webhook.go": sh["go-v3/api/v1/frigate_webhook.go"]}
		},
		file:   "api/v1/frigate_webhook.go",
		lineOf: "",
		want: "api/v1/frigate_webhook.go: warning: create webhook --defaulting --kind Frigate --version v1: the plugin found no WithDefaulter(…) for Frigate in the project's Go files, so no Default method is wired to the declarative defaults; " +
			`add "<pkg>.SetObjectDefaults_Frigate(obj)" as the first statement of the Default method of the type passed to WithDefaulter`,
		editWant: "@mutating=true@: warning: a mutating webhook (resources=frigates, versions=v1) that the plugin cannot wire to the declarative defaults: its package has no WithDefaulter(…) call. " +
			"The plugin edits the Default method of types passed to controller-runtime's WithDefaulter; if this webhook defaults a kind of this module, add \"<pkg>.SetObjectDefaults_<Kind>(obj)\" as the first statement of its Default method",
	},
}

// TestDefaulterWarnings: where the plugin cannot wire a defaulting webhook
// it changes nothing and says so on stderr, with file:line and the line to
// add.
func TestDefaulterWarnings(t *testing.T) {
	sh := shapes(t)
	for _, tc := range defaulterWarnings {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files(t, sh)
			u := shapeUniverse(t, files)
			// @text@ is file:line of the line of tc.file that holds text.
			at := func(s string) string {
				parts := strings.Split(s, "@")
				for i := 1; i < len(parts); i += 2 {
					parts[i] = fmt.Sprintf("%s:%d", tc.file, lineOf(t, files[tc.file], parts[i]))
				}
				return strings.Join(parts, "")
			}
			want := at(tc.want)
			if tc.lineOf != "" {
				want = fmt.Sprintf("%s:%d: %s", tc.file, lineOf(t, files[tc.file], tc.lineOf), want)
			}
			resp, stderr := call(t, request(t, "create webhook", webhookArgs, u))
			if resp.Error || len(resp.Universe) != 0 {
				t.Errorf("create webhook: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
			}
			if !strings.Contains(stderr, pluginKey+": "+want+"\n") || strings.Count(stderr, "warning") != 1 {
				t.Errorf("create webhook: stderr:\n%s\nwant:\n%s", stderr, want)
			}
			editWant := at(tc.editWant)
			if editWant == "" {
				editWant = want
			}
			resp, stderr = call(t, request(t, "edit", nil, u))
			if resp.Error || len(resp.Universe) != 0 {
				t.Errorf("edit: error %v %q, universe %v", resp.Error, resp.ErrorMsgs, mapKeys(resp.Universe))
			}
			if !strings.Contains(stderr, pluginKey+": "+editWant+"\n") || strings.Count(stderr, "warning") != 1 {
				t.Errorf("edit: stderr:\n%s\nwant:\n%s", stderr, editWant)
			}
		})
	}

	// A mutating webhook that a WithDefaulter of the project accounts for is
	// not reported, wherever that WithDefaulter is.
	u := shapeUniverse(t, map[string]string{frigateWebhook: sh["main/"+frigateWebhook]})
	u["config/webhook/frigate_marker.go"] = "package webhook\n\n" + strings.Split(strings.Split(sh["main/"+frigateWebhook], "// TODO(user): EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!\n\n")[1], "\n")[0] + "\n"
	if _, stderr := call(t, request(t, "edit", nil, u)); strings.Contains(stderr, "warning") {
		t.Errorf("edit warned about a wired webhook:\n%s", stderr)
	}
	// validation only: no defaulter is expected.
	u = shapeUniverse(t, nil)
	if _, stderr := call(t, request(t, "create webhook", []string{"--group", "ship", "--version", "v1", "--kind", "Frigate", "--programmatic-validation"}, u)); stderr != "" {
		t.Errorf("create webhook --programmatic-validation: %q", stderr)
	}
}
