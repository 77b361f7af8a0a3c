package lint_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCustomGCLIsTheDocs: the .custom-gcl.yml that
// hack/golangci-lint/build.sh builds golangci-lint from is the one
// docs/lint.md gives users, byte for byte: the test binary is what they
// build.
func TestCustomGCLIsTheDocs(t *testing.T) {
	file, err := os.ReadFile(filepath.Join(repoRoot, "hack/golangci-lint/.custom-gcl.yml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/lint.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?ms)^```yaml\n(version: .*?)^```$").FindAllSubmatch(doc, -1)
	var found [][]byte
	for _, b := range blocks {
		if regexp.MustCompile(`(?m)^plugins:$`).Match(b[1]) {
			found = append(found, b[1])
		}
	}
	if len(found) != 1 {
		t.Fatalf("docs/lint.md has %d ```yaml blocks with version: and plugins:, want the one .custom-gcl.yml", len(found))
	}
	if string(found[0]) != string(file) {
		t.Errorf("docs/lint.md's .custom-gcl.yml\n%s\nhack/golangci-lint/.custom-gcl.yml\n%s", found[0], file)
	}
}
