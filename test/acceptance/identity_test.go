package acceptance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// byteIdentity is check 4: controller-gen-default crd:implicitDefaults=false
// (in dirPlain) writes the files controller-gen writes (in dirRef), byte for
// byte, but for the defaults of +default=ref(...) markers that controller-gen
// drops (realapistest.OnlyRefDefaults, compat's tolerance). It returns
// controller-gen's number of files, those identical but for ref() defaults,
// and those that differ (or that one generator only writes).
func byteIdentity(t *testing.T, ws *realapis.Workspace, m realapis.Module, dirRef, dirPlain string) (files, refOnly, diffs int) {
	t.Helper()
	ref, plain := realapistest.ListFiles(t, dirRef), realapistest.ListFiles(t, dirPlain)
	files = len(ref)
	var only []string
	for _, f := range ref {
		if !slices.Contains(plain, f) {
			only = append(only, "controller-gen only: "+f)
		}
	}
	for _, f := range plain {
		if !slices.Contains(ref, f) {
			only = append(only, "controller-gen-default only: "+f)
		}
	}
	if len(only) > 0 {
		t.Errorf("%s: crd:implicitDefaults=false writes other files than controller-gen %s:\n\t%s", m.Name, realapis.ReferenceVersion, strings.Join(only, "\n\t"))
	}
	diffs = len(only)
	var refs map[string]bool
	for _, f := range ref {
		if !slices.Contains(plain, f) {
			continue
		}
		a, err := os.ReadFile(filepath.Join(dirRef, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dirPlain, f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(a, b) {
			continue
		}
		if refs == nil {
			if refs, err = realapistest.RefDefaults(t.Context(), ws, m.Patterns()); err != nil {
				t.Fatal(err)
			}
		}
		if added, ok := realapistest.OnlyRefDefaults(a, b, refs); ok {
			t.Logf("%s: %s differs only by %d defaults from +default=ref(...) markers, which controller-gen drops: %s",
				m.Name, f, len(added), strings.Join(added, "; "))
			refOnly++
			continue
		}
		diffs++
		t.Errorf("%s: %s: crd:implicitDefaults=false writes other bytes than controller-gen %s:\n%s", m.Name, f, realapis.ReferenceVersion, firstDiff(a, b, 3))
	}
	if diffs == 0 {
		t.Logf("%s: crd:implicitDefaults=false: controller-gen's %d files byte for byte (%d but for ref() defaults)", m.Name, files, refOnly)
	}
	return files, refOnly, diffs
}

// firstDiff shows the first line where a and b differ, with n lines of
// context: the lines of a marked -, those of b +.
func firstDiff(a, b []byte, n int) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\tat line %d:\n", i+1)
	for k := max(0, i-n); k < i; k++ {
		fmt.Fprintf(&sb, "\t  %s\n", la[k])
	}
	for k := i; k < min(len(la), i+n); k++ {
		fmt.Fprintf(&sb, "\t- %s\n", la[k])
	}
	for k := i; k < min(len(lb), i+n); k++ {
		fmt.Fprintf(&sb, "\t+ %s\n", lb[k])
	}
	return sb.String()
}

// sameVersions is check 5: the versions of controller-gen's CRD ref whose
// schemas (openAPIV3Schema) are equal must have equal schemas in ours too,
// whatever defaults it adds. It returns the number of such sets of two or
// more versions, the number of those whose schemas differ in ours, and a
// line for each version whose schema in ours differs from its set's first.
func sameVersions(ref, ours *apiextensionsv1.CustomResourceDefinition) (sets, broken int, diffs []string) {
	schemaJSON := func(v apiextensionsv1.CustomResourceDefinitionVersion) string {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return ""
		}
		b, _ := json.Marshal(v.Schema.OpenAPIV3Schema)
		return string(b)
	}
	bySchema := map[string][]string{}
	var order []string
	for _, v := range ref.Spec.Versions {
		k := schemaJSON(v)
		if k == "" {
			continue
		}
		if bySchema[k] == nil {
			order = append(order, k)
		}
		bySchema[k] = append(bySchema[k], v.Name)
	}
	oursByVersion := map[string]string{}
	for _, v := range ours.Spec.Versions {
		oursByVersion[v.Name] = schemaJSON(v)
	}
	for _, k := range order {
		names := bySchema[k]
		if len(names) < 2 {
			continue
		}
		sets++
		first := oursByVersion[names[0]]
		same := true
		for _, n := range names[1:] {
			if oursByVersion[n] == first {
				continue
			}
			same = false
			var a, b any
			_ = json.Unmarshal([]byte(first), &a)
			_ = json.Unmarshal([]byte(oursByVersion[n]), &b)
			diffs = append(diffs, fmt.Sprintf("%s: versions %s have the same schema in controller-gen's CRD; in controller-gen-default's, %s differs from %s at %s",
				ref.Name, strings.Join(names, ", "), n, names[0], jsonDiff("", a, b, names[0], n)))
		}
		if !same {
			broken++
		}
	}
	return sets, broken, diffs
}

// jsonDiff names the first path where the JSON values a and b differ, and
// what each holds there (as versions na and nb).
func jsonDiff(at string, a, b any, na, nb string) string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := slices.Sorted(maps.Keys(am))
		for k := range bm {
			if _, ok := am[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			if !reflect.DeepEqual(am[k], bm[k]) {
				return jsonDiff(at+"."+k, am[k], bm[k], na, nb)
			}
		}
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) == len(bs) {
		for i := range as {
			if !reflect.DeepEqual(as[i], bs[i]) {
				return jsonDiff(fmt.Sprintf("%s[%d]", at, i), as[i], bs[i], na, nb)
			}
		}
	}
	show := func(v any) string {
		if v == nil {
			return "none"
		}
		s, _ := json.Marshal(v)
		return cut(string(s), 300)
	}
	if at == "" {
		at = "(root)"
	}
	return fmt.Sprintf("%s: %s %s, %s %s", strings.TrimPrefix(at, "."), na, show(a), nb, show(b))
}

// errorLines are the lines of a generator's output that say error, and
// its last three lines (the generator's own summary).
func errorLines(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var keep []string
	for i, l := range lines {
		if strings.Contains(l, "error:") || strings.HasPrefix(l, "Error") || i >= len(lines)-3 {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
