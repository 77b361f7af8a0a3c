package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFiles: files are written as controller-gen writes them (through
// symbolic links, keeping the mode), and an I/O error is two lines on
// stderr, as with controller-gen, not the usage text.
func TestOutputFiles(t *testing.T) {
	bin := binary(t)

	t.Run("through links keeping the mode", func(t *testing.T) {
		root := t.TempDir()
		bases, chart := filepath.Join(root, "bases"), filepath.Join(root, "chart")
		for _, d := range []string{bases, chart} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		const linked, private = "features.example.com_gadgets.yaml", "features.example.com_tours.yaml"
		if err := os.WriteFile(filepath.Join(chart, linked), []byte("stale\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../chart/"+linked, filepath.Join(bases, linked)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bases, private), []byte("old\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := run(t, bin, "crd", "paths=./testdata/api/features/...", "output:crd:dir="+bases)
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		if target, err := os.Readlink(filepath.Join(bases, linked)); err != nil || target != "../chart/"+linked {
			t.Errorf("%s is no longer the link to the chart's file: %q, %v", linked, target, err)
		}
		for _, name := range []string{linked, private} {
			want, _ := os.ReadFile(filepath.Join("../../testdata/golden", name))
			got, _ := os.ReadFile(filepath.Join(bases, name))
			if len(want) == 0 || !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file", name)
			}
		}
		if fi, err := os.Stat(filepath.Join(bases, private)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want mode 0600 kept", private, fi.Mode().Perm(), err)
		}
	})

	t.Run("an I/O error prints the error and how to fix it not the usage", func(t *testing.T) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, "file", "sub")
		_, stderr, code := run(t, bin, "crd", "paths=./testdata/api/features/...", "output:crd:dir="+dir)
		if code == 0 {
			t.Fatalf("exit 0, want an error:\n%s", stderr)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if !strings.Contains(l, ": warning: ") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "Error: writing "+filepath.Join(dir, "features.example.com_")) ||
			!strings.Contains(lines[0], "no file was written") || !strings.Contains(lines[1], dir) {
			t.Errorf("stderr, warnings aside, is\n%s\nwant two lines: the error naming the file, then how to fix it", strings.Join(lines, "\n"))
		}
		if strings.Contains(stderr, "Usage:") {
			t.Error("an I/O error printed the usage text")
		}
	})

	t.Run("standard output on a full device is one line not the usage", func(t *testing.T) {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full:", err)
		}
		defer full.Close()
		for _, args := range [][]string{
			{"crd", "paths=./testdata/api/features/...", "output:crd:stdout"},
			{"object", "paths=./testdata/api/features/...", "output:object:stdout"},
		} {
			cmd := exec.Command(bin, args...)
			cmd.Dir = "../.."
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = full, &stderr
			err := cmd.Run()
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
				if !strings.Contains(l, ": warning: ") {
					lines = append(lines, l)
				}
			}
			if err == nil || len(lines) != 1 || !strings.HasPrefix(lines[0], "Error: writing ") ||
				!strings.HasSuffix(lines[0], " to standard output: write /dev/stdout: no space left on device") {
				t.Errorf("%v: %v, stderr, warnings aside:\n%s\nwant a failure and one line naming standard output", args, err, strings.Join(lines, "\n"))
			}
		}
	})
}
