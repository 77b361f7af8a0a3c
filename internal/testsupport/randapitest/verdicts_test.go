package randapitest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/mutants"
)

// Check 4's objects: of each kind, the first verdictObjects of the
// harness's random objects, each with deleteMutants mutants without one to
// three random properties (a required one first, half of the time) and
// misspellMutants with a random key misspelt by its case (lowercased, or
// capitalized: randapi's keys are mostly one lower-case word); and, for each required
// property those objects have (at most maxRequiredSites per kind, picked
// at random), one object without it and one with its key misspelt.
var (
	verdictObjects  = flag.Int("randapi.verdictobjects", 8, "random objects per kind whose verdicts check 4 compares, with their mutants")
	deleteMutants   = flag.Int("randapi.deletemutants", 3, "mutants per object with properties deleted (check 4)")
	misspellMutants = flag.Int("randapi.misspellmutants", 2, "mutants per object with a key misspelt (check 4)")
	maxRequired     = flag.Int("randapi.requiredsites", 10, "required properties per kind deleted and misspelt alone (check 4)")
)

// generateNoImplicit runs `controller-gen-default crd:implicitDefaults=false`
// (with the crd options opts) on the module in dir (written by generate),
// into crds-noimplicit, and loads the CRDs by CRDKey.
func (w *workspace) generateNoImplicit(ctx context.Context, dir string, opts []string) (map[string]*apiextensionsv1.CustomResourceDefinition, error) {
	crdDir := filepath.Join(dir, "crds-noimplicit")
	arg := crdArg(opts, "implicitDefaults=false")
	cmd := exec.CommandContext(ctx, w.bin, arg, "paths=./api/...", "output:crd:dir="+crdDir)
	cmd.Dir, cmd.Env = dir, w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("controller-gen-default %s paths=./api/...: %w\n%s", arg, err, errorLines(string(out)))
	}
	crds, err := crdcheck.LoadCRDs(crdDir)
	if err != nil {
		return nil, err
	}
	out := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, c := range crds {
		out[CRDKey(c)] = c
	}
	return out, nil
}

// verdictCounts are the objects check 4 compared.
type verdictCounts struct {
	random, deleted, misspelt, requiredSites, accepted int
}

func (c *verdictCounts) add(o verdictCounts) {
	c.random += o.random
	c.deleted += o.deleted
	c.misspelt += o.misspelt
	c.requiredSites += o.requiredSites
	c.accepted += o.accepted
}

func (c verdictCounts) total() int { return c.random + c.deleted + c.misspelt }

// verdictDiff is an object that our CRD and the reference (controller-gen's
// CRD, or ours with crd:implicitDefaults=false) answer differently.
type verdictDiff struct {
	what string
	obj  map[string]any
	// ref names the reference
	ref string
	mutants.Diff
}

// how is the Diff's How, with the reference named as it is here.
func (d verdictDiff) how() string {
	return strings.ReplaceAll(d.How, "controller-gen", d.ref)
}

func (d verdictDiff) String() string {
	b, _ := json.Marshal(d.obj)
	obj := string(b)
	if len(obj) > 2000 {
		obj = obj[:2000] + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return fmt.Sprintf("%s: %s at %s\n  %s: %s\n  controller-gen-default: %s\n  object: %s",
		d.what, d.how(), strings.Join(d.Fields, ", "), d.ref, d.Ref, d.Ours, obj)
}

// verdictKind is one kind's part of check 4.
type verdictKind struct {
	kind, version string
	ref, ours     *apiextensionsv1.CustomResourceDefinition
	ins           [][]byte
}

// sameVerdicts is check 4 for the kinds: their random objects and mutants
// created under both CRDs (in parallel, a kind at a time each), the
// disagreements by kind.
func sameVerdicts(ctx context.Context, seed uint64, jobs []verdictKind) (map[string][]verdictDiff, verdictCounts, error) {
	diffs := make([][]verdictDiff, len(jobs))
	counts := make([]verdictCounts, len(jobs))
	errs := make([]error, len(jobs))
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range goruntime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(jobs) {
					return
				}
				diffs[i], counts[i], errs[i] = jobs[i].run(ctx, seed)
			}
		})
	}
	wg.Wait()
	out := map[string][]verdictDiff{}
	var total verdictCounts
	for i, j := range jobs {
		if errs[i] != nil {
			return nil, total, fmt.Errorf("kind %s: %w", j.kind, errs[i])
		}
		total.add(counts[i])
		if len(diffs[i]) > 0 {
			out[j.kind] = diffs[i]
		}
	}
	return out, total, nil
}

