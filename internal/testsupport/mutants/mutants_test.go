package mutants

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestMutants(t *testing.T) {
	s, o := QuotaSchemas()
	obj := map[string]any{
		"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "a"},
		"spec": map[string]any{
			"quotas": []any{map[string]any{"name": "cpu", "nominalQuota": int64(1)}},
			"labels": map[string]any{"Team": "x"},
		},
	}
	ps := Props(obj, s, o)
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%s %v %v", p, p.Required, p.NewDefault))
	}
	want := []string{"spec false false", "spec.labels false false", "spec.labels.Team false false", "spec.quotas false false",
		"spec.quotas[0].name true false", "spec.quotas[0].nominalQuota true true"}
	if !slices.Equal(got, want) {
		t.Errorf("props = %q, want %q", got, want)
	}

	r := rand.New(rand.NewPCG(1, 2))
	sawRequired := false
	for range 50 {
		m, deleted := Delete(r, obj, ps)
		if len(deleted) == 0 || len(deleted) > 3 {
			t.Fatalf("deleted %q", deleted)
		}
		for _, d := range deleted {
			sawRequired = sawRequired || strings.HasPrefix(d, "spec.quotas[0].")
		}
		if _, ok := m["metadata"]; !ok {
			t.Fatal("metadata deleted")
		}
	}
	if !sawRequired {
		t.Error("no mutant deleted a required property")
	}
	if _, ok := obj["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)["nominalQuota"]; !ok {
		t.Error("deleteMutant changed its input")
	}

	if got := ps[5].Site; got != "spec.quotas[*].nominalQuota" {
		t.Errorf("site = %q", got)
	}
	if got := ps[2].Site; got != "spec.labels.*" {
		t.Errorf("site = %q", got)
	}
	if m, ok := Without(obj, ps[5]); !ok || len(m["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)) != 1 {
		t.Errorf("without nominalQuota: %v %v", m, ok)
	}
	if m, to, ok := Misspelt(obj, ps[5]); !ok || to != "nominalquota" || m["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)["nominalquota"] != int64(1) {
		t.Errorf("nominalQuota misspelt: %v %q %v", m, to, ok)
	}
	if _, _, ok := Misspelt(obj, ps[4]); ok {
		t.Error("name misspelt")
	}

	seen := map[string]bool{}
	for range 50 {
		m, from, to, ok := Misspell(r, obj, ps)
		if !ok {
			t.Fatal("no misspelt mutant")
		}
		seen[from+" "+to] = true
		if from == "spec.quotas[0].nominalQuota" {
			q := m["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)
			if _, ok := q["nominalquota"]; !ok || q["nominalQuota"] != nil {
				t.Errorf("misspelt: %v", q)
			}
		}
	}
	if !seen["spec.quotas[0].nominalQuota nominalquota"] || !seen["spec.labels.Team team"] || len(seen) != 2 {
		t.Errorf("misspelt %v", seen)
	}
}

func TestCompare(t *testing.T) {
	accepted := Answer{Accepted: true}
	required := Answer{Fields: []string{RootField, "spec.a"}, Errs: []string{"spec.a: Required value"}, Required: []string{"spec.a"}}
	other := Answer{Fields: []string{"spec.b"}, Errs: []string{"spec.b: Invalid value"}}
	if _, ok := Compare(accepted, accepted); !ok {
		t.Error("accepted twice differ")
	}
	if _, ok := Compare(required, required); !ok {
		t.Error("the same refusal differs")
	}
	d, ok := Compare(required, accepted)
	if ok || d.How != RefRefusesOursAccepts || !slices.Equal(d.Fields, []string{RootField, "spec.a"}) || d.SilencedRequired != 1 || d.OursOnly != 0 || d.Site() != "spec.a" {
		t.Errorf("required, accepted: %+v %v", d, ok)
	}
	d, ok = Compare(accepted, other)
	if ok || d.How != RefAcceptsOursRefuses || d.OursOnly != 1 || d.Site() != "spec.b" {
		t.Errorf("accepted, other: %+v %v", d, ok)
	}
	d, ok = Compare(required, other)
	if ok || d.How != OtherFields || !slices.Equal(d.Fields, []string{RootField, "spec.a", "spec.b"}) || d.SilencedRequired != 1 || d.OursOnly != 1 {
		t.Errorf("required, other: %+v %v", d, ok)
	}
	if got := (Diff{Fields: []string{RootField}}).Site(); got != RootField {
		t.Errorf("Site = %q", got)
	}
}

func TestRecased(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "v1", "kind": "K",
		"spec": map[string]any{"replicas": int64(1), "nodeName": "a", "Taken": true, "taken": false, "ü": int64(1), "9lives": int64(2)},
	}
	ps := Props(obj, nil, nil)
	to := map[string]string{}
	for _, p := range ps {
		if _, k, ok := Recased(obj, p); ok {
			to[p.String()] = k
		}
	}
	want := map[string]string{"spec": "Spec", "spec.replicas": "Replicas", "spec.nodeName": "nodename", "spec.ü": "Ü"}
	if !reflect.DeepEqual(to, want) {
		t.Errorf("Recased: %v, want %v", to, want)
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 100 {
		m, from, k, ok := MisspellAny(r, obj, ps)
		if !ok {
			t.Fatal("no mutant")
		}
		seen[from] = true
		if from == "spec.replicas" {
			spec := m["spec"].(map[string]any)
			if _, ok := spec["replicas"]; ok || spec["Replicas"] != int64(1) || k != "Replicas" {
				t.Errorf("replicas misspelt: %v", spec)
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("MisspellAny misspelt %v", seen)
	}
	if _, ok := obj["spec"].(map[string]any)["replicas"]; !ok {
		t.Error("MisspellAny changed its input")
	}
}
