package realapistest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// ListFiles lists the files below dir, by their slash-separated path
// relative to it, sorted: what a generator wrote there, for a comparison
// of two output directories. A dir that does not exist has none.
func ListFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && os.IsNotExist(err) {
				return fs.SkipDir
			}
			return err
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}
