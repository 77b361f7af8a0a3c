package main

// The generator of `go run ./test/bench scale-gen` and of `go run ./test/bench scale`:
// a cluster dump, shaped as `kubectl get -A -o yaml` prints one, of N
// gateway-api objects taken from gateway-api's own manifests.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// Gateway-api's modules and releases. The objects are those of objVersion;
// oldVersion and newVersion are the releases whose experimental CRDs
// (config/crd/experimental) the objects are stored under and upgraded to.
const (
	gatewayModule     = "sigs.k8s.io/gateway-api"
	conformanceModule = "sigs.k8s.io/gateway-api/conformance"
	scaleOldVersion   = "v1.5.1"
	scaleNewVersion   = "v1.6.1"
	crdSubdir         = "config/crd/experimental"
)

// gatewayGroups are the API groups whose objects the dump holds.
var gatewayGroups = []string{"gateway.networking.k8s.io", "gateway.networking.x-k8s.io"}

// manifestSources are the directories of gateway-api's modules whose YAML
// files hold the objects: the examples of the API module and the
// conformance module's base, mesh and tests manifests (not its reports),
// as internal/impact/realupgrade reads them.
var manifestSources = []struct {
	module string
	dirs   []string
}{
	{gatewayModule, []string{"examples"}},
	{conformanceModule, []string{"base", "mesh", "tests"}},
}

// baseObject is one object of gateway-api's manifests.
type baseObject struct {
	source     string         // module-relative FILE:DOC
	obj        map[string]any // numbers as json.Number
	namespaced bool
	// dup numbers the objects of the base set that have the same group,
	// kind, namespace and name as an earlier one (0 for the first), so
	// that every copy gets a name of its own.
	dup int
}

func (b baseObject) kind() string { s, _ := b.obj["kind"].(string); return s }

func (b baseObject) name() string {
	md, _ := b.obj["metadata"].(map[string]any)
	s, _ := md["name"].(string)
	return s
}

// crdScope says, for each apiVersion and kind a CRD serves, whether its
// objects are namespaced.
type crdScope map[string]bool // "group/version Kind" → namespaced

// loadScopes reads the CRDs of the YAML files in dir (other documents, such
// as a kustomization or a ValidatingAdmissionPolicy, are skipped).
func loadScopes(dir string) (crdScope, error) {
	files, err := yamlFiles(dir)
	if err != nil {
		return nil, err
	}
	scopes := crdScope{}
	for _, f := range files {
		err := eachDocument(f, func(_ int, obj map[string]any) error {
			if obj["kind"] != "CustomResourceDefinition" {
				return nil
			}
			group, kind := str(obj, "spec", "group"), str(obj, "spec", "names", "kind")
			namespaced := str(obj, "spec", "scope") != "Cluster"
			versions, _ := dig(obj, "spec", "versions").([]any)
			for _, v := range versions {
				vm, _ := v.(map[string]any)
				if served, _ := vm["served"].(bool); !served {
					continue
				}
				name, _ := vm["name"].(string)
				scopes[group+"/"+name+" "+kind] = namespaced
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(scopes) == 0 {
		return nil, fmt.Errorf("%s: no CustomResourceDefinition", dir)
	}
	return scopes, nil
}

// loadBase reads the objects of the gateway API groups from the YAML files
// under roots (each root a module directory and its subdirectories), in
// lexical order of files and then of documents, and keeps those whose
// apiVersion and kind every one of scopes serves. skipped counts the
// others of those groups; files that do not parse (templates) are listed.
func loadBase(roots map[string][]string, order []string, scopes ...crdScope) (base []baseObject, skipped int, unparsable []string, err error) {
	seen := map[string]int{}
	for _, root := range order {
		for _, d := range roots[root] {
			files, err := yamlFiles(filepath.Join(root, d))
			if err != nil {
				return nil, 0, nil, err
			}
			for _, f := range files {
				rel, _ := filepath.Rel(filepath.Dir(root), f)
				err := eachDocument(f, func(doc int, obj map[string]any) error {
					apiVersion, _ := obj["apiVersion"].(string)
					kind, _ := obj["kind"].(string)
					group, _, _ := strings.Cut(apiVersion, "/")
					if !strings.Contains(apiVersion, "/") || !slices.Contains(gatewayGroups, group) {
						return nil
					}
					namespaced, served := true, true
					for _, s := range scopes {
						ns, ok := s[apiVersion+" "+kind]
						served = served && ok
						namespaced = ns
					}
					if !served {
						skipped++
						return nil
					}
					b := baseObject{source: fmt.Sprintf("%s:%d", rel, doc), obj: obj, namespaced: namespaced}
					key := group + " " + kind + " " + b.namespace("") + "/" + b.name()
					b.dup = seen[key]
					seen[key]++
					base = append(base, b)
					return nil
				})
				var perr parseError
				if errors.As(err, &perr) {
					unparsable = append(unparsable, rel)
					continue
				}
				if err != nil {
					return nil, 0, nil, err
				}
			}
		}
	}
	return base, skipped, unparsable, nil
}

type parseError struct{ error }

// eachDocument calls fn with each object of the multi-document YAML (or
// JSON) file f, numbered from 1 among the documents; empty and null
// documents are skipped, a List stands for its items.
func eachDocument(f string, fn func(doc int, obj map[string]any) error) error {
	file, err := os.Open(f)
	if err != nil {
		return err
	}
	defer func() { _ = file.Close() }() // read only: Close loses nothing
	r := utilyaml.NewYAMLReader(bufio.NewReader(file))
	for doc := 1; ; doc++ {
		b, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return parseError{fmt.Errorf("%s: %w", f, err)}
		}
		j, err := yaml.YAMLToJSON(b)
		if err != nil {
			return parseError{fmt.Errorf("%s:%d: %w", f, doc, err)}
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return parseError{fmt.Errorf("%s:%d: %w", f, doc, err)}
		}
		obj, ok := v.(map[string]any)
		if !ok {
			continue // empty, null or not an object
		}
		if items, ok := obj["items"].([]any); ok {
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					if err := fn(doc, m); err != nil {
						return err
					}
				}
			}
			continue
		}
		if err := fn(doc, obj); err != nil {
			return err
		}
	}
}

// yamlFiles lists the .yaml and .yml files under dir, in lexical order.
func yamlFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return err
	})
	return files, err
}

