package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The plugin key is NAME/VERSION. NAME is a DNS-1123 subdomain in the
// domain of the project's GitHub organisation (kubebuilder validates it with
// IsDNS1123Subdomain); VERSION is kubebuilder's plugin version syntax.
const (
	pluginName    = "defaults.controller-gen-default.github.io"
	pluginVersion = "v1"
	pluginKey     = pluginName + "/" + pluginVersion
)

// Flag names. kubebuilder binds them next to the other plugins' flags, so they
// must not collide with go/v4's (domain, repo, owner, license, ...).
const (
	flagOfflineEnvtest = "offline-envtest"
	flagToolVersion    = "controller-gen-default-version"
	flagToolCheckout   = "controller-gen-default-checkout"
)

func (p plugin) flagsFor(subcommand string) []Flag {
	switch subcommand {
	case "init", "edit":
		return []Flag{
			{Name: flagOfflineEnvtest, Type: "bool", Default: "false",
				Usage: "also add `make envtest-assets`, which builds kube-apiserver and etcd from Go modules into bin/k8s/" +
					envtestK8sVersion + "-<os>-<arch>/ so that setup-envtest and `make test` need no envtest download " +
					"(=false removes it again)"},
			{Name: flagToolVersion, Type: "string", Default: "",
				Usage: "controller-gen-default version that the Makefile installs with go install, e.g. v0.1.0 " +
					"(default: a release build of the plugin pins its own version; " + p.defaultSourceText() + ")"},
			{Name: flagToolCheckout, Type: "string", Default: "",
				Usage: "checkout of controller-gen-default that the Makefile builds controller-gen-default and its normalize command from, " +
					"with go build and no download (default: the checkout a development build of the plugin was built from)"},
		}
	}
	return nil
}

func metadataFor(subcommand string) SubcommandMetadata {
	switch subcommand {
	case "init":
		return SubcommandMetadata{
			Description: `Makes the new project's Makefile run controller-gen-default, controller-gen with
KEP-1929 declarative defaults (+default on fields and types, default: {} on
non-pointer structs, zero defaults on scalars without omitempty), wherever it
ran controller-gen. The rule of CONTROLLER_GEN installs controller-gen-default and
controller-gen-default-normalize next to it: a release of the plugin pins its own
version (go install …@$(` + toolVersionVar + `)); a build from a checkout builds them
from that checkout ($(` + toolCheckoutVar + `), go build, no download). --` + flagToolVersion + `
and --` + flagToolCheckout + ` choose.
The generate recipe also runs the defaults generator next to object, which writes
zz_generated.defaults.go (SetObjectDefaults_<Kind>, RegisterDefaults, DeclarativeDefaulter);
later defaulting webhooks call it. The manifests recipe is unchanged. List the plugin after go/v4.`,
			Examples: `  kubebuilder init --plugins go/v4,` + pluginKey + ` --domain example.org --repo example.org/fleet
  # and build the envtest binaries from Go modules instead of downloading them
  kubebuilder init --plugins go/v4,` + pluginKey + ` --domain example.org --` + flagOfflineEnvtest,
		}
	case "edit":
		return SubcommandMetadata{
			Description: `Makes an existing kubebuilder project's Makefile run controller-gen-default
(controller-gen with KEP-1929 declarative defaults) wherever it ran controller-gen,
and makes its generate recipe run the defaults generator next to object. The Default method
of every defaulting webhook of the project's kinds then calls the generated
SetObjectDefaults_<Kind>. Other edits are kept; running it twice changes nothing the second time.
A Makefile it cannot edit safely is left alone, with instructions for the change by hand.`,
			Examples: `  kubebuilder edit --plugins ` + pluginKey + `
  kubebuilder edit --plugins ` + pluginKey + ` --` + flagOfflineEnvtest + `
  kubebuilder edit --plugins ` + pluginKey + ` --` + flagToolVersion + ` v0.1.0
  kubebuilder edit --plugins ` + pluginKey + ` --` + flagToolCheckout + ` ~/src/controller-gen-default`,
		}
	case "api":
		return SubcommandMetadata{
			Description: `Writes nothing. Warns (on stderr) about omitempty on a non-pointer spec or
status struct: encoding/json ignores it, so the field is always sent (KEP-1929).`,
		}
	case "webhook":
		return SubcommandMetadata{
			Description: `With --defaulting: the Default method that go/v4 has just scaffolded (of the type
passed to WithDefaulter, whatever it is called) calls SetObjectDefaults_<Kind> first,
the Go defaulter that make generate writes into the API package's zz_generated.defaults.go,
so the webhook applies the +default markers as the CRD does. The rest of Default is kept.
Where the plugin cannot wire it, it warns with file:line and the line to add.
With --conversion: the Makefile gets test-conversion, next to test, which runs
controller-gen-default conversion on the API packages: fields that round trips
between versions lose, and defaults that disagree across versions.`,
		}
	}
	return SubcommandMetadata{}
}

