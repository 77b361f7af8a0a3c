package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// convapi is the test API: conv.example.com Widget, hub v1, spoke v1beta1.
var convapi = func() string {
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata", "convapi"))
	if err != nil {
		panic(err)
	}
	return d
}()

// needGo skips the test when there is no go command.
func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command: convprog builds with it")
	}
}

// skipBuild skips a test that builds a conversion program under -short.
func skipBuild(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds the conversion program: run without -short (make test-integration)")
	}
}

// offline are go build errors of a module download that was refused.
var offline = []string{"dial tcp", "proxyconnect", "i/o timeout", "no such host", "GOPROXY=off", "module lookup disabled", "connection refused"}

// testBuild is Build, with the cost of go build in the test's output; it skips
// the test when a module download was refused.
func testBuild(t *testing.T, o Options) (*Program, error) {
	t.Helper()
	needGo(t)
	var log bytes.Buffer
	o.Log = &log
	start := time.Now()
	p, err := Build(context.Background(), o)
	var be *BuildError
	if errors.As(err, &be) {
		for _, s := range offline {
			if strings.Contains(be.Output, s) {
				t.Skipf("the go command could not download modules (%s): %v", s, err)
			}
		}
	}
	if log.Len() > 0 {
		t.Logf("%s", strings.TrimSpace(log.String()))
	}
	if err == nil {
		t.Cleanup(func() { p.Close() })
		how := "built (go build ran)"
		if p.Cached {
			how = "from the cache"
		}
		t.Logf("Build %s: %s in %s", strings.Join(o.Patterns, " "), how, time.Since(start).Round(time.Millisecond))
	}
	return p, err
}

