package source

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// TestParse: each spelling, and what is refused with how to write it.
func TestParse(t *testing.T) {
	for in, want := range map[string]Spec{
		"config/crd/bases":                      {Kind: Files, Path: "config/crd/bases"},
		"file://config/crd/bases":               {Kind: Files, Path: "config/crd/bases"},
		"file:///abs/crd.yaml":                  {Kind: Files, Path: "/abs/crd.yaml"},
		"kube://":                               {Kind: Kube},
		"kube://widgets.example.com":            {Kind: Kube, Name: "widgets.example.com"},
		"git://main?path=config/crd/bases":      {Kind: Git, Ref: "main", Path: "config/crd/bases"},
		"git://origin/main?path=./config/crd/":  {Kind: Git, Ref: "origin/main", Path: "config/crd"},
		"git://v1.2.0~1?path=crd.yaml":          {Kind: Git, Ref: "v1.2.0~1", Path: "crd.yaml"},
		"git://HEAD?path=dir/with?path=in/name": {Kind: Git, Ref: "HEAD", Path: "dir/with?path=in/name"},
		"git://HEAD?path=config/../config//crd": {Kind: Git, Ref: "HEAD", Path: "config/crd"},
		"git://:/bump CRDs?path=.":              {Kind: Git, Ref: ":/bump CRDs", Path: "."},
	} {
		got, err := Parse(in)
		want.Raw = in
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"file://":                     "write file://PATH",
		"kube://widgets/x":            "kube://NAME",
		"kube://?context=x":           "kube://NAME",
		"git://main":                  "git://REF?path=PATH",
		"git://?path=config":          "git://REF?path=PATH",
		"git://main?path=":            "git://REF?path=PATH",
		"git://main?path=/etc/passwd": "/etc/passwd is an absolute path: PATH is relative to the top of the repository, as in git show REF:PATH (git://main?path=config/crd/bases)",
		"git://main?path=../other":    "../other climbs out of the repository: PATH is relative to the top of the repository",
		"git://main?path=a/../../b":   "a/../../b climbs out of the repository: PATH is relative to the top of the repository",
		"https://example.com/crd.yml": "unknown source https://",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), msg) || !strings.HasPrefix(err.Error(), in+": ") {
			t.Errorf("Parse(%q): %v, want an error naming it and saying %q", in, err, msg)
		}
	}
}

// TestGitCRDs: git://REF?path=PATH reads the CRDs at REF (a file or a
// directory, from the top of the repository, wherever git runs in it),
// not those of the working tree; errors name the git source.
func TestGitCRDs(t *testing.T) {
	repo := gitfstest.New(t)
	dir := repo.Dir
	repo.Commit(map[string]string{"config/crd/bases/widgets.yaml": crd("v1")})
	repo.Commit(map[string]string{"config/crd/bases/widgets.yaml": crd("v2")})
	repo.Write("config/crd/bases/widgets.yaml", crd("v3")) // not committed
	r := Reader{Dir: filepath.Join(dir, "config")}
	for ref, want := range map[string]string{"HEAD~1": "v1", "HEAD": "v2"} {
		for _, path := range []string{"config/crd/bases", "config/crd/bases/widgets.yaml"} {
			s, err := Parse("git://" + ref + "?path=" + path)
			if err != nil {
				t.Fatal(err)
			}
			crds, err := r.CRDs(context.Background(), []Spec{s}, nil)
			if err != nil {
				t.Fatalf("%s: %v", s.Raw, err)
			}
			if len(crds) != 1 || crds[0].Spec.Versions[0].Name != want {
				t.Errorf("%s: %v, want the CRD with version %s", s.Raw, versions(crds), want)
			}
		}
	}
	for spec, msg := range map[string]string{
		"git://nosuch?path=config/crd/bases": `git://nosuch?path=config/crd/bases: "nosuch" is not a commit`,
		"git://HEAD?path=config/crd/nosuch":  "git://HEAD?path=config/crd/nosuch: open config/crd/nosuch: file does not exist",
	} {
		s, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.CRDs(context.Background(), []Spec{s}, nil); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", spec, err, msg)
		}
	}
	// a git CRD and a file CRD that conflict: refused as the apiserver
	// would not serve both
	file, _ := Parse(filepath.Join(dir, "config/crd/bases/widgets.yaml"))
	head, _ := Parse("git://HEAD?path=config/crd/bases")
	_, err := r.CRDs(context.Background(), []Spec{head, file}, nil)
	if err == nil || !strings.Contains(err.Error(), "with different content") {
		t.Errorf("conflicting CRDs of git and a file: %v", err)
	}
	// each named where it was read
	for _, at := range []string{file.Path + ":1", "git://HEAD?path=config/crd/bases/widgets.yaml:1"} {
		if err == nil || !strings.Contains(err.Error(), at) {
			t.Errorf("the conflict does not name %s: %v", at, err)
		}
	}
}

func versions(crds []*apiextensionsv1.CustomResourceDefinition) []string {
	var out []string
	for _, c := range crds {
		for _, v := range c.Spec.Versions {
			out = append(out, c.Name+"/"+v.Name)
		}
	}
	return out
}

func crd(version string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: ` + version + `
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
`
}

// TestReadVersion: objects are read at their stored version when the CRD
// names one (and serves it), else at the storage version.
func TestReadVersion(t *testing.T) {
	c := &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
		{Name: "v1", Served: true}, {Name: "v2", Served: true, Storage: true}, {Name: "v0"},
	}}}
	for _, c2 := range []struct {
		stored  []string
		version string
		exact   bool
	}{
		{nil, "v2", false},
		{[]string{"v1"}, "v1", true},
		{[]string{"v0"}, "v2", false}, // not served: cannot be asked for
		{[]string{"v1", "v2"}, "v2", false},
	} {
		c.Status.StoredVersions = c2.stored
		if v, exact := ReadVersion(c); v != c2.version || exact != c2.exact {
			t.Errorf("stored %v: %s %v, want %s %v", c2.stored, v, exact, c2.version, c2.exact)
		}
	}
}