func (j verdictKind) run(ctx context.Context, seed uint64) ([]verdictDiff, verdictCounts, error) {
	var c verdictCounts
	pRef, err := objectpath.New(j.ref, j.version)
	if err != nil {
		return nil, c, fmt.Errorf("the crd:implicitDefaults=false CRD: %w", err)
	}
	pOurs, err := objectpath.New(j.ours, j.version)
	if err != nil {
		return nil, c, err
	}
	sRef, err := storageSchema(j.ref, j.version)
	if err != nil {
		return nil, c, fmt.Errorf("the crd:implicitDefaults=false CRD: %w", err)
	}
	sOurs, err := storageSchema(j.ours, j.version)
	if err != nil {
		return nil, c, err
	}
	h := fnv.New64a()
	h.Write([]byte(j.kind[strings.LastIndex(j.kind, "/")+1:])) // the Kind, as before keys named versions
	r := rand.New(rand.NewPCG(seed, h.Sum64()))

	type object struct {
		what string
		obj  map[string]any
		n    *int
	}
	var objs []object
	type at struct {
		base object
		p    mutants.Prop
	}
	required := map[string][]at{}
	for i, in := range j.ins[:min(*verdictObjects, len(j.ins))] {
		obj, err := jsonnum.DecodeObject(in)
		if err != nil {
			return nil, c, fmt.Errorf("random object %d: %w", i, err)
		}
		// the harness leaves metadata empty; whoever creates an object
		// names it
		meta, _ := obj["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			obj["metadata"] = meta
		}
		meta["name"] = fmt.Sprintf("random-%d", i)
		base := object{what: fmt.Sprintf("random object %d", i), obj: obj, n: &c.random}
		objs = append(objs, base)
		ps := mutants.Props(obj, sRef, sOurs)
		for _, p := range ps {
			if p.Required {
				required[p.Site] = append(required[p.Site], at{base, p})
			}
		}
		for range *deleteMutants {
			m, deleted := mutants.Delete(r, obj, ps)
			if len(deleted) == 0 {
				break
			}
			objs = append(objs, object{what: base.what + ", without " + strings.Join(deleted, ", "), obj: m, n: &c.deleted})
		}
		for range *misspellMutants {
			m, from, to, ok := mutants.MisspellAny(r, obj, ps)
			if !ok {
				break
			}
			objs = append(objs, object{what: fmt.Sprintf("%s, %s misspelt %s", base.what, from, to), obj: m, n: &c.misspelt})
		}
	}
	sites := slices.Sorted(func(yield func(string) bool) {
		for s := range required {
			if !yield(s) {
				return
			}
		}
	})
	if len(sites) > *maxRequired {
		r.Shuffle(len(sites), func(a, b int) { sites[a], sites[b] = sites[b], sites[a] })
		sites = sites[:*maxRequired]
		slices.Sort(sites)
	}
	c.requiredSites = len(sites)
	for _, site := range sites {
		a := required[site][r.IntN(len(required[site]))]
		if m, ok := mutants.Without(a.base.obj, a.p); ok {
			objs = append(objs, object{what: a.base.what + ", without the required " + a.p.String(), obj: m, n: &c.deleted})
		}
		if m, to, ok := mutants.Recased(a.base.obj, a.p); ok {
			objs = append(objs, object{what: fmt.Sprintf("%s, the required %s misspelt %s", a.base.what, a.p, to), obj: m, n: &c.misspelt})
		}
	}

	var diffs []verdictDiff
	for _, o := range objs {
		*o.n++
		ra := mutants.Create(ctx, pRef, o.obj, nil)
		oa := mutants.Create(ctx, pOurs, o.obj, nil)
		d, ok := mutants.Compare(ra, oa)
		switch {
		case !ok:
			diffs = append(diffs, verdictDiff{what: o.what, obj: o.obj, Diff: d})
		case ra.Accepted:
			c.accepted++
		}
	}
	return diffs, c, nil
}

// storageSchema is the structural schema of crd's version.
func storageSchema(crd *apiextensionsv1.CustomResourceDefinition, version string) (*structuralschema.Structural, error) {
	internal, err := crdcheck.ToInternal(crd)
	if err != nil {
		return nil, err
	}
	return objectpath.StorageSchema(internal, version)
}

// reportVerdicts fails the test for each kind whose CRDs answer an object
// differently: the first *reportKinds kinds with their first disagreement
// in full, the others in a line.
func reportVerdicts(t *testing.T, seed uint64, replay, ref string, kinds []*Kind, diffs map[string][]verdictDiff) {
	t.Helper()
	if len(diffs) == 0 {
		return
	}
	t.Errorf("seed %d: %d of %d kinds accept or refuse objects otherwise with implicit defaults than with %s (replay: %s)",
		seed, len(diffs), len(kinds), ref, replay)
	n := 0
	for _, k := range kinds {
		ds := diffs[k.Key()]
		if len(ds) == 0 {
			continue
		}
		for i := range ds {
			ds[i].ref = ref
		}
		if n >= *reportKinds {
			t.Errorf("seed %d, kind %s: %d objects answered otherwise, first: %s: %s at %s", seed, k.Key(), len(ds), ds[0].what, ds[0].how(), strings.Join(ds[0].Fields, ", "))
			continue
		}
		n++
		t.Errorf("seed %d, kind %s: %d objects answered otherwise; the first:\n%s", seed, k.Key(), len(ds), ds[0])
	}
}