// mustBuild is testBuild for a test that needs the program. Under -short
// it skips the test: each build runs go build on a module (seconds to tens
// of seconds on 2 cores), which the unit tier leaves out; TestCompileError,
// whose go build fails at once, and the Discover tests stay in it.
func mustBuild(t *testing.T, o Options) *Program {
	t.Helper()
	skipBuild(t)
	p, err := testBuild(t, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func start(t *testing.T, p *Program) *Process {
	t.Helper()
	proc, err := p.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := proc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return proc
}

// copyModule copies the test API's module (its go.mod, go.sum and api
// packages, and its README) into a temporary directory.
func copyModule(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(convapi, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(convapi, path)
		if d.IsDir() {
			if rel == "cmd" || rel == "config" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestKinds(t *testing.T) {
	p := mustBuild(t, Options{Dir: convapi, Patterns: []string{"./api/..."}, CacheDir: testCache(t)})
	wantPkgs := []string{"example.com/convapi/api/v1", "example.com/convapi/api/v1beta1"}
	if !reflect.DeepEqual(p.Packages, wantPkgs) {
		t.Errorf("Packages = %v, want %v", p.Packages, wantPkgs)
	}
	if p.Module != "example.com/convapi" || p.ModuleDir != convapi {
		t.Errorf("Module, ModuleDir = %s, %s", p.Module, p.ModuleDir)
	}
	proc := start(t, p)
	k, ok := proc.Kind(schema.GroupKind{Group: "conv.example.com", Kind: "Widget"})
	if !ok {
		t.Fatalf("Kinds() = %+v: no Widget", proc.Kinds())
	}
	want := Kind{Group: "conv.example.com", Kind: "Widget", Hub: "v1", Spokes: []string{"v1beta1"}, Versions: []string{"v1", "v1beta1"}, Convertible: true}
	if !reflect.DeepEqual(k, want) {
		t.Errorf("Kind = %+v, want %+v", k, want)
	}
	if len(proc.Kinds()) != 1 {
		t.Errorf("Kinds() = %+v: want Widget alone (no list, no metav1 kinds)", proc.Kinds())
	}
}

// TestOnlyGivenPackages: the program registers only the packages given.
func TestOnlyGivenPackages(t *testing.T) {
	p := mustBuild(t, Options{Dir: convapi, Patterns: []string{"./api/v1"}, CacheDir: testCache(t)})
	proc := start(t, p)
	want := []Kind{{Group: "conv.example.com", Kind: "Widget", Hub: "v1", Versions: []string{"v1"}, Convertible: false}}
	if !reflect.DeepEqual(proc.Kinds(), want) {
		t.Errorf("Kinds() = %+v, want %+v", proc.Kinds(), want)
	}
}

// direct is a program that calls the test API's ConvertTo and ConvertFrom
// itself, without controller-runtime's handler.
const direct = `package main

import (
	"encoding/json"
	"os"

	v1 "example.com/convapi/api/v1"
	"example.com/convapi/api/v1beta1"
)

func main() {
	var in []json.RawMessage
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	var out []any
	// in[0] is at v1beta1: ConvertTo v1
	var spoke v1beta1.Widget
	must(json.Unmarshal(in[0], &spoke))
	var hub v1.Widget
	must(spoke.ConvertTo(&hub))
	hub.APIVersion, hub.Kind = "conv.example.com/v1", "Widget"
	out = append(out, hub)
	// in[1] is at v1: ConvertFrom it to v1beta1
	var hub2 v1.Widget
	must(json.Unmarshal(in[1], &hub2))
	var spoke2 v1beta1.Widget
	must(spoke2.ConvertFrom(&hub2))
	spoke2.APIVersion, spoke2.Kind = "conv.example.com/v1beta1", "Widget"
	out = append(out, spoke2)
	must(json.NewEncoder(os.Stdout).Encode(out))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
`

// runDirect builds and runs direct against the test API (with its go.mod
// as the program's go.mod does) on objs.
func runDirect(t *testing.T, objs ...map[string]any) []map[string]any {
	t.Helper()
	m, err := findModule(context.Background(), convapi)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", []byte(direct))
	write("go.mod", goMod(m.mod, m.dir))
	sum, _ := os.ReadFile(filepath.Join(convapi, "go.sum"))
	write("go.sum", sum)
	in, _ := json.Marshal(objs)
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run of the direct conversion: %v\n%s", err, stderr.String())
	}
	var res []map[string]any
	if err := utiljson.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func widget(apiVersion string, spec map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": apiVersion, "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "default", "labels": map[string]any{"a": "b"}},
		"spec":     spec,
		"status":   map[string]any{"ready": true},
	}
}

// TestConvertIsConvertToAndFrom: the webhook handler's conversion, both
// ways, is what calling ConvertTo and ConvertFrom gives.
func TestConvertIsConvertToAndFrom(t *testing.T) {
	p := mustBuild(t, Options{Dir: convapi, Patterns: []string{"./api/..."}, CacheDir: testCache(t)})
	proc := start(t, p)
	ctx := context.Background()
	spoke := widget("conv.example.com/v1beta1", map[string]any{"length": int64(7), "mode": "fast"})
	hub := widget("conv.example.com/v1", map[string]any{"size": int64(3), "mode": "slow", "color": "red"})

	toHub, err := proc.Convert(ctx, []map[string]any{spoke}, "conv.example.com/v1")
	if err != nil {
		t.Fatal(err)
	}
	toSpoke, err := proc.Convert(ctx, []map[string]any{hub}, "conv.example.com/v1beta1")
	if err != nil {
		t.Fatal(err)
	}
	want := runDirect(t, spoke, hub)
	if !reflect.DeepEqual(toHub[0], want[0]) {
		t.Errorf("v1beta1 -> v1:\n got %v\nwant %v (ConvertTo)", toHub[0], want[0])
	}
	if !reflect.DeepEqual(toSpoke[0], want[1]) {
		t.Errorf("v1 -> v1beta1:\n got %v\nwant %v (ConvertFrom)", toSpoke[0], want[1])
	}
	// and the conversion is the API's, not the None strategy's
	if got := toHub[0]["spec"].(map[string]any); got["size"] != int64(7) || got["length"] != nil {
		t.Errorf("v1beta1 -> v1 spec = %v: want length 7 renamed to size", got)
	}
	if got := toSpoke[0]["spec"].(map[string]any); got["length"] != int64(3) || got["color"] != nil {
		t.Errorf("v1 -> v1beta1 spec = %v: want size 3 as length, color dropped", got)
	}

	// many objects in one review, in order
	many, err := proc.Convert(ctx, []map[string]any{spoke, widget("conv.example.com/v1beta1", map[string]any{"length": int64(9)})}, "conv.example.com/v1")
	if err != nil {
		t.Fatal(err)
	}
	if len(many) != 2 || many[1]["spec"].(map[string]any)["size"] != int64(9) {
		t.Errorf("two objects: %v", many)
	}
}

// TestConvertRefused: the handler refuses a conversion to the same
// version; Convert says so, and the process goes on.
func TestConvertRefused(t *testing.T) {
	p := mustBuild(t, Options{Dir: convapi, Patterns: []string{"./api/..."}, CacheDir: testCache(t)})
	proc := start(t, p)
	ctx := context.Background()
	hub := widget("conv.example.com/v1", map[string]any{"size": int64(3)})
	_, err := proc.Convert(ctx, []map[string]any{hub}, "conv.example.com/v1")
	var ce *ConversionError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "conversion is not allowed between same type") {
		t.Fatalf("Convert to the same version: %v, want the handler's refusal", err)
	}
	if _, err := proc.Convert(ctx, []map[string]any{hub}, "conv.example.com/v1beta1"); err != nil {
		t.Errorf("after a refusal: %v", err)
	}
	if _, err := proc.Convert(ctx, []map[string]any{hub}, "conv.example.com/v2"); err == nil {
		t.Errorf("Convert to an unknown version: no error")
	}
}

// TestCache: a second Build of the same sources runs no go build; a
// one-byte change to a Go file of the API builds again; a change to a file
// the program does not depend on does not.
func TestCache(t *testing.T) {
	dir := copyModule(t)
	cache := t.TempDir()
	o := Options{Dir: dir, Patterns: []string{"./api/..."}, CacheDir: cache}
	first := mustBuild(t, o)
	if first.Cached {
		t.Fatalf("first Build in an empty cache: Cached")
	}
	second := mustBuild(t, o)
	if !second.Cached || second.Path != first.Path || second.Key != first.Key {
		t.Errorf("second Build: Cached %v, %s (first %s)", second.Cached, second.Path, first.Path)
	}

	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := mustBuild(t, o); !p.Cached {
		t.Errorf("Build after a change to README.md: not cached")
	}

	name := filepath.Join(dir, "api", "v1", "widget_types.go")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("size is"))
	b[i] = 'S' // one byte, in a comment
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	third := mustBuild(t, o)
	if third.Cached || third.Key == first.Key {
		t.Errorf("Build after a one-byte change to %s: Cached %v, same key %v", name, third.Cached, third.Key == first.Key)
	}
	if _, err := os.Stat(first.Path); err != nil {
		t.Errorf("the first binary: %v", err)
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("staged file left in the cache: %s", e.Name())
		}
	}

	t.Setenv(CacheEnv, "off")
	off := mustBuild(t, Options{Dir: dir, Patterns: []string{"./api/..."}})
	if off.Cached || strings.HasPrefix(off.Path, cache) {
		t.Errorf("%s=off: Cached %v, %s", CacheEnv, off.Cached, off.Path)
	}
	off.Close()
	if _, err := os.Stat(off.Path); !os.IsNotExist(err) {
		t.Errorf("Close with the cache off left %s", off.Path)
	}
}

