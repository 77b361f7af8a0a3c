package model

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// TestCommentAt: each marker comment is attached where controller-tools'
// collector attaches it: to a field (its doc, the group right above that,
// the end of its line), to a type (its doc, the group right above that),
// to nothing (a comment in a struct that no field takes), else to the
// package; and godoc tells a doc comment from the others.
func TestCommentAt(t *testing.T) {
	t.Parallel()
	const src = `// +kubebuilder:x=package-doc
package v1

import "time"

// +kubebuilder:x=package-floating

// +kubebuilder:x=above-type

// Widget is a widget.
// +kubebuilder:x=type-doc
type Widget struct {
	// +kubebuilder:x=above-field

	// Size is a size.
	// +kubebuilder:x=field-doc
	Size int ` + "`json:\"size\"`" + ` // +kubebuilder:x=field-line

	// +kubebuilder:x=embedded-doc
	*time.Time

	// +kubebuilder:x=struct-end
}

type (
	// +kubebuilder:x=group-spec-doc
	A struct{}

	// +kubebuilder:x=group-second-spec
	B string
)

// +kubebuilder:x=single-line
type C string

func f() {
	// +kubebuilder:x=in-func
}

// +kubebuilder:x=file-end
`
	pkg := attachment{goPath: "package v1", target: ctmarkers.DescribesPackage}
	typ := func(name string, godoc bool) attachment {
		return attachment{goPath: name, target: ctmarkers.DescribesType, godoc: godoc}
	}
	field := func(name string, godoc bool) attachment {
		return attachment{goPath: name, target: ctmarkers.DescribesField, godoc: godoc}
	}
	want := map[string]attachment{
		"package-doc": pkg, "package-floating": pkg, "above-type": typ("Widget", false), "type-doc": typ("Widget", true),
		"above-field": field("Widget.Size", false), "field-doc": field("Widget.Size", true), "field-line": field("Widget.Size", false),
		"embedded-doc": field("Widget.Time", true), "struct-end": {goPath: "Widget", target: ctmarkers.DescribesType, dropped: true},
		"group-spec-doc": typ("A", true), "group-second-spec": typ("B", true), "single-line": typ("C", true),
		"in-func": pkg, "file-end": pkg,
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "types.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for k, cg := range file.Comments {
		for _, c := range cg.List {
			_, label, ok := strings.Cut(c.Text, "+kubebuilder:x=")
			if !ok {
				continue
			}
			seen++
			if got := commentAt(fset, file, k, "v1"); got != want[label] {
				t.Errorf("%s: %+v, want %+v", label, got, want[label])
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d marker comments, want %d", seen, len(want))
	}
}
