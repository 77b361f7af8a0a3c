package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// pluginsRoot is where kubebuilder v4 discovers external plugins
// (pkg/cli/options.go getPluginsRoot): $EXTERNAL_PLUGINS_PATH, else
// $XDG_CONFIG_HOME/kubebuilder/plugins, else ~/.config/kubebuilder/plugins
// on Linux and ~/Library/Application Support/kubebuilder/plugins on macOS.
func pluginsRoot() (string, error) {
	if p := os.Getenv("EXTERNAL_PLUGINS_PATH"); p != "" {
		return p, nil
	}
	rel := filepath.Join("kubebuilder", "plugins")
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, rel), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", rel), nil
	case "linux":
		return filepath.Join(home, ".config", rel), nil
	}
	return "", fmt.Errorf("kubebuilder supports external plugins on linux and darwin only, not %s", runtime.GOOS)
}

// pluginPath is ROOT/NAME/VERSION/NAME: kubebuilder takes the executable
// whose name is the plugin name (or that name plus an extension).
func pluginPath(root string) string {
	return filepath.Join(root, pluginName, pluginVersion, pluginName)
}

// runInstall copies the running executable to where kubebuilder finds it.
func (p plugin) runInstall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "plugins root (default: $EXTERNAL_PLUGINS_PATH, else $XDG_CONFIG_HOME/kubebuilder/plugins, else kubebuilder's default)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	root := *dir
	if root == "" {
		var err error
		if root, err = pluginsRoot(); err != nil {
			fmt.Fprintln(stderr, "install:", err)
			return 1
		}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "install:", err)
		return 1
	}
	dst := pluginPath(root)
	if err := copyExecutable(self, dst); err != nil {
		fmt.Fprintln(stderr, "install:", err)
		return 1
	}
	fmt.Fprintf(stderr, "installed %s: %s; use it with kubebuilder init --plugins go/v4,%s\n", pluginKey, p.sourceText(), pluginKey)
	if _, note := p.defaultSource(); note != "" {
		fmt.Fprintln(stderr, note)
	}
	fmt.Fprintln(stdout, dst)
	return 0
}

// copyExecutable writes src to dst atomically with mode 0755.
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // read only: Close loses nothing
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+pluginName+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		_ = tmp.Close() // the copy's error is the one to report; tmp is removed
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		_ = tmp.Close() // the Chmod's error is the one to report; tmp is removed
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}
