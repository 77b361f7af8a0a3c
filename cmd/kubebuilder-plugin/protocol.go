package main

// The external plugin protocol of kubebuilder v4 (sigs.k8s.io/kubebuilder/v4
// pkg/plugin/external, apiVersion v1alpha1), restated here so that the plugin
// does not depend on kubebuilder's module. kubebuilder runs the plugin with no
// arguments, writes one PluginRequest to its stdin and reads one
// PluginResponse from its stdout; the plugin's stderr goes to the user.

// protocolVersion is the apiVersion of requests and responses.
const protocolVersion = "v1alpha1"

// The commands kubebuilder sends. For commandFlags and commandMetadata the
// only argument is the subcommand they are about: --init, --edit, --api or
// --webhook.
const (
	commandInit          = "init"
	commandEdit          = "edit"
	commandCreateAPI     = "create api"
	commandCreateWebhook = "create webhook"
	commandFlags         = "flags"
	commandMetadata      = "metadata"
)

// PluginRequest is what kubebuilder writes to the plugin's stdin.
type PluginRequest struct {
	APIVersion string `json:"apiVersion"`
	// Args are every --flag (and its value) of the kubebuilder command line
	// except --plugins, including flags meant for other plugins.
	Args    []string `json:"args"`
	Command string   `json:"command"`
	// Universe is every file under the project directory, path → content:
	// .git/ and binaries under bin/ included.
	Universe map[string]string `json:"universe"`
	// PluginChain is the plugin keys of this run, e.g.
	// ["go.kubebuilder.io/v4", "defaults.controller-gen-default.github.io/v1"].
	PluginChain []string `json:"pluginChain,omitempty"`
	// Config is the PROJECT file as a map; kubebuilder saves PROJECT itself
	// after all plugins have run.
	Config map[string]any `json:"config,omitempty"`
}

// PluginResponse is what the plugin writes to its stdout.
type PluginResponse struct {
	APIVersion string             `json:"apiVersion"`
	Command    string             `json:"command"`
	Metadata   SubcommandMetadata `json:"metadata"`
	// Universe is the files to write, path → content. kubebuilder writes
	// every entry and deletes nothing, so it holds only changed files.
	Universe map[string]string `json:"universe"`
	// Error makes kubebuilder fail with ErrorMsgs joined by newlines.
	Error     bool     `json:"error,omitempty"`
	ErrorMsgs []string `json:"errorMsgs,omitempty"`
	Flags     []Flag   `json:"flags,omitempty"`
}

// SubcommandMetadata is the help text of one subcommand.
type SubcommandMetadata struct {
	Description string `json:"description,omitempty"`
	Examples    string `json:"examples,omitempty"`
}

// Flag declares a flag that kubebuilder binds for the plugin. kubebuilder's
// Flag has no JSON tags, so the keys are the Go field names. Type is one of
// "string", "bool", "int", "float".
type Flag struct {
	Name    string
	Type    string
	Default string
	Usage   string
}
