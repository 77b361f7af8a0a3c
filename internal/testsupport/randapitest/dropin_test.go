package randapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// dropInRuns are controller-gen v0.23.0's `object crd` and ours with
// crd:implicitDefaults=false on the same module and options, each in a copy
// of it (the object generator writes into the packages).
type dropInRuns struct {
	// refErr is controller-gen's failure: the random API is input it
	// refuses, which randapi must not write; oursErr is ours failing where
	// controller-gen exits 0, a break of the drop-in invariant.
	refErr, oursErr error
	// err is the first of them
	err error
	// refFiles and oursFiles are what each wrote: the CRDs (crds/NAME)
	// and the deepcopy files (api/.../zz_generated.deepcopy.go)
	refFiles, oursFiles map[string][]byte
	// refCRDs and oursCRDs are controller-gen's CRDs and ours with
	// crd:implicitDefaults=false, by CRDKey
	refCRDs, oursCRDs map[string]*apiextensionsv1.CustomResourceDefinition
	took              time.Duration
	dir               string
}

// CRDKey is a CRD's group/Kind, as Kind.CRD names it.
func CRDKey(c *apiextensionsv1.CustomResourceDefinition) string {
	return c.Spec.Group + "/" + c.Spec.Names.Kind
}

// crdArg is the crd generator's argument with opts, and more.
func crdArg(opts []string, more ...string) string {
	all := append(slices.Clone(opts), more...)
	if len(all) == 0 {
		return "crd"
	}
	return "crd:" + strings.Join(all, ",")
}

// dropIn writes the API's module into dir/controller-gen and
// dir/noimplicit and runs controller-gen ref and ours there, side by side.
func (w *workspace) dropIn(ctx context.Context, dir string, api *API, ref string) *dropInRuns {
	start := time.Now()
	d := &dropInRuns{dir: dir}
	refDir, oursDir := filepath.Join(dir, "controller-gen"), filepath.Join(dir, "noimplicit")
	for _, m := range []string{refDir, oursDir} {
		if err := os.RemoveAll(m); err != nil {
			d.err = err
			return d
		}
		if err := w.writeModule(m, api.Packages); err != nil {
			d.err = err
			return d
		}
	}
	run := func(m, bin string, args ...string) (map[string][]byte, error) {
		args = append(args, "paths=./api/...", "output:crd:dir=crds")
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir, cmd.Env = m, w.env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil || bytes.Contains(out.Bytes(), []byte("panic")) {
			return nil, fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, errorLines(out.String()))
		}
		return generatedFiles(m)
	}
	var wg sync.WaitGroup
	wg.Go(func() { d.refFiles, d.refErr = run(refDir, ref, "object", crdArg(api.Options)) })
	wg.Go(func() {
		d.oursFiles, d.oursErr = run(oursDir, w.bin, "object", crdArg(api.Options, "implicitDefaults=false"))
	})
	wg.Wait()
	d.took = time.Since(start)
	switch {
	case d.refErr != nil:
		d.err = fmt.Errorf("controller-gen %s refuses the random API, which randapi must not write (a shape it does not accept): %w",
			realapis.ReferenceVersion, d.refErr)
		return d
	case d.oursErr != nil:
		d.err = fmt.Errorf("drop-in: controller-gen %s exits 0 on the random API, and controller-gen-default with the same options fails: %w",
			realapis.ReferenceVersion, d.oursErr)
		return d
	}
	for _, m := range []struct {
		dir string
		to  *map[string]*apiextensionsv1.CustomResourceDefinition
	}{{refDir, &d.refCRDs}, {oursDir, &d.oursCRDs}} {
		crds, err := crdcheck.LoadCRDs(filepath.Join(m.dir, "crds"))
		if err != nil {
			d.err = err
			return d
		}
		*m.to = map[string]*apiextensionsv1.CustomResourceDefinition{}
		for _, c := range crds {
			(*m.to)[CRDKey(c)] = c
		}
	}
	return d
}

// writeModule writes pkgs into dir as a fresh module.
func (w *workspace) writeModule(dir string, pkgs []*Package) error {
	files := map[string][]byte{"go.mod": w.gomod, "go.sum": w.gosum}
	for _, p := range pkgs {
		src, err := p.Files()
		if err != nil {
			return err
		}
		for name, b := range src {
			files[filepath.Join(p.Dir, name)] = b
		}
	}
	return writeFiles(dir, files)
}