// defaultSourceText says what init writes without a flag.
func (p plugin) defaultSourceText() string {
	src, note := p.defaultSource()
	if note != "" {
		return "this development build pins latest: its checkout is not usable"
	}
	if src.checkout != "" {
		return "this build builds the tools from its checkout " + src.checkout
	}
	return "this build pins " + src.version
}

// parseOptions reads the plugin's flags from the args kubebuilder passes:
// every --flag of the command line with its value, other plugins' flags
// included, which are ignored. The source is p.defaultSource unless a flag
// says; note is its warning, for a Makefile that takes the default.
func (p plugin) parseOptions(args []string) (opts makefileOptions, note string, err error) {
	opts.source, note = p.defaultSource()
	given := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		switch name {
		case flagOfflineEnvtest:
			if !hasVal && i+1 < len(args) && isBool(args[i+1]) {
				i++
				val, hasVal = args[i], true
			}
			b := true
			if hasVal {
				if b, err = strconv.ParseBool(val); err != nil {
					return opts, "", fmt.Errorf("--%s=%s: not true or false", name, val)
				}
			}
			opts.offlineEnvtest, opts.offlineEnvtestSet = b, true
		case flagToolVersion, flagToolCheckout:
			if !hasVal {
				if i+1 >= len(args) || strings.HasPrefix(args[i+1], "--") {
					return opts, "", fmt.Errorf("--%s needs a value, e.g. --%s v0.1.0 or --%s ~/src/controller-gen-default", name, flagToolVersion, flagToolCheckout)
				}
				i++
				val = args[i]
			}
			if given != "" && given != name {
				return opts, "", fmt.Errorf("--%s and --%s: give one, a version to install or a checkout to build from", given, name)
			}
			given = name
			if name == flagToolVersion {
				if val == "" || strings.ContainsAny(val, " \t\n$#\\\"'") {
					return opts, "", fmt.Errorf("--%s=%q: not a version", name, val)
				}
				opts.source = toolSource{version: val}
			} else {
				dir, err := filepath.Abs(val)
				if err != nil {
					return opts, "", fmt.Errorf("--%s=%s: %w", name, val, err)
				}
				if err := isCheckout(dir); err != nil {
					return opts, "", fmt.Errorf("--%s=%s: %w", name, val, err)
				}
				opts.source = toolSource{checkout: dir}
			}
			opts.sourceSet, note = true, ""
		}
	}
	return opts, note, nil
}

func isBool(s string) bool {
	_, err := strconv.ParseBool(s)
	return err == nil
}

// handle answers one request. Logs go to log (stderr). Every path it
// reads or returns is inside the project (localPath), checked on the way
// in and again on the way out.
func (p plugin) handle(req PluginRequest, log io.Writer) PluginResponse {
	resp := PluginResponse{APIVersion: protocolVersion, Command: req.Command, Universe: map[string]string{}}
	if err := localPaths(req.Universe); err != nil {
		return failed(resp, err.Error())
	}
	out := p.answer(req, resp, log)
	if err := localPaths(out.Universe); err != nil {
		return failed(resp, err.Error())
	}
	return out
}

// localPaths refuses universe's first path, in sorted order, that is not
// inside the project.
func localPaths(universe map[string]string) error {
	for _, p := range slices.Sorted(maps.Keys(universe)) {
		if err := localPath(p); err != nil {
			return err
		}
	}
	return nil
}

// localPath refuses a universe path that is not inside the project
// directory: kubebuilder sends paths relative to it, and writes back the
// universe's paths the plugin returns, so an absolute path or one that
// climbs out with ".." would be a file outside the project (filepath.IsLocal).
func localPath(name string) error {
	if filepath.IsLocal(name) {
		return nil
	}
	return fmt.Errorf("universe path %q is not inside the project directory (it is empty, absolute, or climbs out with \"..\"): "+
		"kubebuilder sends paths relative to the project, so the request is refused and no file is edited", name)
}

