package compat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/realapis"
)

// The one difference controller-gen-default makes on purpose with
// implicitDefaults=false: it evaluates `+default=ref(Constant)` markers,
// which controller-gen v0.23.0 drops (k8s.io/api uses two, on
// AzureDiskVolumeSource). refDefaults finds the fields that carry such a
// marker in every package the generators load, by reading their source, so
// that the comparison can accept exactly those added defaults and nothing
// else.

var (
	refMarker = regexp.MustCompile(`^\s*//\s*\+default=ref\(`)
	jsonName  = regexp.MustCompile("json:\"([^\",]+)")
)

// refDefaults returns the JSON names of fields with a +default=ref(...)
// marker in the packages that patterns load, with their dependencies.
func refDefaults(t *testing.T, ws *realapis.Workspace, patterns []string) map[string]bool {
	t.Helper()
	args := append([]string{"list", "-deps", "-json=Dir,GoFiles"}, patterns...)
	cmd := ws.Command(context.Background(), "go", args...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	names := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			Dir     string
			GoFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		for _, f := range p.GoFiles {
			b, err := os.ReadFile(p.Dir + "/" + f)
			if err != nil || !bytes.Contains(b, []byte("+default=ref(")) {
				continue
			}
			sc := bufio.NewScanner(bytes.NewReader(b))
			pending := false
			for sc.Scan() {
				line := sc.Text()
				switch {
				case refMarker.MatchString(line):
					pending = true
				case pending && !strings.HasPrefix(strings.TrimSpace(line), "//"):
					if m := jsonName.FindStringSubmatch(line); m != nil {
						names[m[1]] = true
					}
					pending = false
				}
			}
		}
	}
	return names
}

var addedDefault = regexp.MustCompile(`^(\s*)default: .+$`)

// onlyRefDefaults reports whether b is a with nothing but `default:` lines
// added, each directly under a property named in refs, and lists them. The
// lines of a must all be in b, in order: a default that both files have
// (a `kind` property with a +kubebuilder:default, as kubeflow trainer's
// runtimeRef.kind, next to k8s.io/api's AzureDiskVolumeSource.kind) is
// matched, not taken for an added one.
func onlyRefDefaults(a, b []byte, refs map[string]bool) ([]string, bool) {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var added []string
	j := 0
	for i, line := range lb {
		if j < len(la) && la[j] == line {
			j++
			continue
		}
		m := addedDefault.FindStringSubmatch(line)
		if m == nil || i == 0 {
			return added, false
		}
		// the property this default belongs to is the nearest line above
		// with less indentation
		prop := ""
		for k := i - 1; k >= 0; k-- {
			if ind := len(lb[k]) - len(strings.TrimLeft(lb[k], " ")); ind < len(m[1]) {
				prop = strings.TrimSuffix(strings.TrimSpace(lb[k]), ":")
				break
			}
		}
		if !refs[prop] {
			return added, false
		}
		added = append(added, prop+": "+strings.TrimSpace(line))
	}
	return added, len(added) > 0 && j == len(la)
}

func TestOnlyRefDefaults(t *testing.T) {
	a := []byte("azureDisk:\n  properties:\n    cachingMode:\n      type: string\n    kind:\n      type: string\n")
	refs := map[string]bool{"cachingMode": true}
	b := []byte("azureDisk:\n  properties:\n    cachingMode:\n      default: ReadWrite\n      type: string\n    kind:\n      type: string\n")
	if added, ok := onlyRefDefaults(a, b, refs); !ok || len(added) != 1 || added[0] != "cachingMode: default: ReadWrite" {
		t.Errorf("a ref() default: %v %v", added, ok)
	}
	other := []byte("azureDisk:\n  properties:\n    cachingMode:\n      type: string\n    kind:\n      default: Shared\n      type: string\n")
	if _, ok := onlyRefDefaults(a, other, refs); ok {
		t.Error("a default on a field without a ref() marker was accepted")
	}
	// a default both files have under a property of a ref() name is not
	// an added one
	kept := []byte("runtimeRef:\n  properties:\n    kind:\n      default: ClusterTrainingRuntime\n      type: string\n")
	refs["kind"] = true
	if added, ok := onlyRefDefaults(kept, kept, refs); ok || len(added) != 0 {
		t.Errorf("identical files: %v %v", added, ok)
	}
	keptB := []byte("runtimeRef:\n  properties:\n    kind:\n      default: ClusterTrainingRuntime\n      type: string\n    cachingMode:\n      default: ReadWrite\n      type: string\n")
	keptA := []byte("runtimeRef:\n  properties:\n    kind:\n      default: ClusterTrainingRuntime\n      type: string\n    cachingMode:\n      type: string\n")
	if added, ok := onlyRefDefaults(keptA, keptB, refs); !ok || len(added) != 1 || added[0] != "cachingMode: default: ReadWrite" {
		t.Errorf("a ref() default next to a default both have: %v %v", added, ok)
	}
	dropped := []byte("runtimeRef:\n  properties:\n    kind:\n      type: string\n    cachingMode:\n      default: ReadWrite\n      type: string\n")
	if _, ok := onlyRefDefaults(keptA, dropped, refs); ok {
		t.Error("a default dropped from a property of a ref() name was accepted")
	}
	changed := []byte("azureDisk:\n  properties:\n    cachingMode:\n      default: ReadWrite\n      type: integer\n    kind:\n      type: string\n")
	if _, ok := onlyRefDefaults(a, changed, refs); ok {
		t.Error("a changed line was accepted")
	}
}
