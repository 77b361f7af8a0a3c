// Package equivtest is test support (the "test" suffix, as net/http/httptest):
// it checks KEP-1929's rule of thumb on the testdata API: an
// object that a Go client sends is defaulted alike by the generated Go
// defaulting functions and by the apiserver with the generated CRD,
// compared as JSON as stored, not as Go values after a round trip (where
// {} and absent look the same):
//
//	(a) Go:  the Go object, SetObjectDefaults (scheme.Default), marshalled;
//	(b) CRD: the same Go object marshalled, as a Go client sends it, through
//	         the apiserver's decode (prune, nulls, metadata, defaults).
//
// The offline harness (defaultgen tests) runs (b) with package normalize;
// the e2e suite runs a sample of (b) through a live apiserver.
package equivtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
	conventionsv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/conventions/v1"
	featuresv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/features/v1"
	listsv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/lists/v1"
	listsnodefaultv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/listsnodefault/v1"
	nonpointerstructsv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/nonpointerstructs/v1"
	optoutv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/optout/v1"
	scalarsv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/scalars/v1"
	stringmapsv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/stringmaps/v1"
	stringmapsnodefaultv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/stringmapsnodefault/v1"
	structpointersv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/structpointers/v1"
	workloadv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/workload/v1"
)

// Kind is one testdata kind with its golden CRD.
type Kind struct {
	Golden string // file under testdata/golden
	New    func() runtime.Object
}

// Kinds are every kind of testdata/api: the KEP examples, the tour, and a
// workload that embeds corev1.PodTemplateSpec.
var Kinds = []Kind{
	{"nonpointerstructs.kep.example.com_nonpointerstructs.yaml", func() runtime.Object { return &nonpointerstructsv1.NonPointerStruct{} }},
	{"structpointers.kep.example.com_structpointers.yaml", func() runtime.Object { return &structpointersv1.StructPointer{} }},
	{"scalars.kep.example.com_scalars.yaml", func() runtime.Object { return &scalarsv1.Scalar{} }},
	{"lists.kep.example.com_listexamples.yaml", func() runtime.Object { return &listsv1.ListExample{} }},
	{"listsnodefault.kep.example.com_listnodefaults.yaml", func() runtime.Object { return &listsnodefaultv1.ListNoDefault{} }},
	{"stringmaps.kep.example.com_stringmaps.yaml", func() runtime.Object { return &stringmapsv1.StringMap{} }},
	{"stringmapsnodefault.kep.example.com_stringmapnodefaults.yaml", func() runtime.Object { return &stringmapsnodefaultv1.StringMapNoDefault{} }},
	{"features.example.com_tours.yaml", func() runtime.Object { return &featuresv1.Tour{} }},
	{"features.example.com_gadgets.yaml", func() runtime.Object { return &featuresv1.Gadget{} }},
	{"optout.example.com_optouts.yaml", func() runtime.Object { return &optoutv1.OptOut{} }},
	{"workload.example.com_workloads.yaml", func() runtime.Object { return &workloadv1.Workload{} }},
	{"conventions.example.com_frigates.yaml", func() runtime.Object { return &conventionsv1.Frigate{} }},
}

