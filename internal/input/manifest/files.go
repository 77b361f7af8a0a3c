package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Files expands the inputs of a command as `kubectl create -f` reads them:
// a directory stands for the files directly in it whose names end in
// .json, .yaml or .yml, in lexical order (kubectl's FileVisitor; not its
// subdirectories, as without -R); a file, or - for stdin, stands for
// itself. A directory with no such file is an error that names it, as
// kubectl's "error reading DIR: recognized file extensions are [.json
// .yaml .yml]".
func Files(inputs []string) ([]string, error) {
	var out []string
	for _, in := range inputs {
		if in == "-" {
			out = append(out, in)
			continue
		}
		fi, err := os.Stat(in)
		if err != nil || !fi.IsDir() {
			out = append(out, in) // opening it says what is wrong
			continue
		}
		files, err := manifestsIn(in)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// manifestsIn lists the manifest files directly in dir.
func manifestsIn(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".json", ".yaml", ".yml":
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a directory without .json, .yaml or .yml files", dir)
	}
	slices.Sort(files)
	return files, nil
}