// generatedFiles reads what `object crd` wrote into module m: crds/* and
// api/**/zz_generated.deepcopy.go, by path.
func generatedFiles(m string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, sub := range []string{"crds", "api"} {
		err := filepath.WalkDir(filepath.Join(m, sub), func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || sub == "api" && e.Name() != "zz_generated.deepcopy.go" {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(m, path)
			out[filepath.ToSlash(rel)] = b
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// check is the drop-in invariant on what the runs wrote and on gen, ours
// with the defaults: the same files byte for byte with
// crd:implicitDefaults=false (and the same deepcopy files with the
// defaults), versions that controller-gen writes alike written alike, and
// controller-gen's defaults written as it writes them. Without gen (ours
// with the defaults failed), the files only.
func (d *dropInRuns) check(t *testing.T, seed uint64, replay string, gen *generated, kinds []*Kind) {
	t.Helper()
	start := time.Now()
	typeDefaultsAdded := 0
	// byte identity
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range []map[string][]byte{d.refFiles, d.oursFiles} {
			for n := range m {
				if !seen[n] {
					seen[n] = true
					if !yield(n) {
						return
					}
				}
			}
		}
	}) {
		r, inRef := d.refFiles[name]
		o, inOurs := d.oursFiles[name]
		switch {
		case !inOurs:
			t.Errorf("seed %d: drop-in: controller-gen writes %s, controller-gen-default crd:implicitDefaults=false does not (replay: %s)", seed, name, replay)
		case !inRef:
			t.Errorf("seed %d: drop-in: controller-gen-default crd:implicitDefaults=false writes %s, controller-gen does not (replay: %s)", seed, name, replay)
		case !bytes.Equal(r, o):
			n, rs, ro, ok := onlyTypeDefaults(r, o, kinds)
			if ok {
				typeDefaultsAdded += n
				continue
			}
			if n > 0 {
				// the difference that remains without those
				r, o = rs, ro
				name += fmt.Sprintf(" (without the %d defaults of +default on types, and re-encoded)", n)
			}
			t.Errorf("seed %d: drop-in: %s differs with crd:implicitDefaults=false (replay: %s):\n%s", seed, name, replay, firstDiff(r, o))
		}
		if strings.HasPrefix(name, "api/") && inRef && gen != nil {
			mine, err := os.ReadFile(filepath.Join(d.dir, filepath.FromSlash(name)))
			if err != nil || !bytes.Equal(r, mine) {
				t.Errorf("seed %d: drop-in: %s differs from controller-gen's with `object crd defaults` (%v):\n%s", seed, name, err, firstDiff(r, mine))
			}
		}
	}
	if gen == nil {
		t.Logf("drop-in: controller-gen %s and crd:implicitDefaults=false: %d files compared (%d defaults of +default on types aside)",
			realapis.ReferenceVersion, len(d.refFiles), typeDefaultsAdded)
		return
	}
	// versions controller-gen writes alike, written alike; the author's
	// literals unchanged
	same, literals := 0, 0
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range d.refCRDs {
			if !yield(k) {
				return
			}
		}
	}) {
		rc, oc := d.refCRDs[key], gen.crds[key]
		if oc == nil {
			t.Errorf("seed %d: drop-in: controller-gen writes the CRD of %s, controller-gen-default does not", seed, key)
			continue
		}
		for i, rv := range rc.Spec.Versions {
			ov := version(oc, rv.Name)
			if ov == nil {
				t.Errorf("seed %d: drop-in: CRD %s: controller-gen writes version %s, controller-gen-default does not", seed, rc.Name, rv.Name)
				continue
			}
			for _, rw := range rc.Spec.Versions[i+1:] {
				ow := version(oc, rw.Name)
				if ow == nil || !reflect.DeepEqual(rv.Schema, rw.Schema) {
					continue
				}
				same++
				if diffs := schemaDiff(ov.Schema, ow.Schema); len(diffs) > 0 {
					t.Errorf("seed %d: drop-in: CRD %s: controller-gen writes versions %s and %s with the same schema, controller-gen-default with two (replay: %s):\n  %s",
						seed, rc.Name, rv.Name, rw.Name, replay, strings.Join(diffs[:min(len(diffs), 8)], "\n  "))
				}
			}
			if rv.Schema == nil || ov.Schema == nil {
				continue
			}
			realapistest.WalkDefaults("", rv.Schema.OpenAPIV3Schema, ov.Schema.OpenAPIV3Schema, func(p string, r, o *apiextensionsv1.JSON) {
				literals++
				switch {
				case o == nil:
					t.Errorf("seed %d: drop-in: CRD %s %s %s: controller-gen's default %s, controller-gen-default's none (replay: %s)", seed, rc.Name, rv.Name, p, r.Raw, replay)
				case !bytes.Equal(r.Raw, o.Raw):
					t.Errorf("seed %d: drop-in: CRD %s %s %s: controller-gen's default %s, controller-gen-default's %s (replay: %s)", seed, rc.Name, rv.Name, p, r.Raw, o.Raw, replay)
				}
			})
		}
	}
	t.Logf("drop-in: controller-gen %s and crd:implicitDefaults=false in %s (beside ours): %d files the same (byte for byte, but %d defaults of +default on types, which controller-gen drops); "+
		"%d pairs of versions with one schema; %d defaults of controller-gen's, checked in %s",
		realapis.ReferenceVersion, d.took.Round(time.Millisecond), len(d.refFiles), typeDefaultsAdded, same, literals, time.Since(start).Round(time.Millisecond))
}

