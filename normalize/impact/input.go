package impact

import (
	"io"
	"os"

	"github.com/controller-gen-default/controller-gen-default/normalize/manifest"
)

// Input is one object of the command's input.
type Input struct {
	// Source is FILE:DOC, or FILE:DOC:ITEM for an item of a List.
	Source string
	Object map[string]any
	// Duplicates are the fields the object gives twice (manifest.Object's
	// Duplicates); Object holds the last value of each.
	Duplicates []string
	// TooLarge is set for a document refused unread (manifest.Object's
	// TooLarge); Object holds what its top lines say.
	TooLarge *manifest.TooLargeError
}

// ReadInputs reads the objects of each file (- is stdin) as kubectl reads
// them (package normalize/manifest): multi-document YAML or JSON, empty and
// null documents skipped, a List (as `kubectl get -o yaml` writes it, or a
// <Kind>List) standing for its items. The error names FILE:DOC.
func (a *Analyzer) ReadInputs(files []string, stdin io.Reader) ([]Input, error) {
	return readInputs(files, stdin)
}

func readInputs(files []string, stdin io.Reader) ([]Input, error) {
	var out []Input
	for _, f := range files {
		err := eachInput(f, stdin, func(in Input) error {
			out = append(out, in)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eachInput calls fn with each object of one file (- is stdin), one at a
// time, and stops at the first error, of the file or of fn.
func eachInput(f string, stdin io.Reader, fn func(Input) error) error {
	r := stdin
	if f != "-" {
		file, err := os.Open(f)
		if err != nil {
			return err
		}
		defer file.Close()
		r = file
	}
	for o, err := range manifest.All(f, r) {
		if err != nil {
			return err
		}
		if err := fn(Input{Source: o.Source(), Object: o.Object, Duplicates: o.Duplicates, TooLarge: o.TooLarge}); err != nil {
			return err
		}
	}
	return nil
}

// tooLargeRecord is the rule for a document refused unread
// (manifest.TooLargeError): the apiserver refuses its create (413) before
// it decodes anything, so no such object can be stored under OLD: it is
// invalid under OLD, and nothing else is known of it.
func tooLargeRecord(in Input) *Record {
	e := in.TooLarge
	return &Record{APIVersion: e.APIVersion, Kind: e.Kind, Namespace: e.Namespace, Name: e.Name,
		Categories: []string{InvalidUnderOld}, Fails: true,
		InvalidUnderOld: []Problem{{Message: e.Error()}}}
}
