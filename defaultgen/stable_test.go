package defaultgen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"golang.org/x/tools/go/packages"
)

// fleetTypes is an API package with lists, maps and a list of lists whose
// items have defaults, and a place for one more field (%s) in the middle
// of its spec; Rigging is used by that field only.
const fleetTypes = `// +groupName=stable.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Fleet struct {
	metav1.TypeMeta   ` + "`" + `json:",inline"` + "`" + `
	metav1.ObjectMeta ` + "`" + `json:"metadata,omitempty"` + "`" + `
	// +optional
	Spec FleetSpec ` + "`" + `json:"spec,omitzero"` + "`" + `
}

type FleetSpec struct {
	// +optional
	Ships []Ship ` + "`" + `json:"ships,omitempty"` + "`" + `
	// +optional
	Ports map[string]Port ` + "`" + `json:"ports,omitempty"` + "`" + `
%s
	// +optional
	Crews [][]Ship ` + "`" + `json:"crews,omitempty"` + "`" + `
	// +optional
	Docks []Port ` + "`" + `json:"docks,omitempty"` + "`" + `
	// +optional
	Harbours map[string][]Port ` + "`" + `json:"harbours,omitempty"` + "`" + `
}

type Ship struct {
	// +optional
	// +default="sloop"
	Class string ` + "`" + `json:"class,omitempty"` + "`" + `
}

type Port struct {
	// +optional
	// +default=3
	Berths *int32 ` + "`" + `json:"berths,omitempty"` + "`" + `
	// +optional
	// +default="harbour"
	Name *string ` + "`" + `json:"name,omitempty"` + "`" + `
}

type Rigging struct {
	// +optional
	// +default="bowline"
	Knot string ` + "`" + `json:"knot,omitempty"` + "`" + `
}
`

// addedField is the list field the test adds, whose items have a default.
const addedField = "\t// +optional\n\tRiggings []Rigging `json:\"riggings,omitempty\"`"

// TestAddedListFieldChangesOnlyItsLines: regenerating after one list field
// (whose items have a default) is added in the middle of a spec inserts
// the lines of that field (its loop, and the helper of its item type) and
// changes no other line: loop variables are named by their depth, not by a
// counter shared by the file, which renumbered every later loop.
func TestAddedListFieldChangesOnlyItsLines(t *testing.T) {
	dir, err := os.MkdirTemp("testdata", "tmp-stable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.MkdirAll(filepath.Join(dir, "v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	generate := func(field string) []string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "v1", "types.go"), fmt.Appendf(nil, fleetTypes, field), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, failed := runDefaults(t, &packages.Config{}, "./"+dir+"/...")
		if failed || len(out) != 1 {
			t.Fatalf("generation failed (%d files):\n%s", len(out), errs)
		}
		for _, b := range out {
			return strings.Split(b.String(), "\n")
		}
		return nil
	}
	before, after := generate(""), generate(addedField)
	deleted, hunks := lineDiff(before, after)
	if len(deleted) > 0 || len(hunks) == 0 {
		t.Errorf("lines deleted or changed: %q; inserted: %q\nbefore:\n%s\nafter:\n%s",
			deleted, hunks, strings.Join(before, "\n"), strings.Join(after, "\n"))
	}
	for _, h := range hunks {
		if !strings.Contains(h, "Riggings") && !strings.Contains(h, "Rigging(") {
			t.Errorf("inserted lines that are not the new field's:\n%s", h)
		}
	}
}

// lineDiff compares two texts line by line (difflib, as Python's, without
// its heuristic that skips frequent lines): the lines of a that b does not
// keep, and the runs of lines b inserts.
func lineDiff(a, b []string) (deleted, inserted []string) {
	for _, op := range difflib.NewMatcherWithJunk(a, b, false, nil).GetOpCodes() {
		if op.Tag == 'r' || op.Tag == 'd' {
			deleted = append(deleted, a[op.I1:op.I2]...)
		}
		if op.Tag == 'r' || op.Tag == 'i' {
			inserted = append(inserted, strings.Join(b[op.J1:op.J2], "\n"))
		}
	}
	return deleted, inserted
}
