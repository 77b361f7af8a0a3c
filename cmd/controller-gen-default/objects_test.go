package main

import (
	"errors"
	"testing"
)

// TestFindObjectsFormerName: controller-gen-default-objects is looked for
// first; a project whose Makefile installs it under its former name,
// controller-gen-default-normalize, still has its normalize, impact and
// conversion; with neither, the error is the one about the new name.
func TestFindObjectsFormerName(t *testing.T) {
	for _, tc := range []struct {
		name  string
		found []string // names on PATH
		want  string
	}{
		{"both", []string{objectsCommand, formerObjectsCommand}, "/path/" + objectsCommand},
		{"former only", []string{formerObjectsCommand}, "/path/" + formerObjectsCommand},
		{"new only", []string{objectsCommand}, "/path/" + objectsCommand},
		{"neither", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []string
			got, err := findObjects(func(name string) (string, error) {
				asked = append(asked, name)
				for _, f := range tc.found {
					if f == name {
						return "/path/" + name, nil
					}
				}
				return "", errors.New(name + ": not found")
			})
			if got != tc.want {
				t.Errorf("findObjects = %q, %v; want %q (asked %v)", got, err, tc.want, asked)
			}
			if tc.want == "" && (err == nil || err.Error() != objectsCommand+": not found") {
				t.Errorf("error %v, want the one about %s", err, objectsCommand)
			}
		})
	}
}