// TestCompileError: a compile error names the user's file, line and
// column relative to the current directory, as go vet does.
func TestCompileError(t *testing.T) {
	dir, broken := editConversion(t, func(src string) string {
		return strings.Replace(src, "dst.Spec.Size = src.Spec.Length", "dst.Spec.Size = src.Spec.Lenght", 1) //nolint:misspell // misspelt on purpose: a field the API lacks, to break the build
	})
	var line, col int
	for i, l := range strings.Split(broken, "\n") {
		if c := strings.Index(l, "src.Spec.Lenght"); c >= 0 { //nolint:misspell // misspelt on purpose: a field the API lacks, to break the build
			line, col = i+1, c+len("src.Spec.")+1 // the selector, as the type checker reports it
		}
	}
	t.Chdir(dir)
	_, err := testBuild(t, Options{Patterns: []string{"./api/..."}, CacheDir: t.TempDir()})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build of a broken API: %v, want a *BuildError", err)
	}
	want := filepath.Join("api", "v1beta1", "widget_conversion.go") + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + ": "
	t.Logf("%v", be)
	if !strings.Contains(be.Output, want) {
		t.Errorf("BuildError output:\n%s\nwant a line starting %q", be.Output, want)
	}
	if strings.Contains(be.Output, "convprog-src-") || strings.Contains(be.Output, dir) {
		t.Errorf("BuildError output names the temporary module or absolute paths:\n%s", be.Output)
	}
	if !strings.Contains(err.Error(), "example.com/convapi") {
		t.Errorf("error %q does not name the module", err)
	}
}

