package impact

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
	"github.com/controller-gen-default/controller-gen-default/internal/input/source"
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
	// Unreadable is set, instead of Object, for a kind whose objects the
	// cluster did not list (--objects kube://): a finding of its CRD.
	Unreadable *Finding
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
		defer func() { _ = file.Close() }() // read only: Close loses nothing
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
	return &Record{APIVersion: e.APIVersion, Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, GenerateName: e.GenerateName,
		Categories: []string{InvalidUnderOld}, Fails: true,
		InvalidUnderOld: []Problem{{Message: e.Error()}}}
}

// filesInputs are the objects of files, one at a time (eachInput).
func filesInputs(files []string, stdin io.Reader) iter.Seq2[Input, error] {
	return func(yield func(Input, error) bool) {
		for _, f := range files {
			stopped := false
			err := eachInput(f, stdin, func(in Input) error {
				if !yield(in, nil) {
					stopped = true
					return errUnusable
				}
				return nil
			})
			if stopped {
				return
			}
			if err != nil {
				yield(Input{}, err)
				return
			}
		}
	}
}

// concatInputs is a's inputs, then b's.
func concatInputs(a, b iter.Seq2[Input, error]) iter.Seq2[Input, error] {
	return func(yield func(Input, error) bool) {
		for in, err := range a {
			if !yield(in, err) || err != nil {
				return
			}
		}
		for in, err := range b {
			if !yield(in, err) || err != nil {
				return
			}
		}
	}
}

// clusterInputs are the objects the cluster stores under crds (OLD's), a
// page at a time (source.Cluster.EachObject); a kind it does not list is
// an Input with Unreadable set (FindingUnreadable), and the others are
// read.
func clusterInputs(ctx context.Context, c *source.Cluster, crds []*apiextensionsv1.CustomResourceDefinition, progress io.Writer) iter.Seq2[Input, error] {
	return func(yield func(Input, error) bool) {
		stopped := false
		err := c.EachObject(ctx, crds, progress, func(o source.Object) error {
			if !yield(Input{Source: o.Source, Object: o.Object}, nil) {
				stopped = true
				return errUnusable
			}
			return nil
		}, func(e *source.ResourceError) {
			if !stopped {
				f := unreadableFinding(e)
				stopped = !yield(Input{Source: "kube://" + e.CRD, Unreadable: &f}, nil)
			}
		})
		if err != nil && !stopped {
			yield(Input{}, err)
		}
	}
}

// unreadableFinding is the rule for a kind whose objects the cluster did
// not list: nothing is known of them, or of those after the e.Read that
// were read (and reported), so the run cannot vouch for them. It is a
// finding of the CRD, and the command exits 1, as for an object that
// loses data: a CI check must not pass on what it could not read.
func unreadableFinding(e *source.ResourceError) Finding {
	msg := fmt.Sprintf("its objects could not be listed at %s, so nothing is known of them: %v", e.Version, e.Err)
	if e.Read > 0 {
		msg = fmt.Sprintf("its objects could not all be listed at %s: %d were read (and are reported), nothing is known of the rest: %v", e.Version, e.Read, e.Err)
	}
	return newFinding(FindingUnreadable, e.CRD, e.Version, msg)
}