// onlyTypeDefaults reports whether the CRD files ref (controller-gen's) and
// ours differ only by defaults ours adds from +default on types, which
// controller-gen drops (the one difference crd:implicitDefaults=false
// makes on purpose in randapi's APIs; docs/crd.md, "Options"), and how
// many: the properties whose Go type (through pointers) has a +default and
// whose field has none, of the kinds' types.
func onlyTypeDefaults(ref, ours []byte, kinds []*Kind) (n int, refOut, oursOut []byte, ok bool) {
	var rc, oc apiextensionsv1.CustomResourceDefinition
	if yaml.Unmarshal(ref, &rc) != nil || yaml.Unmarshal(ours, &oc) != nil {
		return 0, nil, nil, false
	}
	for i := range oc.Spec.Versions {
		ov := &oc.Spec.Versions[i]
		rv := version(&rc, ov.Name)
		var root *Named
		for _, k := range kinds {
			if k.CRD() == CRDKey(&oc) && k.Pkg.Version == ov.Name {
				root = k.Type
			}
		}
		if rv == nil || root == nil || rv.Schema == nil || ov.Schema == nil {
			return 0, nil, nil, false
		}
		allowed := typeDefaultPaths(root)
		var strip func(p string, r, o *apiextensionsv1.JSONSchemaProps)
		strip = func(p string, r, o *apiextensionsv1.JSONSchemaProps) {
			if r == nil || o == nil {
				return
			}
			if o.Default != nil && r.Default == nil && allowed[p] {
				o.Default = nil
				n++
			}
			for k, op := range o.Properties {
				if rp, ok := r.Properties[k]; ok {
					strip(strings.TrimPrefix(p+"."+k, "."), &rp, &op)
					o.Properties[k] = op
				}
			}
			if r.Items != nil && o.Items != nil {
				strip(p+"[*]", r.Items.Schema, o.Items.Schema)
			}
			if r.AdditionalProperties != nil && o.AdditionalProperties != nil {
				strip(p+"[*key*]", r.AdditionalProperties.Schema, o.AdditionalProperties.Schema)
			}
		}
		strip("", rv.Schema.OpenAPIV3Schema, ov.Schema.OpenAPIV3Schema)
	}
	rb, err1 := yaml.Marshal(&rc)
	ob, err2 := yaml.Marshal(&oc)
	return n, rb, ob, err1 == nil && err2 == nil && n > 0 && bytes.Equal(rb, ob)
}

// typeDefaultPaths are the schema paths (as realapistest.WalkDefaults writes them) of
// root's properties whose Go type has a +default of its own, and whose field
// has none.
func typeDefaultPaths(root *Named) map[string]bool {
	out := map[string]bool{}
	var walk func(p string, n *Named, depth int)
	var visit func(p string, t *Type, own bool, depth int)
	visit = func(p string, t *Type, own bool, depth int) {
		switch t.Kind {
		case PointerType:
			visit(p, t.Elem, own, depth)
		case SliceType:
			visit(p+"[*]", t.Elem, false, depth)
		case MapType:
			visit(p+"[*key*]", t.Elem, false, depth)
		case NamedType:
			if t.Named.Default != nil && !own {
				out[p] = true
			}
			if s := t.structType(); s != nil && depth < 16 {
				walk(p, s, depth+1)
			}
		}
	}
	walk = func(p string, n *Named, depth int) {
		for _, f := range n.Fields {
			if f.Embedded {
				walk(p, f.Type.Elem.Named, depth)
				continue
			}
			visit(strings.TrimPrefix(p+"."+f.JSON, "."), f.Type, f.Default != nil, depth)
		}
	}
	walk("", root, 0)
	return out
}

// version is the version of crd named name, or nil.
func version(crd *apiextensionsv1.CustomResourceDefinition, name string) *apiextensionsv1.CustomResourceDefinitionVersion {
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == name {
			return &crd.Spec.Versions[i]
		}
	}
	return nil
}

// schemaDiff lists where two versions' schemas differ, one line per path.
func schemaDiff(a, b *apiextensionsv1.CustomResourceValidation) []string {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	av, _ := decodeJSON(ab)
	bv, _ := decodeJSON(bb)
	var out []string
	diff("", av, bv, &out)
	return out
}

// firstDiff shows the first line where a and b differ, with two lines of
// context.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	show := func(l []string) string {
		var s []string
		for j := max(0, i-2); j < min(len(l), i+3); j++ {
			s = append(s, fmt.Sprintf("%5d %s", j+1, l[j]))
		}
		return strings.Join(s, "\n")
	}
	return fmt.Sprintf("controller-gen:\n%s\ncontroller-gen-default:\n%s", show(la), show(lb))
}
