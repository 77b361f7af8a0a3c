// Command kubebuilder-plugin is the kubebuilder external plugin
// defaults.controller-gen-default.github.io/v1: it makes a kubebuilder
// project's Makefile run controller-gen-default instead of controller-gen,
// with its defaults generator next to object, and makes the project's
// defaulting webhooks call the generated SetObjectDefaults_<Kind>.
//
// kubebuilder runs it with no arguments and speaks JSON on stdin and stdout
// (see protocol.go). Run by hand, it installs itself where kubebuilder looks
// for plugins:
//
//	go run github.com/controller-gen-default/controller-gen-default/cmd/kubebuilder-plugin@latest install
//	kubebuilder init --plugins go/v4,defaults.controller-gen-default.github.io/v1
//
// See README.md.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(plugin{}.run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// plugin is what the plugin runs with; its zero value is the plugin as
// built, which main runs.
type plugin struct {
	// source is the default toolSource of init (and of an edit that adopts
	// a Makefile) and its note, as buildSource; nil: buildSource, the
	// source of this build.
	source func() (toolSource, string)
}

// defaultSource is p.source, or buildSource.
func (p plugin) defaultSource() (toolSource, string) {
	if p.source == nil {
		return buildSource()
	}
	return p.source()
}

const usage = `kubebuilder-plugin is the kubebuilder external plugin ` + pluginKey + `.

kubebuilder runs it with no arguments: it reads a JSON PluginRequest on stdin and
writes a JSON PluginResponse on stdout.

Usage:
  kubebuilder-plugin install [--dir DIR]   copy this binary to DIR/` + pluginName + `/` + pluginVersion + `/` + pluginName + `
                                           (DIR: $EXTERNAL_PLUGINS_PATH, else $XDG_CONFIG_HOME/kubebuilder/plugins,
                                           else kubebuilder's per-OS default) and print its path
  kubebuilder-plugin version               print the plugin key and where scaffolds get controller-gen-default:
                                           the version it pins, or the checkout it builds from

Then:
  kubebuilder init --plugins go/v4,` + pluginKey + ` [--` + flagOfflineEnvtest + `]
  kubebuilder edit --plugins ` + pluginKey + ` [--` + flagOfflineEnvtest + `] [--` + flagToolVersion + ` vX.Y.Z | --` + flagToolCheckout + ` DIR]
`

func (p plugin) run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "install":
			return p.runInstall(args[1:], stdout, stderr)
		case "version", "--version":
			fmt.Fprintf(stdout, "%s: %s\n", pluginKey, p.sourceText())
			return 0
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "unknown arguments %q\n\n%s", args, usage)
		return 2
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprintf(stderr, "stdin is a terminal: this plugin is run by kubebuilder.\n\n%s", usage)
			return 2
		}
	}
	var resp PluginResponse
	if req, err := readRequest(stdin); err != nil {
		resp = PluginResponse{APIVersion: protocolVersion, Universe: map[string]string{}, Error: true,
			ErrorMsgs: []string{fmt.Sprintf("%s: cannot read the PluginRequest on stdin: %v", pluginKey, err)}}
	} else {
		resp = p.handle(req, stderr)
	}
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		fmt.Fprintf(stderr, "%s: writing the response: %v\n", pluginKey, err)
		return 1
	}
	// kubebuilder reads the response even when the plugin fails; exit 0 so
	// that it shows the response's error messages, not just an exit status.
	return 0
}
