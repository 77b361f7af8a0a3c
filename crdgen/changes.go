package crdgen

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/defaultdiff"
	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/engine"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// noteChanges says, for each CRD file the run replaces, which defaults of b
// differ from the file's, one note each at the Go field. A changed or
// removed default changes what objects already stored read as (the
// apiserver defaults on every read), so those point to `impact`. Files
// that are new, unreadable, or not written to disk get no note.
//
// The notes are reported as findings (model.Diagnostics.Report with
// opts): the notes of added and changed defaults, which a first run over
// CRDs from controller-gen has by the hundred, are one line per rule and
// CRD unless every finding is asked for.
func noteChanges(b *engine.Build, w io.Writer, opts model.ReportOptions, rule genall.OutputRule, staged *atomicout.Staging, crds []*apiextensionsv1.CustomResourceDefinition) {
	notes := model.NewDiagnostics()
	var affects []string
	for _, c := range crds {
		name := fmt.Sprintf("%s_%s.yaml", c.Spec.Group, c.Spec.Names.Plural)
		path, ok := atomicout.Destination(rule, nil, name)
		if !ok {
			continue
		}
		if b, ok := staged.Staged(name); ok {
			if on, err := os.ReadFile(path); err != nil || bytes.Equal(on, b) {
				continue // new, or unchanged: nothing to parse
			}
		}
		old, err := crdcheck.LoadCRDs(path)
		if err != nil || len(old) != 1 || old[0].Name != c.Name {
			continue
		}
		for _, ch := range defaultdiff.Diff(old[0], c) {
			n := changeNode(b, c.Name, ch)
			notes.Add(model.Finding{Sev: model.Note, Pos: n.At, GoPath: n.GoPath, JPath: ch.Path, Rule: "default-" + ch.Kind(),
				Msg: changeText(c.Name, ch), Own: n.Own, CRD: c.Name})
			if ch.Kind() != defaultdiff.Added && !contains(affects, path) {
				affects = append(affects, path)
			}
		}
	}
	notes.Report(w, opts)
	for _, p := range affects {
		p = relPath(p)
		old := "old.yaml (the file as it was)"
		if !filepath.IsAbs(p) {
			old = fmt.Sprintf("old.yaml (git show HEAD:%s > old.yaml)", p)
		}
		fmt.Fprintf(w, "note: %s: changed or removed defaults change what objects already stored read as; to see what they become: "+
			"controller-gen-default impact --old %s --new %s OBJECTS.yaml\n", p, old, p)
	}
}

// changeNode is the Go source of a changed default: the field that writes
// it now, else (a removed default) the field at its path, else the CRD's
// root type.
func changeNode(b *engine.Build, crdName string, ch defaultdiff.Change) engine.Node {
	spath := defaultdiff.SchemaPathOf(ch.Path)
	if o, ok := b.Origin(crdName, ch.Version, spath); ok {
		return o.Node
	}
	if n, ok := b.Locate(crdName, ch.Version, spath); ok {
		return n
	}
	return b.Root(crdName)
}

func changeText(crdName string, ch defaultdiff.Change) string {
	where := fmt.Sprintf(" in %s %s", crdName, ch.Version)
	switch ch.Kind() {
	case defaultdiff.Added:
		return fmt.Sprintf("default added: %s%s", ch.New, where)
	case defaultdiff.Removed:
		return fmt.Sprintf("default removed: was %s%s", ch.Old, where)
	}
	return fmt.Sprintf("default changed: %s, was %s%s", ch.New, ch.Old, where)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// relPath is p relative to the working directory when it is below it.
func relPath(p string) string {
	if wd, err := os.Getwd(); err == nil && strings.HasPrefix(p, wd+string(os.PathSeparator)) {
		return p[len(wd)+1:]
	}
	return p
}