// Scheme has the generated defaulting functions of every testdata package,
// registered with their generated RegisterDefaults.
func Scheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, register := range []func(*runtime.Scheme) error{
		nonpointerstructsv1.RegisterDefaults, structpointersv1.RegisterDefaults, scalarsv1.RegisterDefaults,
		listsv1.RegisterDefaults, listsnodefaultv1.RegisterDefaults, stringmapsv1.RegisterDefaults,
		stringmapsnodefaultv1.RegisterDefaults, featuresv1.RegisterDefaults, optoutv1.RegisterDefaults,
		workloadv1.RegisterDefaults, conventionsv1.RegisterDefaults,
	} {
		if err := register(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Filler fills Go objects randomly, with values encoding/json round-trips
// (times in seconds, quantities and metadata in their canonical forms).
func Filler(seed uint64) *Source {
	return &Source{Filler: filler(seed), r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Source fills random objects, then sets some of their fields back to
// zero: randfill alone seldom leaves a struct or a string at its zero
// value, and zero values are where Go clients and the apiserver part ways
// (omitempty, omitzero).
type Source struct {
	*randfill.Filler
	r *rand.Rand
}

// Fill fills obj, then zeroes each struct field with probability 1/4.
func (s *Source) Fill(obj any) {
	s.Filler.Fill(obj)
	s.zeroSome(reflect.ValueOf(obj).Elem())
}

func (s *Source) zeroSome(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			s.zeroSome(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if !f.CanSet() || v.Type().Field(i).Anonymous {
				continue
			}
			if s.r.IntN(4) == 0 {
				f.SetZero()
				continue
			}
			s.zeroSome(f)
		}
	case reflect.Slice:
		for i := range v.Len() {
			s.zeroSome(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			s.zeroSome(e)
			v.SetMapIndex(k, e)
		}
	}
}

func filler(seed uint64) *randfill.Filler {
	return randfill.NewWithSeed(int64(seed)).NilChance(0.3).NumElements(0, 2).MaxDepth(8).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			*q = *resource.NewQuantity(int64(c.Intn(2000)), resource.DecimalSI)
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(3) > 0 {
				*t = metav1.NewTime(time.Unix(int64(c.Intn(1<<30)), 0).UTC())
			}
		},
		func(d *metav1.Duration, c randfill.Continue) {
			d.Duration = time.Duration(c.Intn(3600)) * time.Second
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Intn(2) == 0 {
				*v = intstr.FromInt32(int32(c.Intn(100)))
			} else {
				*v = intstr.FromString(fmt.Sprintf("%d%%", c.Intn(100)))
			}
		},
		// Metadata stays empty: with default crd options controller-gen
		// gives an embedded ObjectMeta (a PodTemplateSpec's) the schema
		// {type: object}, so the apiserver prunes every field of it. That
		// is controller-gen's known behaviour (crd:generateEmbeddedObjectMeta=true
		// keeps them), not defaulting.
		func(m *metav1.ObjectMeta, c randfill.Continue) {},
		func(r *runtime.RawExtension, c randfill.Continue) {},
		// JSON holds JSON, not random bytes: left empty (null) or a small object
		func(j *apiextensionsv1.JSON, c randfill.Continue) {
			if c.Intn(2) == 0 {
				j.Raw = fmt.Appendf(nil, `{"n":%d}`, c.Intn(100))
			}
		},
	)
}

// Instance is the JSON encoding of a random object of k, with its
// apiVersion and kind set: what a Go client sends.
func Instance(f *Source, k Kind) ([]byte, error) {
	obj := k.New()
	f.Fill(obj)
	obj.GetObjectKind().SetGroupVersionKind(GVK(k))
	return json.Marshal(obj)
}

// GVK is the group, version and kind of k's CRD.
func GVK(k Kind) schema.GroupVersionKind {
	return schema.GroupVersionKind{
		Group:   k.Golden[:strings.IndexByte(k.Golden, '_')],
		Version: "v1",
		Kind:    reflect.TypeOf(k.New()).Elem().Name(),
	}
}

// GoDefaults is path (a): the Go object that in encodes, defaulted with
// scheme.Default, marshalled, as Stored.
func GoDefaults(s *runtime.Scheme, k Kind, in []byte) ([]byte, error) {
	obj := k.New()
	if err := json.Unmarshal(in, obj); err != nil {
		return nil, err
	}
	s.Default(obj)
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return StoredJSON(b)
}

// Stored is the JSON of an object as stored, for comparison: metadata left
// out (the harness leaves it empty; the apiserver fills it) and null
// values dropped. A Go client writes null for a nil pointer, slice or map
// without omitempty; the apiserver prunes such nulls from a non-nullable
// field without a default (defaulting.PruneNonNullableNullsWithoutDefaults)
// and defaults the others, so a null left in (a) is the same absence.
func Stored(obj map[string]any) ([]byte, error) {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "metadata" {
			c[k] = v
		}
	}
	return json.Marshal(model.DropNulls(c))
}

// StoredJSON is Stored for an object given as JSON; numbers keep their
// digits.
func StoredJSON(b []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var obj map[string]any
	if err := d.Decode(&obj); err != nil {
		return nil, err
	}
	return Stored(obj)
}

// Sent is what a Go client sends for the object that in encodes: in read
// into k's Go type and marshalled again.
func Sent(k Kind, in []byte) ([]byte, error) {
	obj := k.New()
	if err := json.Unmarshal(in, obj); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// Shrink removes fields of in, one at a time, while differ still reports a
// difference, and returns the smallest object found (bounded by attempts).
func Shrink(in []byte, differ func([]byte) bool, attempts int) []byte {
	var obj map[string]any
	if json.Unmarshal(in, &obj) != nil {
		return in
	}
	for changed := true; changed && attempts > 0; {
		changed = false
		for _, p := range paths(obj, nil) {
			attempts--
			trial := cloneWithout(obj, p)
			b, _ := json.Marshal(trial)
			if differ(b) {
				obj, changed = trial, true
				break
			}
			if attempts <= 0 {
				break
			}
		}
	}
	b, _ := json.Marshal(obj)
	return b
}

// paths lists the object keys below m, deepest first, except the ones that
// identify the object.
func paths(m map[string]any, prefix []string) [][]string {
	var out [][]string
	for k, v := range m {
		if len(prefix) == 0 && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		p := append(append([]string{}, prefix...), k)
		if sub, ok := v.(map[string]any); ok {
			out = append(out, paths(sub, p)...)
		}
		out = append(out, p)
	}
	return out
}

func cloneWithout(m map[string]any, p []string) map[string]any {
	b, _ := json.Marshal(m)
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	cur := c
	for i, k := range p {
		if i == len(p)-1 {
			delete(cur, k)
			break
		}
		next, ok := cur[k].(map[string]any)
		if !ok {
			break
		}
		cur = next
	}
	return c
}

// Seed returns a random seed, for runs that print it; EQUIV_SEED
// in the environment replays a printed one.
func Seed() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("EQUIV_SEED"), 10, 64); err == nil {
		return s
	}
	return rand.Uint64()
}
