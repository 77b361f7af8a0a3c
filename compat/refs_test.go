package compat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
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
// added, each directly under a property named in refs, and lists them.
func onlyRefDefaults(a, b []byte, refs map[string]bool) ([]string, bool) {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var added []string
	var kept []string
	for i, line := range lb {
		m := addedDefault.FindStringSubmatch(line)
		if m == nil || i == 0 {
			kept = append(kept, line)
			continue
		}
		// the property this default belongs to is the nearest line above
		// with less indentation
		prop := ""
		for j := i - 1; j >= 0; j-- {
			if ind := len(lb[j]) - len(strings.TrimLeft(lb[j], " ")); ind < len(m[1]) {
				prop = strings.TrimSuffix(strings.TrimSpace(lb[j]), ":")
				break
			}
		}
		if !refs[prop] {
			kept = append(kept, line)
			continue
		}
		added = append(added, prop+": "+strings.TrimSpace(line))
	}
	return added, len(added) > 0 && reflect.DeepEqual(kept, la)
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
	changed := []byte("azureDisk:\n  properties:\n    cachingMode:\n      default: ReadWrite\n      type: integer\n    kind:\n      type: string\n")
	if _, ok := onlyRefDefaults(a, changed, refs); ok {
		t.Error("a changed line was accepted")
	}
}
