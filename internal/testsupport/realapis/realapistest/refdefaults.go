package realapistest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// The one difference controller-gen-default makes on purpose with
// crd:implicitDefaults=false: it evaluates `+default=ref(Constant)` markers,
// which controller-gen v0.23.0 drops (k8s.io/api uses two, on
// AzureDiskVolumeSource). RefDefaults finds the fields that carry such a
// marker in every package the generators load, by reading their source, so
// that a byte comparison can accept exactly those added defaults
// (OnlyRefDefaults) and nothing else. The acceptance test uses both.

var (
	refMarker = regexp.MustCompile(`^\s*//\s*\+default=ref\(`)
	jsonName  = regexp.MustCompile("json:\"([^\",]+)")
)

// RefDefaults returns the JSON names of fields with a +default=ref(...)
// marker in the packages that patterns load in ws, with their dependencies.
func RefDefaults(ctx context.Context, ws *realapis.Workspace, patterns []string) (map[string]bool, error) {
	args := append([]string{"list", "-deps", "-json=Dir,GoFiles"}, patterns...)
	cmd := ws.Command(ctx, "go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w\n%s", err, stderr.String())
	}
	names := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			Dir     string
			GoFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		for _, f := range p.GoFiles {
			b, err := os.ReadFile(p.Dir + "/" + f)
			if err != nil || !bytes.Contains(b, []byte("+default=ref(")) {
				continue
			}
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(make([]byte, 1<<20), 1<<20)
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
	return names, nil
}

var addedDefault = regexp.MustCompile(`^(\s*)default: .+$`)

// OnlyRefDefaults reports whether b is a with nothing but `default:` lines
// added, each directly under a property named in refs, and lists them. The
// lines of a must all be in b, in order: a default that both files have
// (a `kind` property with a +kubebuilder:default, as kubeflow trainer's
// runtimeRef.kind, next to k8s.io/api's AzureDiskVolumeSource.kind) is
// matched, not taken for an added one.
func OnlyRefDefaults(a, b []byte, refs map[string]bool) ([]string, bool) {
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