func dig(obj map[string]any, path ...string) any {
	var v any = obj
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func str(obj map[string]any, path ...string) string {
	s, _ := dig(obj, path...).(string)
	return s
}

// namespace is the object's namespace in the dump's copy suffix, or (suffix
// "") as in its manifest: a namespaced object without one is in default,
// as kubectl creates it. A cluster-scoped object has none.
func (b baseObject) namespace(suffix string) string {
	if !b.namespaced {
		return ""
	}
	ns := str(b.obj, "metadata", "namespace")
	if ns == "" {
		ns = "default"
	}
	if suffix == "" {
		return ns
	}
	// A namespace is a DNS label: at most 63 characters.
	return truncate(ns, 63-len(suffix)-1) + "-" + suffix
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimRight(s[:n], "-.")
}

// names are the name and namespace of copy number c of b: namespaced
// objects are moved to namespace <namespace>-<c>, cluster-scoped ones
// renamed <name>-<c>, and an object that repeats an earlier one of the
// base set (dup > 0) is renamed <name>-d<dup> as well.
func (b baseObject) names(c int) (name, namespace string) {
	suffix := fmt.Sprint(c)
	name = b.name()
	if b.dup > 0 {
		name += fmt.Sprintf("-d%d", b.dup)
	}
	if !b.namespaced {
		return truncate(name, 253-len(suffix)-1) + "-" + suffix, ""
	}
	return name, b.namespace(suffix)
}

// instance is copy number c of b, named as names says. Only
// metadata.name and metadata.namespace change; references between objects
// (parentRefs, backendRefs) are left as written, so references within a
// namespace still resolve within the copy.
func (b baseObject) instance(c int) map[string]any {
	name, namespace := b.names(c)
	return b.named(name, namespace)
}

func (b baseObject) named(name, namespace string) map[string]any {
	obj := make(map[string]any, len(b.obj))
	for k, v := range b.obj {
		obj[k] = v
	}
	md := map[string]any{}
	if m, ok := b.obj["metadata"].(map[string]any); ok {
		for k, v := range m {
			md[k] = v
		}
	}
	if b.namespaced {
		md["namespace"] = namespace
	} else {
		delete(md, "namespace")
	}
	md["name"] = name
	obj["metadata"] = md
	return obj
}

// Placeholders for the name and namespace in an item's template: plain
// YAML scalars, as every generated name and namespace is.
const (
	nameToken      = "benchscalenameplaceholder"
	namespaceToken = "benchscalenamespaceplaceholder"
)

// itemTemplate is an object's YAML as an item of the List, cut where its
// name and namespace go: yaml.Marshal once per base object, not per item.
type itemTemplate struct {
	parts [][]byte // parts[0] slot[0] parts[1] slot[1] parts[2] …
	slots []bool   // true: the name, false: the namespace
}

func newTemplate(b baseObject) (*itemTemplate, error) {
	y, err := yaml.Marshal([]any{b.named(nameToken, namespaceToken)})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.source, err)
	}
	t := &itemTemplate{}
	for {
		i, j := bytes.Index(y, []byte(nameToken)), bytes.Index(y, []byte(namespaceToken))
		if i < 0 && j < 0 {
			break
		}
		isName := j < 0 || (i >= 0 && i < j)
		at, token := j, namespaceToken
		if isName {
			at, token = i, nameToken
		}
		t.parts = append(t.parts, y[:at])
		t.slots = append(t.slots, isName)
		y = y[at+len(token):]
	}
	t.parts = append(t.parts, y)
	want := 1
	if b.namespaced {
		want = 2
	}
	if len(t.slots) != want {
		return nil, nil // the placeholder occurs elsewhere too: marshal each copy
	}
	return t, nil
}