// answer answers one request, whose paths are all inside the project.
func (p plugin) answer(req PluginRequest, resp PluginResponse, log io.Writer) PluginResponse {
	if req.APIVersion != protocolVersion {
		return failed(resp, fmt.Sprintf("%s speaks the external plugin protocol %s, not %q", pluginKey, protocolVersion, req.APIVersion))
	}
	switch req.Command {
	case commandFlags, commandMetadata:
		sub := ""
		if len(req.Args) > 0 {
			sub = strings.TrimPrefix(req.Args[0], "--")
		}
		if req.Command == commandFlags {
			resp.Flags = p.flagsFor(sub)
		} else {
			resp.Metadata = metadataFor(sub)
		}
		return resp
	case commandInit, commandEdit:
		return p.adopt(req, resp, log)
	case commandCreateAPI:
		createAPI(req, log)
		return resp
	case commandCreateWebhook:
		return createWebhook(req, resp, log)
	}
	return failed(resp, fmt.Sprintf("%s: unknown command %q", pluginKey, req.Command))
}

// createAPI answers create api: it changes no file, and warns about
// omitempty on the new kind's struct fields (lintOmitempty), in the
// project in the working directory, where kubebuilder runs the plugin.
func createAPI(req PluginRequest, log io.Writer) {
	dir, err := os.Getwd()
	if err == nil {
		var warnings []string
		if warnings, err = lintOmitempty(req.Universe, argValue(req.Args, "kind"), dir); err == nil {
			for _, w := range warnings {
				fmt.Fprintf(log, "%s: %s\n", pluginKey, w)
			}
			return
		}
	}
	fmt.Fprintf(log, "%s: note: the API packages did not load, omitempty on structs is not checked here (make generate's crd checks it): %v\n", pluginKey, err)
}

// adopt answers init and edit: the Makefile runs controller-gen-default,
// and the webhooks already there call the Go defaulters that make generate
// writes.
func (p plugin) adopt(req PluginRequest, resp PluginResponse, log io.Writer) PluginResponse {
	opts, sourceNote, err := p.parseOptions(req.Args)
	if err != nil {
		return failed(resp, err.Error())
	}
	mk, ok := req.Universe["Makefile"]
	if !ok {
		return failed(resp, "no Makefile in the project: "+pluginKey+" edits the Makefile that go/v4 scaffolds; "+
			"list it after go/v4, e.g. --plugins go/v4,"+pluginKey)
	}
	out, notes, err := editMakefile(mk, opts)
	if err != nil {
		var u *unrecognisedError
		if errors.As(err, &u) {
			return failed(resp, u.messages()...)
		}
		return failed(resp, strings.Split(err.Error(), "\n")...)
	}
	if conversionWebhooks(req.Config) {
		if withTarget, added := addConversionTarget(out, apiPackages(req.Config)); added {
			out = withTarget
			notes = append(notes, "make "+conversionTarget+" checks the conversion code: round trips between versions and defaults across versions (controller-gen-default conversion)")
		}
	}
	// Webhooks already there call the Go defaulters that make generate
	// now writes.
	var files map[string]string
	var logs []string
	_, runs := addDefaultsGenerator(strings.Split(out, "\n"))
	if runs {
		files, logs = editDefaulters(req.Universe, defaulterFilter{})
	} else {
		fmt.Fprintf(log, "%s: %s\n", pluginKey, noObjectRecipe)
	}
	for _, l := range append(notes, logs...) {
		fmt.Fprintf(log, "%s: %s\n", pluginKey, l)
	}
	for name, content := range files {
		resp.Universe[name] = content
	}
	if out == mk {
		if len(files) == 0 {
			fmt.Fprintf(log, "%s: the Makefile already runs controller-gen-default; nothing to change\n", pluginKey)
		}
		return resp
	}
	resp.Universe["Makefile"] = out
	also := ""
	if runs {
		also = ", and make generate runs its defaults generator next to object (zz_generated.defaults.go: SetObjectDefaults_<Kind>)"
	}
	fmt.Fprintf(log, "%s: the Makefile now runs controller-gen-default (%s) wherever it ran controller-gen%s\n", pluginKey, toolPackage, also)
	fmt.Fprintf(log, "%s: %s\n", pluginKey, madeBy(out))
	// The default fell back to latest: say so, once the Makefile takes it.
	if sourceNote != "" && strings.Contains(out, "\n"+toolVersionVar+" ?= latest") {
		fmt.Fprintf(log, "%s: %s\n", pluginKey, sourceNote)
	}
	if opts.offlineEnvtest {
		fmt.Fprintf(log, "%s: `make envtest-assets` builds kube-apiserver and etcd for envtest from Go modules (setup-envtest and test depend on it)\n", pluginKey)
	}
	return resp
}

