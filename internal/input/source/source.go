// Package source reads what `controller-gen-default impact` compares from
// where operators and reviewers have it: the CRDs of --old and --new from
// files, from a git ref or from a cluster, and the stored objects of
// --objects from a cluster. The spellings are crdify's
// (kubernetes-sigs/crdify) where they fit:
//
//	PATH, file://PATH       files and directories, as kubectl -f reads them
//	git://REF?path=PATH     the same at a git ref of the repository in the
//	                        working directory (package internal/input/gitfs)
//	kube://                 the cluster's CRDs of the groups that NEW has
//	kube://NAME             the cluster's CRD NAME
//
// The cluster is the current context of the kubeconfig, as kubectl finds
// it (--kubeconfig, $KUBECONFIG, ~/.kube/config; --context). Nothing is
// ever written to it: reading needs get and list on
// customresourcedefinitions and list on the kinds (docs/impact.md gives the
// ClusterRole).
package source

import (
	"context"
	"fmt"
	"path"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs"
)

// Kind is where a Spec reads.
type Kind int

const (
	// Files are files and directories of the file system.
	Files Kind = iota
	// Git is files and directories at a git ref.
	Git
	// Kube is the cluster.
	Kube
)

// Spec is one source of --old, --new or --objects, parsed.
type Spec struct {
	Kind Kind
	// Path is a file or directory (Files, Git: relative to the top of
	// the repository, as git names paths at a ref).
	Path string
	// Ref is the git revision (Git).
	Ref string
	// Name is a CRD's metadata.name (Kube); "" is all of them.
	Name string
	// Raw is the source as given.
	Raw string
}

// Parse reads a source: `kube://`, `kube://NAME`, `git://REF?path=PATH`,
// `file://PATH` or a path. An unknown scheme (`http://`) is an error, so
// that a typo is not read as a file name.
func Parse(s string) (Spec, error) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return Spec{Kind: Files, Path: s, Raw: s}, nil
	}
	switch scheme {
	case "file":
		if rest == "" {
			return Spec{}, fmt.Errorf("%s: no path: write file://PATH", s)
		}
		return Spec{Kind: Files, Path: rest, Raw: s}, nil
	case "kube":
		if strings.ContainsAny(rest, "/?") {
			return Spec{}, fmt.Errorf("%s: write kube:// for the CRDs of NEW's groups, or kube://NAME for one CRD (NAME as in kubectl get crd NAME)", s)
		}
		return Spec{Kind: Kube, Name: rest, Raw: s}, nil
	case "git":
		ref, p, ok := strings.Cut(rest, "?path=")
		if !ok || ref == "" || p == "" {
			return Spec{}, fmt.Errorf("%s: write git://REF?path=PATH, PATH a file or directory from the top of the repository (git://origin/main?path=config/crd/bases)", s)
		}
		clean, err := treePath(p)
		if err != nil {
			return Spec{}, fmt.Errorf("%s: %w", s, err)
		}
		return Spec{Kind: Git, Ref: ref, Path: clean, Raw: s}, nil
	}
	return Spec{}, fmt.Errorf("%s: unknown source %s://: give a path, file://PATH, git://REF?path=PATH, kube:// or kube://NAME", s, scheme)
}

// treePath is PATH of git://REF?path=PATH cleaned (./config/crd/ is
// config/crd): a path from the top of the repository, which neither
// starts at / nor climbs out with .., as git show REF:PATH takes it.
func treePath(p string) (string, error) {
	const rule = "PATH is relative to the top of the repository, as in git show REF:PATH (git://main?path=config/crd/bases)"
	clean := path.Clean(p)
	switch {
	case path.IsAbs(p):
		return "", fmt.Errorf("%s is an absolute path: %s", p, rule)
	case clean == ".." || strings.HasPrefix(clean, "../"):
		return "", fmt.Errorf("%s climbs out of the repository: %s", p, rule)
	}
	return clean, nil
}

// Reader reads the CRDs of specs.
type Reader struct {
	// Dir is where git runs (the repository of git:// sources); "" is the
	// working directory.
	Dir string
	// Cluster reads kube:// sources; nil refuses them.
	Cluster *Cluster
}

// CRDs reads the CRDs of specs, in order, as crdcheck.LoadCRDs reads
// files (a directory's .yaml, .yml and .json files directly in it; CRDs
// the apiserver would not all serve refused). groups limits kube:// to the
// CRDs of those API groups (NEW's); nil is every CRD of the cluster.
func (r Reader) CRDs(ctx context.Context, specs []Spec, groups map[string]bool) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var set crdcheck.CRDSet
	for _, s := range specs {
		if err := r.add(ctx, &set, s, groups); err != nil {
			return nil, err
		}
	}
	return set.Served() // conflicts named by FILE:DOC, git://REF?path=FILE:DOC, kube://CRD
}

// add adds the CRDs of s to set.
func (r Reader) add(ctx context.Context, set *crdcheck.CRDSet, s Spec, groups map[string]bool) error {
	switch s.Kind {
	case Git:
		dir := r.Dir
		if dir == "" {
			dir = "."
		}
		tree, err := gitfs.New(ctx, dir, s.Ref)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Raw, err)
		}
		defer func() { _ = tree.Close() }() // stops the git readers; FS.Close cannot fail
		name := func(p string) string { return "git://" + s.Ref + "?path=" + p }
		if err := set.AddFS(tree, name, s.Path); err != nil {
			return fmt.Errorf("%s: %w", s.Raw, err)
		}
		return nil
	case Kube:
		if r.Cluster == nil {
			return fmt.Errorf("%s: no cluster to read from", s.Raw)
		}
		crds, err := r.Cluster.CRDs(ctx, s.Name, groups)
		if err != nil {
			return err
		}
		set.Add(func(c *apiextensionsv1.CustomResourceDefinition) string { return "kube://" + c.Name }, crds...)
		return nil
	}
	return set.AddFiles(s.Path)
}