func (t *itemTemplate) write(w *bufio.Writer, name, namespace string) {
	for i, p := range t.parts {
		w.Write(p)
		if i < len(t.slots) {
			if t.slots[i] {
				w.WriteString(name)
			} else {
				w.WriteString(namespace)
			}
		}
	}
}

// writeList writes n objects, the base objects round-robin (item i is copy
// i/len(base) of base[i%len(base)]), as one List in the shape of `kubectl
// get -A -o yaml` (sigs.k8s.io/yaml, as kubectl's printer): keys sorted,
// the items' dashes at column 0, and an empty metadata.resourceVersion.
// Each base object is marshalled once, as a sequence of one item (so its
// long strings fold at the columns of the whole List's), and each item is
// written from it, so memory does not grow with n; the result is byte for
// byte yaml.Marshal of the whole List.
func writeList(w io.Writer, base []baseObject, n int) error {
	if len(base) == 0 {
		return errors.New("no objects to copy")
	}
	if n < 1 {
		return errors.New("n must be at least 1")
	}
	templates := make([]*itemTemplate, len(base))
	for i, b := range base {
		t, err := newTemplate(b)
		if err != nil {
			return err
		}
		templates[i] = t
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("apiVersion: v1\nitems:\n")
	for i := range n {
		b := base[i%len(base)]
		name, namespace := b.names(i / len(base))
		if t := templates[i%len(base)]; t != nil {
			t.write(bw, name, namespace)
			continue
		}
		y, err := yaml.Marshal([]any{b.named(name, namespace)})
		if err != nil {
			return fmt.Errorf("%s: %w", b.source, err)
		}
		bw.Write(y)
	}
	bw.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return bw.Flush()
}

// copyCRDs copies the files of src that hold a CustomResourceDefinition
// into a new directory dst, for tools that refuse other documents.
func copyCRDs(src, dst string) (int, error) {
	files, err := yamlFiles(src)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		isCRD := false
		if err := eachDocument(f, func(_ int, obj map[string]any) error {
			isCRD = isCRD || obj["kind"] == "CustomResourceDefinition"
			return nil
		}); err != nil {
			return 0, err
		}
		if !isCRD {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), b, 0o644); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// gatewaySources are the module directories of the manifests and of the
// OLD and NEW CRDs.
type gatewaySources struct {
	roots          map[string][]string // module dir → subdirectories with manifests
	order          []string
	oldCRD, newCRD string
}

func fetchGateway(ctx context.Context, objVersion, oldVersion, newVersion string) (gatewaySources, error) {
	s := gatewaySources{roots: map[string][]string{}}
	for _, src := range manifestSources {
		dir, err := realapis.ModuleDir(ctx, src.module, objVersion)
		if err != nil {
			return s, err
		}
		s.roots[dir] = src.dirs
		s.order = append(s.order, dir)
	}
	for _, v := range []struct {
		version string
		dst     *string
	}{{oldVersion, &s.oldCRD}, {newVersion, &s.newCRD}} {
		dir, err := realapis.ModuleDir(ctx, gatewayModule, v.version)
		if err != nil {
			return s, err
		}
		*v.dst = filepath.Join(dir, crdSubdir)
	}
	return s, nil
}

// scaleGenMain is `go run ./test/bench scale-gen`.
func scaleGenMain(args []string) {
	flags := flag.NewFlagSet("scale-gen", flag.ExitOnError)
	n := flags.Int("n", 20000, "number of objects")
	out := flags.String("o", "-", "output file (- for stdout)")
	objVersion := flags.String("objects", scaleOldVersion, "gateway-api release whose manifests are copied")
	oldVersion := flags.String("old", scaleOldVersion, "gateway-api release of the OLD CRDs: objects of kinds it does not serve are left out")
	newVersion := flags.String("new", scaleNewVersion, "gateway-api release of the NEW CRDs: objects of kinds it does not serve are left out")
	normalizeBin := flags.String("normalize", "", "controller-gen-default-normalize: when set, objects it refuses under NEW's CRDs are left out")
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "usage: go run ./test/bench scale-gen [-n N] [-o FILE] [-objects V] [-old V] [-new V] [-normalize BIN]\n\n"+
			"Writes a List in the shape of `kubectl get -A -o yaml` of N objects of gateway-api's own manifests\n"+
			"(%s examples, %s base, mesh and tests), copied round-robin under unique names.\n\n", gatewayModule, conformanceModule)
		flags.PrintDefaults()
	}
	_ = flags.Parse(args) // flag.ExitOnError: Parse exits on a bad flag
	ctx := context.Background()
	src, err := fetchGateway(ctx, *objVersion, *oldVersion, *newVersion)
	if err != nil {
		fatalf("%v", err)
	}
	base, err := prepareBase(ctx, src, *normalizeBin, os.TempDir())
	if err != nil {
		fatalf("%v", err)
	}
	w := io.Writer(os.Stdout)
	var f *os.File
	if *out != "-" {
		if f, err = os.Create(*out); err != nil {
			fatalf("%v", err)
		}
		w = f
	}
	if err := writeList(w, base, *n); err != nil {
		fatalf("%v", err)
	}
	if f != nil {
		if err := f.Close(); err != nil {
			fatalf("%v", err)
		}
	}
}