// failed is resp as the error msgs.
func failed(resp PluginResponse, msgs ...string) PluginResponse {
	resp.Error, resp.ErrorMsgs = true, msgs
	return resp
}

// argValue is the value of --name in args, or "".
func argValue(args []string, name string) string {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// argBool: --name or --name=true is in args.
func argBool(args []string, name string) bool {
	for i, a := range args {
		if a == "--"+name {
			if i+1 < len(args) && isBool(args[i+1]) {
				b, _ := strconv.ParseBool(args[i+1])
				return b
			}
			return true
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			b, _ := strconv.ParseBool(v)
			return b
		}
	}
	return false
}

// noObjectRecipe is logged when no recipe runs the object generator, so
// that defaults could not be added next to it.
const noObjectRecipe = "no recipe of the Makefile runs \"$(CONTROLLER_GEN)\" object…, so none runs the defaults generator " +
	"and webhooks are left as they are: add defaults:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) next to object:… by hand, " +
	"then run `kubebuilder edit --plugins " + pluginKey + "`"

// createWebhook edits the Default method that go/v4 has just scaffolded
// (kubebuilder runs the plugins of the layout in order, go/v4 first, and
// sends the files it wrote in the universe) so that it calls the generated
// SetObjectDefaults_<Kind>. The Makefile must run controller-gen-default;
// its generate recipe gets the defaults generator if it lacks it (a project
// that an older version of the plugin adopted).
func createWebhook(req PluginRequest, resp PluginResponse, log io.Writer) PluginResponse {
	mk, ok := req.Universe["Makefile"]
	lines := strings.Split(mk, "\n")
	if !ok || !runsToolBinary(lines) {
		fmt.Fprintf(log, "%s: the Makefile does not run controller-gen-default, so the webhook's Default is left as it is; "+
			"run `kubebuilder edit --plugins %s`, which also edits the webhooks\n", pluginKey, pluginKey)
		return resp
	}
	changed, runs := addDefaultsGenerator(lines)
	if !runs {
		fmt.Fprintf(log, "%s: %s\n", pluginKey, noObjectRecipe)
		return resp
	}
	if changed {
		resp.Universe["Makefile"] = strings.Join(lines, "\n")
		fmt.Fprintf(log, "%s: make generate now runs the defaults generator next to object\n", pluginKey)
	}
	if argBool(req.Args, "conversion") {
		mk := strings.Join(lines, "\n")
		if out, added := addConversionTarget(mk, apiPackages(req.Config)); added {
			resp.Universe["Makefile"] = out
			fmt.Fprintf(log, "%s: make %s checks the conversion code: round trips between versions and defaults across versions (controller-gen-default conversion)\n", pluginKey, conversionTarget)
		}
	}
	filter := defaulterFilter{kind: argValue(req.Args, "kind"), version: argValue(req.Args, "version"), defaulting: argBool(req.Args, "defaulting")}
	if mg, _ := req.Config["multigroup"].(bool); mg {
		filter.group = argValue(req.Args, "group")
	}
	if filter.kind == "" {
		return resp
	}
	files, logs := editDefaulters(req.Universe, filter)
	for _, l := range logs {
		fmt.Fprintf(log, "%s: %s\n", pluginKey, l)
	}
	for p, content := range files {
		resp.Universe[p] = content
	}
	return resp
}

// madeBy says where the Makefile gets the tools.
func madeBy(mk string) string {
	lines := strings.Split(mk, "\n")
	if dir, _ := assignedValue(lines, toolCheckoutAssign); dir != "" {
		return "make builds " + toolBinary + " and " + normalizeBinary + " into $(LOCALBIN) from the checkout " + dir +
			" (" + toolCheckoutVar + ": go build, nothing downloaded but what the module cache lacks)"
	}
	v, _ := assignedValue(lines, toolVersionAssign)
	return "make installs " + toolBinary + " and " + normalizeBinary + " " + v + " into $(LOCALBIN) with go install (" + toolVersionVar + ")"
}

// runsToolBinary: CONTROLLER_GEN is controller-gen-default.
func runsToolBinary(lines []string) bool {
	for _, l := range lines {
		m := controllerGenAssign.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m != nil && !strings.HasPrefix(strings.TrimSpace(l), "#") && (m[2] == toolBinary || strings.HasSuffix(m[2], "/"+toolBinary)) {
			return true
		}
	}
	return false
}
