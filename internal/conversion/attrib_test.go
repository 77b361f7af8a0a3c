package conversion

import (
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttribute: the deepest field of the user's module takes a finding
// on a shared type's field, which the message names relative to its
// module.
func TestAttribute(t *testing.T) {
	tmp := t.TempDir()
	user := filepath.Join(tmp, "work", "app")
	cache := filepath.Join(tmp, "pkg", "mod", "k8s.io", "api@v0.35.4")
	for dir, mod := range map[string]string{user: "example.com/app", cache: "k8s.io/api"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("// a module\nmodule "+mod+"\n\ngo 1.24\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(dir, file string, line int, name, typ string) link {
		return link{Pos: token.Position{Filename: filepath.Join(dir, file), Line: line, Column: 2}, Name: name, Type: typ}
	}
	spec := at(user, "api/v1/machine_types.go", 10, "spec", "Machine")
	ref := at(user, "api/v1/machine_types.go", 88, "infrastructureRef", "MachineSpec")
	uid := at(cache, "core/v1/types.go", 7412, "uid", "corev1.ObjectReference")

	a := attribute([]link{spec, ref, uid}, user)
	if a.User == nil || a.User.Pos.Line != 88 || a.Shared == nil || a.Shared.Name != "uid" {
		t.Fatalf("attribution %+v", a)
	}
	if got, want := sharedNote(a.Shared), "uid of corev1.ObjectReference (k8s.io/api/core/v1/types.go:7412)"; got != want {
		t.Errorf("note %s, want %s", got, want)
	}
	if a := attribute([]link{spec, ref}, user); a.Shared != nil || a.User.Pos.Line != 88 {
		t.Errorf("a user's field is shared: %+v", a)
	}
	if a := attribute([]link{spec, ref, uid}, ""); a.User != nil {
		t.Errorf("no module, yet a user's field: %+v", a)
	}
	// the outermost field is the user's when it alone is
	if a := attribute([]link{spec, uid}, user); a.User == nil || a.User.Name != "spec" || a.Shared == nil {
		t.Errorf("the outermost field: %+v", a)
	}
	for path, want := range map[string]string{"k8s.io/api/core/v1": "corev1", "k8s.io/apimachinery/pkg/apis/meta/v1": "metav1",
		"sigs.k8s.io/cluster-api/api/core/v1beta2": "corev1beta2", "example.com/x/util": "util", "apps/v1": "appsv1", "v1": "v1"} {
		if got := pkgAlias(path, path[strings.LastIndex(path, "/")+1:]); got != want {
			t.Errorf("pkgAlias(%s) = %s, want %s", path, got, want)
		}
	}
}

// TestModuleOf: a module's directory and path are read from the nearest
// go.mod above a file, its module line as the go command reads it.
func TestModuleOf(t *testing.T) {
	for gomod, want := range map[string]string{
		"module example.com/a\n":                 "example.com/a",
		"// c\nmodule\texample.com/b\ngo 1.24\n": "example.com/b",
		"module \"example.com/c\"\n":             "example.com/c",
		"modulex example.com/d\nmodule e\n":      "e",
		"go 1.24\n":                              "",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "api", "v1", "types.go")
		if gotDir, got := moduleOf(file); gotDir != dir || got != want {
			t.Errorf("%q: %s %q, want %s %q", gomod, gotDir, got, dir, want)
		}
	}
}

// holderTypes is a kind whose two fields hold k8s.io/api's
// ObjectReference.
const holderTypes = `// +kubebuilder:object:generate=true
// +groupName=refs.example.com
package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type HolderSpec struct {
	// +optional
	InfrastructureRef corev1.ObjectReference ` + "`json:\"infrastructureRef,omitzero\"`" + `
	// +optional
	BootstrapRef *corev1.ObjectReference ` + "`json:\"bootstrapRef,omitempty\"`" + `
}

// +kubebuilder:object:root=true

type Holder struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	Spec HolderSpec ` + "`json:\"spec\"`" + `
}
`

// TestAttributeLoaded: on a loaded API, a finding on ObjectReference.UID
// is at each user field that holds it, one per field, with the shared
// field's position relative to k8s.io/api.
func TestAttributeLoaded(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	dir := copyConvapi(t)
	edit(t, "go.mod", "require (\n", "require (\n\tk8s.io/api v0.37.1\n")
	pkg := filepath.Join(dir, "api", "refs", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "types.go"), []byte(holderTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := load("", []string{"./api/..."}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kind{Group: "refs.example.com", Kind: "Holder"}
	file := filepath.Join("api", "refs", "v1", "types.go")
	for _, tc := range []struct{ field, decl, goPath string }{
		{"infrastructureRef", "InfrastructureRef corev1", "HolderSpec.InfrastructureRef"},
		{"bootstrapRef", "BootstrapRef *corev1", "HolderSpec.BootstrapRef"},
	} {
		p := Path{{Name: "spec"}, {Name: tc.field}, {Name: "uid"}}
		f := at(k, "v1", p, l, RuleLostField, "lost")
		want := fieldPos(t, file, tc.decl)
		if got := relFile(f.Pos).String(); got != want || f.GoPath != tc.goPath || f.JPath != "spec."+tc.field+".uid" {
			t.Errorf("%s: at %s %s (%s), want %s %s", p, got, f.GoPath, f.JPath, want, tc.goPath)
		}
		if !strings.HasPrefix(f.Msg, "uid of corev1.ObjectReference (k8s.io/api/core/v1/types.go:") || !strings.HasSuffix(f.Msg, "): lost") {
			t.Errorf("%s: message %s", p, f.Msg)
		}
	}
	// the user's own field is where it was
	f := at(k, "v1", Path{{Name: "spec"}, {Name: "infrastructureRef"}}, l, RuleLostField, "lost")
	if f.GoPath != "HolderSpec.InfrastructureRef" || f.Msg != "lost" {
		t.Errorf("the user's field: %s %s", f.GoPath, f.Msg)
	}
}