// prepareBase loads the base objects that both OLD and NEW serve and, with
// normalizeBin, leaves out those that it refuses under NEW (their sources
// are reported on stderr).
func prepareBase(ctx context.Context, src gatewaySources, normalizeBin, work string) ([]baseObject, error) {
	oldScopes, err := loadScopes(src.oldCRD)
	if err != nil {
		return nil, err
	}
	newScopes, err := loadScopes(src.newCRD)
	if err != nil {
		return nil, err
	}
	base, skipped, unparsable, err := loadBase(src.roots, src.order, oldScopes, newScopes)
	if err != nil {
		return nil, err
	}
	if len(unparsable) == 0 {
		unparsable = []string{"none"}
	}
	progress("manifests: %d objects of %s; %d more left out (a kind or version that OLD or NEW does not serve); files that do not parse (templates): %s",
		len(base), strings.Join(gatewayGroups, ", "), skipped, strings.Join(unparsable, ", "))
	if normalizeBin == "" {
		return base, nil
	}
	refused, err := refusedUnder(ctx, normalizeBin, src.newCRD, base, work)
	if err != nil {
		return nil, err
	}
	var kept []baseObject
	for i, b := range base {
		if msg, ok := refused[i]; ok {
			progress("left out, refused under NEW: %s %s %s: %s", b.source, b.kind(), b.name(), msg)
			continue
		}
		kept = append(kept, b)
	}
	progress("kept %d objects of %d: %d refused under NEW", len(kept), len(base), len(refused))
	return kept, nil
}

// refusedUnder runs `normalize --crd crdDir` once on the List of the base
// objects (copy 0) and returns, by index, the first message for each item
// it refuses (FILE:DOC:ITEM: message on stderr, ITEM counted from 1).
func refusedUnder(ctx context.Context, bin, crdDir string, base []baseObject, work string) (map[int]string, error) {
	f, err := os.CreateTemp(work, "base-*.yaml")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if err := writeList(f, base, len(base)); err != nil {
		_ = f.Close() // writeList's error is the one to report
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "--crd", crdDir, "-o", "json", f.Name())
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	err = cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code != 1 {
		return nil, fmt.Errorf("%s --crd %s on the base objects: exit %d: %w\n%s", bin, crdDir, code, err, stderr.String())
	}
	refused := map[int]string{}
	prefix := f.Name() + ":1:"
	for _, line := range strings.Split(stderr.String(), "\n") {
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			continue
		}
		item, msg, _ := strings.Cut(rest, ": ")
		var i int
		if _, err := fmt.Sscanf(item, "%d", &i); err != nil || i < 1 || i > len(base) {
			continue
		}
		if strings.HasPrefix(msg, "warning:") {
			continue
		}
		if _, ok := refused[i-1]; !ok {
			refused[i-1] = msg
		}
	}
	if code == 1 && len(refused) == 0 {
		return nil, fmt.Errorf("%s exited 1 on the base objects, but no item was named on stderr:\n%s", bin, stderr.String())
	}
	return refused, nil
}
