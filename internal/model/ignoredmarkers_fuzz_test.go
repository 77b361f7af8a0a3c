package model

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// FuzzIgnoredMarkerComment: on any comment text, the rules of
// ignoredmarkers.go do not panic, and agree with each other: a comment is
// unknown exactly when it is a +kubebuilder: marker that no target
// defines; an unknown marker's message starts with the name as written
// and is never misplaced; a misplaced one is defined, and its message
// names its definition.
func FuzzIgnoredMarkerComment(f *testing.F) {
	for _, seed := range []string{
		"// +kubebuilder:validation:enum=a;b", "// +kubebuilder:default:5", "//+kubebuilder:oneOf:={required:{a}}",
		"// +kubebuilder:printcolumn:name=\"Age\",type=date", "// +kubebuilder:subresource:status // note",
		"// +kubebuilder:", "// +kubebuilder::", "// +kubebuilder:=", "//+kubebuilder:default=a b", "/* +kubebuilder:x */", "//",
		"// +kubebuilder:scaffold:imports", "// +kubebuilder:validation:Items:Enum=a",
	} {
		f.Add(seed)
	}
	targets := []attachment{
		{goPath: "T", target: ctmarkers.DescribesType, godoc: true},
		{goPath: "T", target: ctmarkers.DescribesType},
		{goPath: "T.F", target: ctmarkers.DescribesField, godoc: true},
		{goPath: "package v1", target: ctmarkers.DescribesPackage},
		{goPath: "T", target: ctmarkers.DescribesType, dropped: true},
	}
	f.Fuzz(func(t *testing.T, comment string) {
		text, ok := kubebuilderMarker(comment)
		unknown := unknownMarker(comment)
		if (unknown != "") != (ok && !defined(text)) {
			t.Fatalf("%q: unknownMarker %q, marker %v, defined %v", comment, unknown, ok, ok && defined(text))
		}
		if unknown != "" {
			if msg := unknownMarkerMessage(unknown); !strings.HasPrefix(msg, markerName(unknown)+": ") {
				t.Fatalf("%q: message %q does not start with %q", comment, msg, markerName(unknown))
			}
		}
		if !ok {
			return
		}
		for _, at := range targets {
			msg := misplacedMarker(text, at)
			if msg == "" {
				continue
			}
			if unknown != "" {
				t.Fatalf("%q at %+v: unknown and misplaced: %s", comment, at, msg)
			}
			if !strings.Contains(msg, " is a marker of ") {
				t.Fatalf("%q at %+v: %s", comment, at, msg)
			}
		}
	})
}

// FuzzCommentAt: on any Go file that parses, every comment group is
// attached somewhere, named, and to a field only inside a struct type.
func FuzzCommentAt(f *testing.F) {
	f.Add("package v1\n// +a\ntype T struct {\n\t// +b\n\tF int // +c\n\t// +d\n}\n")
	f.Add("// +a\npackage v1\n\n// +b\n\n// T.\ntype (\n\t// +c\n\tA struct{}\n\tB string\n)\nfunc f() {\n\t// +d\n}\n")
	f.Add("package v1\ntype T struct{ *x.Y; Z }\n// +e\n")
	f.Fuzz(func(t *testing.T, src string) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "f.go", src, parser.ParseComments)
		if err != nil {
			return
		}
		for k := range file.Comments {
			at := commentAt(fset, file, k, "v1")
			if at.goPath == "" {
				t.Fatalf("comment %d: no name: %+v", k, at)
			}
			if at.target == ctmarkers.DescribesField && !strings.Contains(at.goPath, ".") {
				t.Fatalf("comment %d: a field without its type: %+v", k, at)
			}
			if at.dropped && (at.target != ctmarkers.DescribesType || at.godoc) {
				t.Fatalf("comment %d: dropped, but %+v", k, at)
			}
		}
	})
}