// testCache is a cache shared by the tests of one run, so that the test
// API is built once.
func testCache(t *testing.T) string {
	t.Helper()
	return sharedCache
}

var sharedCache string

func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "convprog-test-cache-")
	if err != nil {
		panic(err)
	}
	sharedCache = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// TestNoisyAPI: an API whose code writes to standard output (a package's
// init, and ConvertTo, with and without a newline, through os.Stdout and
// to file descriptor 1, as debugging prints do) converts as a quiet one:
// fd 1 is written with syscall.Write: an os.NewFile(1, ...) per call, as
// the test had it, closes fd 1 when the garbage collector finalizes the
// File, and the program once stopped at the second conversion under load.
// what it prints is not taken for an answer, and lands in what Process
// keeps of the program's output.
func TestNoisyAPI(t *testing.T) {
	dir, _ := editConversion(t, func(src string) string {
		src = strings.Replace(src, "\tdst := dstRaw.(*v1.Widget)\n", "\tfmt.Println(\"converting\", src.Name)\n\tfmt.Print(\"and no newline \")\n"+
			"\tsyscall.Write(1, []byte(\"straight to fd 1 \"))\n\tdst := dstRaw.(*v1.Widget)\n", 1)
		src = strings.Replace(src, "import (\n\t\"fmt\"\n", "import (\n\t\"fmt\"\n\t\"syscall\"\n", 1)
		return src + "\nfunc init() { fmt.Println(\"noisy init\") }\n"
	})
	p := mustBuild(t, Options{Dir: dir, Patterns: []string{"./api/..."}, CacheDir: t.TempDir()})
	proc := start(t, p)
	for i := int64(1); i <= 3; i++ {
		out, err := proc.Convert(context.Background(), []map[string]any{widget("conv.example.com/v1beta1", map[string]any{"length": i})}, "conv.example.com/v1")
		if err != nil {
			t.Fatalf("conversion %d: %v", i, err)
		}
		if got := out[0]["spec"].(map[string]any)["size"]; got != i {
			t.Errorf("conversion %d: size %v, want %d", i, got, i)
		}
	}
	if got := proc.cur.stderr.String(); !strings.Contains(got, "noisy init") || !strings.Contains(got, "converting w") || !strings.Contains(got, "straight to fd 1") {
		t.Errorf("the program's output is not kept: %q", got)
	}
}

// editConversion copies the test API's module and rewrites its v1beta1
// widget_conversion.go with edit, which must change it; it returns the
// copy's directory and the new source.
func editConversion(t *testing.T, edit func(string) string) (dir, src string) {
	t.Helper()
	dir = copyModule(t)
	name := filepath.Join(dir, "api", "v1beta1", "widget_conversion.go")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if src = edit(string(b)); src == string(b) {
		t.Fatal("the test API's widget_conversion.go is not as the test expects: fix the test")
	}
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, src
}
