package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseClusterFlags: scale-cluster needs KUBEBUILDER_ASSETS with
// kube-apiserver and etcd in it, and says so; -n comes out ascending and
// distinct, since the cluster only grows.
func TestParseClusterFlags(t *testing.T) {
	assets := t.TempDir()
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if err := os.WriteFile(filepath.Join(assets, b), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := func(dir string) func(string) string {
		return func(k string) string {
			if k == "KUBEBUILDER_ASSETS" {
				return dir
			}
			return ""
		}
	}
	cfg, err := parseClusterFlags([]string{"-n", "40000, 20000,40000", "-rounds", "2"}, env(assets), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.sizes, []int{20000, 40000}) || cfg.rounds != 2 || cfg.assets != assets || cfg.workers != 4 {
		t.Errorf("sizes %v, rounds %d, assets %q, workers %d; want [20000 40000], 2, %q, 4", cfg.sizes, cfg.rounds, cfg.assets, cfg.workers, assets)
	}

	for _, tc := range []struct {
		args   []string
		assets string
		want   string
	}{
		{nil, "", "KUBEBUILDER_ASSETS is not set"},
		{nil, t.TempDir(), "has no kube-apiserver"},
		{[]string{"-n", "20000,x"}, assets, `-n: "x" is not a positive number`},
		{[]string{"-n", "0"}, assets, `-n: "0" is not a positive number`},
		{[]string{"-rounds", "0"}, assets, "-rounds must be at least 1"},
		{[]string{"-workers", "0"}, assets, "-workers must be at least 1"},
		{[]string{"dump.yaml"}, assets, `unexpected argument "dump.yaml"`},
		{[]string{"-nosuch"}, assets, "flag provided but not defined: -nosuch"},
	} {
		_, err := parseClusterFlags(tc.args, env(tc.assets), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseClusterFlags(%q) with KUBEBUILDER_ASSETS=%q: %v; want an error containing %q", tc.args, tc.assets, err, tc.want)
		}
	}
}

// TestDumpNamespaces: the namespaces that items from..to-1 of the dump
// use, each once, none for cluster-scoped objects.
func TestDumpNamespaces(t *testing.T) {
	base := []baseObject{
		{obj: map[string]any{"metadata": map[string]any{"name": "a", "namespace": "infra"}}, namespaced: true},
		{obj: map[string]any{"metadata": map[string]any{"name": "b"}}, namespaced: true},
		{obj: map[string]any{"metadata": map[string]any{"name": "gc"}}},
	}
	if got, want := dumpNamespaces(base, 0, 6), []string{"infra-0", "default-0", "infra-1", "default-1"}; !slices.Equal(got, want) {
		t.Errorf("items 0-5: %v, want %v", got, want)
	}
	if got, want := dumpNamespaces(base, 5, 7), []string{"infra-2"}; !slices.Equal(got, want) {
		t.Errorf("items 5-6: %v, want %v", got, want)
	}
}

func TestParseStat(t *testing.T) {
	comm, ppid, ticks, ok := parseStat("4242 (kube-apiserver) S 17 4242 17 0 -1 4194560 1 0 0 0 250 30 0 0 20 0 12 0 1 1 1\n")
	if !ok || comm != "kube-apiserver" || ppid != 17 || ticks != 280 {
		t.Errorf("parseStat: %q %d %d %v; want kube-apiserver 17 280 true", comm, ppid, ticks, ok)
	}
	comm, ppid, ticks, ok = parseStat("7 (a) b (c) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 1 1 1")
	if !ok || comm != "a) b (c" || ppid != 1 || ticks != 11 {
		t.Errorf("parseStat, parentheses in comm: %q %d %d %v", comm, ppid, ticks, ok)
	}
	if _, _, _, ok := parseStat("7 (short) R 1"); ok {
		t.Error("parseStat of a short line: ok")
	}
}

// TestCompareRecords: the records of both runs are matched by object; an
// object read at another version may differ, any other difference, or an
// object with a record in one run only, is an error; findings about CRDs
// are not records.
func TestCompareRecords(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const (
		gw        = `{"source":"%s","apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","namespace":"n-0","name":"gw","categories":["unchanged"],"readVersion":"v1"}`
		tlsV1     = `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"TLSRoute","namespace":"n-0","name":"r","categories":["invalid-under-old","held-by-ratcheting"],"readVersion":"v1"}`
		tlsAlpha  = `{"apiVersion":"gateway.networking.k8s.io/v1alpha2","kind":"TLSRoute","namespace":"n-0","name":"r","categories":["unchanged"],"readVersion":"v1alpha2"}`
		tlsV1Same = `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"TLSRoute","namespace":"n-0","name":"r","categories":["unchanged"],"readVersion":"v1"}`
		finding   = `{"crd":"things.example.com","finding":"objects-unreadable","message":"forbidden"}`
	)
	cluster := write("cluster", strings.Replace(gw, "%s", "kube://gateways/n-0/gw", 1), tlsV1, finding)
	diffs, err := compareRecords(cluster, write("file", tlsAlpha, strings.Replace(gw, "%s", "dump.yaml:1:1", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || diffs[0].key.String() != "TLSRoute n-0/r" || diffs[0].cluster.readVersion != "v1" || diffs[0].file.categories != "unchanged" {
		t.Errorf("diffs %+v; want TLSRoute n-0/r, v1 against v1alpha2", diffs)
	}
	for _, tc := range []struct {
		file []string
		want string
	}{
		{[]string{tlsV1Same, gw}, "TLSRoute n-0/r, both read at v1: categories [invalid-under-old held-by-ratcheting] reading the cluster, [unchanged] on the dump"},
		{[]string{tlsAlpha}, "Gateway n-0/gw: a record reading the cluster, none on the dump"},
		{[]string{tlsAlpha, gw, strings.Replace(gw, `"gw"`, `"other"`, 1)}, "Gateway n-0/other: a record on the dump, none reading the cluster"},
		{[]string{tlsAlpha, gw, gw}, "a second record of Gateway n-0/gw"},
		{[]string{tlsAlpha, "{"}, "line 2:"},
	} {
		_, err := compareRecords(cluster, write("file", tc.file...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("file %q: %v; want an error containing %q", tc.file, err, tc.want)
		}
	}

	n, cats, err := impactRecords(cluster)
	if err != nil || n != 2 || cats["finding objects-unreadable"] != 1 || cats["unchanged"] != 1 {
		t.Errorf("impactRecords: %d, %v, %v; want 2 records and the finding counted apart", n, cats, err)
	}
}
