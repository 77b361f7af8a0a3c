package manifest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Files expands the inputs of a command as `kubectl create -f` reads them:
// a directory stands for the files in it whose names end in .json, .yaml
// or .yml, in lexical order; a file, or - for stdin, stands for itself.
//
// Without recursive, only the files directly in a directory count, as
// kubectl reads a directory without -R (cli-runtime's
// ExpandPathsToFileVisitors skips every subdirectory). With recursive
// (kubectl's -R, --recursive), its subdirectories are read too, in the
// order kubectl's filepath.Walk visits them: each directory's entries in
// lexical order of their names, a subdirectory's files where its name
// falls (a/, then a.yaml's siblings after it: dir/a/x.yaml comes before
// dir/b.yaml).
//
// A directory with no such file is an error that names it, as kubectl's
// "error reading DIR: recognized file extensions are [.json .yaml .yml]";
// without recursive, when its subdirectories hold such files, the error
// says to use -R.
func Files(inputs []string, recursive bool) ([]string, error) {
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
		files, err := manifestsIn(in, recursive)
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, noManifests(in, recursive)
		}
		out = append(out, files...)
	}
	return out, nil
}

// isManifest says whether a file's name is one kubectl reads in a
// directory.
func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// manifestsIn lists the manifest files of dir, those directly in it or,
// with recursive, in its subdirectories too, in filepath.WalkDir's order
// (kubectl's). Symbolic links in it are not followed into directories,
// as filepath.Walk does not follow them; dir itself may be one.
func manifestsIn(dir string, recursive bool) ([]string, error) {
	root := dir
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		root = dir + string(filepath.Separator) // walked as the directory it names
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		if isManifest(d.Name()) {
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

// noManifests is the error for dir, which holds no manifest file where
// Files looked.
func noManifests(dir string, recursive bool) error {
	if recursive {
		return fmt.Errorf("%s: a directory without .json, .yaml or .yml files, in it or in its subdirectories", dir)
	}
	deeper, err := manifestsIn(dir, true)
	if err != nil || len(deeper) == 0 {
		return fmt.Errorf("%s: a directory without .json, .yaml or .yml files", dir)
	}
	return fmt.Errorf("%s: a directory without .json, .yaml or .yml files directly in it; its subdirectories hold %d (%s%s): use -R (--recursive) to read them, as kubectl create -f DIR -R does",
		dir, len(deeper), deeper[0], more(len(deeper)-1))
}

func more(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", and %d more", n)
}
