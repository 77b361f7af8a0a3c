package main

// `go run ./test/bench scale` (make bench-scale): wall, CPU and peak RSS of
// `normalize` and `impact` on a cluster dump of N gateway-api objects, and
// `normalize` against kubectl-validate on one object. See README.md,
// "Scale: normalize and impact on a cluster dump".

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
)

const kubectlValidateVersion = "v0.0.4"

// Targets at the largest N, and on one object.
const (
	normalizeRSSTarget    = 300 << 20 // bytes, peak RSS of normalize
	normalizeCoresTarget  = 1.5       // CPU/wall of normalize, at least
	impactRSSTarget       = 400 << 20 // bytes, peak RSS of impact
	impactWallRatioTarget = 2.5       // impact wall / normalize wall of the same round, at most
	oneObjectRatioTarget  = 1.0       // normalize / kubectl-validate median wall, at most
)

type scaleConfig struct {
	sizes                []int
	rounds, oneRounds    int
	objVersion           string
	oldVersion           string
	newVersion           string
	bin, rev             string
	kubectlValidate      string
	skipOne, skipScale   bool
	keep                 bool
	budget               time.Duration
	timeout              time.Duration
	root, work           string
	oldCRDs, newCRDs     string
	binNote              string
	generated            map[int]int64 // N → bytes of the List
	uptimeBefore, uptime string
}

func scaleMain(args []string) {
	flags := flag.NewFlagSet("scale", flag.ExitOnError)
	sizes := flags.String("n", "20000,40000", "numbers of objects, comma-separated")
	rounds := flags.Int("rounds", 3, "timed rounds at each N; each round runs normalize, then impact")
	oneRounds := flags.Int("one-rounds", 11, "timed rounds of the one-object comparison, after one warm-up")
	cfg := scaleConfig{generated: map[int]int64{}}
	sourceFlags(flags, &cfg)
	kv := flags.String("kubectl-validate", "", "kubectl-validate "+kubectlValidateVersion+" (default: bin/kubectl-validate-"+kubectlValidateVersion+"/kubectl-validate, installed there when missing)")
	skipOne := flags.Bool("skip-one", false, "skip the one-object comparison with kubectl-validate")
	skipScale := flags.Bool("skip-scale", false, "skip the runs on N objects")
	keep := flags.Bool("keep", false, "keep the work directory (Lists, CRDs, outputs of the last round)")
	budget := flags.Duration("budget", 0, "start no further round of the runs on N objects once this time has passed (0: no limit); the report says how many rounds ran")
	_ = flags.Parse(args) // flag.ExitOnError: Parse exits on a bad flag

	cfg.rounds, cfg.oneRounds, cfg.kubectlValidate, cfg.skipOne, cfg.skipScale, cfg.keep, cfg.budget = *rounds, *oneRounds, *kv, *skipOne, *skipScale, *keep, *budget
	var err error
	if cfg.sizes, err = parseSizes(*sizes); err != nil {
		fatalf("%v", err)
	}
	if cfg.rounds < 1 || cfg.oneRounds < 1 {
		fatalf("-rounds and -one-rounds must be at least 1")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := runScale(ctx, &cfg, os.Stdout); err != nil {
		fatalf("%v", err)
	}
}

// sourceFlags defines, into cfg, the flags of scale and scale-cluster that
// say what is measured: the gateway-api releases, the binary, the time
// limit of a run.
func sourceFlags(flags *flag.FlagSet, cfg *scaleConfig) {
	flags.StringVar(&cfg.objVersion, "objects", scaleOldVersion, "gateway-api release whose manifests are copied")
	flags.StringVar(&cfg.oldVersion, "old", scaleOldVersion, "gateway-api release of the OLD CRDs ("+crdSubdir+")")
	flags.StringVar(&cfg.newVersion, "new", scaleNewVersion, "gateway-api release of the NEW CRDs ("+crdSubdir+")")
	flags.StringVar(&cfg.bin, "bin", "", "controller-gen-default-normalize to measure (default: go build ./cmd/controller-gen-default-normalize)")
	flags.StringVar(&cfg.rev, "rev", "", "build controller-gen-default-normalize from this git revision (git archive) instead of the working tree")
	flags.DurationVar(&cfg.timeout, "timeout", 10*time.Minute, "time limit of one run")
}

// parseSizes reads -n: positive numbers, comma-separated.
func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-n: %q is not a positive number", s)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func runScale(ctx context.Context, cfg *scaleConfig, out io.Writer) error {
	cfg.uptimeBefore = uptime()
	src, cleanup, err := prepareScale(ctx, cfg, "cgd-bench-scale-")
	if err != nil {
		return err
	}
	defer cleanup()
	if !cfg.skipOne {
		if err := installKubectlValidate(ctx, cfg); err != nil {
			return err
		}
	}
	base, err := prepareBase(ctx, src, cfg.bin, cfg.work)
	if err != nil {
		return err
	}

	var one *oneResult
	if !cfg.skipOne {
		o, err := oneObject(ctx, cfg, base)
		if err != nil {
			return err
		}
		one = &o
	}

	var scale []scaleResult
	var floor sample
	if !cfg.skipScale {
		for _, n := range cfg.sizes {
			if _, err := writeScaleList(cfg, base, n); err != nil {
				return err
			}
		}
		if floor, err = measureFloor(ctx, cfg); err != nil {
			return err
		}
		for _, n := range cfg.sizes {
			scale = append(scale, scaleResult{n: n, categories: map[string]int{}})
		}
		// Round by round, every N in each, so that a change in the
		// machine's load, or the -budget, hits every N alike.
		start := time.Now()
		for r := 1; r <= cfg.rounds; r++ {
			if r > 1 && cfg.budget > 0 && time.Since(start) > cfg.budget {
				progress("-budget %s spent after %d rounds: no more rounds", cfg.budget, r-1)
				break
			}
			for i := range scale {
				if err := scaleRound(ctx, cfg, &scale[i], r); err != nil {
					return err
				}
			}
		}
	}
	cfg.uptime = uptime()
	report(ctx, cfg, scale, floor, one, out)
	return nil
}

// prepareScale makes the work directory (its name begins with prefix),
// fetches gateway-api, copies OLD's and NEW's CRD files into it and builds
// the binary, all into cfg; cleanup removes the work directory unless
// -keep.
func prepareScale(ctx context.Context, cfg *scaleConfig, prefix string) (src gatewaySources, cleanup func(), err error) {
	cleanup = func() {}
	if cfg.root, err = repoRoot(ctx); err != nil {
		return src, cleanup, err
	}
	if cfg.work, err = os.MkdirTemp("", prefix); err != nil {
		return src, cleanup, err
	}
	if cfg.keep {
		progress("work directory: %s", cfg.work)
	} else {
		cleanup = func() { os.RemoveAll(cfg.work) }
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()

	progress("fetching gateway-api %s (manifests), %s (OLD CRDs), %s (NEW CRDs) …", cfg.objVersion, cfg.oldVersion, cfg.newVersion)
	src, err = fetchGateway(ctx, cfg.objVersion, cfg.oldVersion, cfg.newVersion)
	if err != nil {
		return src, cleanup, fmt.Errorf("%w\n(a release the module proxy refuses: pass another with -old or -new)", err)
	}
	cfg.oldCRDs, cfg.newCRDs = filepath.Join(cfg.work, "crd-old"), filepath.Join(cfg.work, "crd-new")
	for _, c := range []struct{ from, to string }{{src.oldCRD, cfg.oldCRDs}, {src.newCRD, cfg.newCRDs}} {
		n, err := copyCRDs(c.from, c.to)
		if err != nil {
			return src, cleanup, err
		}
		progress("%d CRD files from %s", n, c.from)
	}
	src.oldCRD, src.newCRD = cfg.oldCRDs, cfg.newCRDs
	return src, cleanup, buildNormalize(ctx, cfg)
}

// writeScaleList writes the List of the first n objects into the work
// directory, as list-N.yaml, and records its size.
func writeScaleList(cfg *scaleConfig, base []baseObject, n int) (string, error) {
	list := filepath.Join(cfg.work, fmt.Sprintf("list-%d.yaml", n))
	start := time.Now()
	f, err := os.Create(list)
	if err != nil {
		return "", err
	}
	if err := writeList(f, base, n); err != nil {
		_ = f.Close() // writeList's error is the one to report
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	st, err := os.Stat(list)
	if err != nil {
		return "", err
	}
	cfg.generated[n] = st.Size()
	progress("generated %s: %d objects, %.1f MiB, in %s", list, n, mib(st.Size()), time.Since(start).Round(time.Millisecond))
	return list, nil
}

// measureFloor is the peak RSS of /bin/true measured as the runs are.
func measureFloor(ctx context.Context, cfg *scaleConfig) (sample, error) {
	floor, err := measureRun(ctx, cfg, "true", nil, filepath.Join(cfg.work, "true.out"), filepath.Join(cfg.work, "true.err"))
	if err != nil {
		return floor, err
	}
	progress("peak RSS floor (/bin/true, measured as the runs are, GNU time %s): %.1f MiB", map[bool]string{true: "used", false: "not found"}[gnuTime() != ""], mib(floor.rss))
	return floor, nil
}

// buildNormalize builds ./cmd/controller-gen-default-normalize from the
// working tree, or from -rev through git archive (so that uncommitted
// changes of the tree are not measured), unless -bin names one.
func buildNormalize(ctx context.Context, cfg *scaleConfig) error {
	if cfg.bin != "" {
		abs, err := filepath.Abs(cfg.bin)
		if err != nil {
			return err
		}
		if _, err := os.Stat(abs); err != nil {
			return err
		}
		cfg.bin, cfg.binNote = abs, "the binary "+abs
		return nil
	}
	dir := cfg.root
	cfg.binNote = "built from the working tree at " + gitDescribe(ctx, cfg.root)
	if cfg.rev != "" {
		dir = filepath.Join(cfg.work, "src")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		sh := exec.CommandContext(ctx, "sh", "-c", `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, "sh", cfg.root, cfg.rev, dir)
		if b, err := sh.CombinedOutput(); err != nil {
			return fmt.Errorf("git archive %s: %w\n%s", cfg.rev, err, b)
		}
		commit, _ := exec.CommandContext(ctx, "git", "-C", cfg.root, "log", "-1", "--format=%h (%cd, %s)", "--date=format-local:%Y-%m-%d %H:%M UTC", cfg.rev).Output()
		cfg.binNote = "built from commit " + strings.TrimSpace(string(commit))
	}
	cfg.bin = filepath.Join(cfg.work, "controller-gen-default-normalize")
	progress("building ./cmd/controller-gen-default-normalize (%s) …", cfg.binNote)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", cfg.bin, "./cmd/controller-gen-default-normalize")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/controller-gen-default-normalize: %w\n%s", err, b)
	}
	return nil
}

// installKubectlValidate finds kubectl-validate, or installs it with go
// install into bin/kubectl-validate-<version>/ of the checkout.
func installKubectlValidate(ctx context.Context, cfg *scaleConfig) error {
	if cfg.kubectlValidate == "" {
		dir := filepath.Join(cfg.root, "bin", "kubectl-validate-"+kubectlValidateVersion)
		cfg.kubectlValidate = filepath.Join(dir, "kubectl-validate")
		if _, err := os.Stat(cfg.kubectlValidate); err != nil {
			progress("installing sigs.k8s.io/kubectl-validate@%s into %s …", kubectlValidateVersion, dir)
			cmd := exec.CommandContext(ctx, "go", "install", "sigs.k8s.io/kubectl-validate@"+kubectlValidateVersion)
			cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=", "GOWORK=off")
			cmd.Dir = os.TempDir() // outside this module
			if b, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("go install sigs.k8s.io/kubectl-validate@%s failed (is the Go module proxy reachable?); pass -kubectl-validate PATH or -skip-one: %w\n%s",
					kubectlValidateVersion, err, b)
			}
		}
	}
	if _, err := os.Stat(cfg.kubectlValidate); err != nil {
		return fmt.Errorf("kubectl-validate: %w", err)
	}
	return nil
}

// gnuTime is GNU time, when it runs here: with it the peak RSS of a run is
// what the run itself used. A child that this harness starts directly
// reads, as its peak, at least the harness's own (Linux counts the pages
// the child shares with its parent until exec, see rusage_unix.go), and
// the harness links the generator's packages: about 40 MiB. GNU time is a
// small C program that forks its child, so that floor is about 1 MiB.
var gnuTime = sync.OnceValue(func() string {
	const bin = "/usr/bin/time"
	if err := exec.Command(bin, "-f", "%M", "-o", os.DevNull, "true").Run(); err != nil {
		return ""
	}
	return bin
})

// measureRun runs bin with args, stdout and stderr to files, and returns
// wall time, and CPU time and peak RSS from wait4's rusage: of GNU time
// and the command it waited for, the peak RSS as GNU time reads it for
// the command (%M).
func measureRun(ctx context.Context, cfg *scaleConfig, bin string, args []string, stdout, stderr string, env ...string) (sample, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	outF, err := os.Create(stdout)
	if err != nil {
		return sample{}, err
	}
	defer func() { _ = outF.Close() }() // on an early return; checked after the run
	errF, err := os.Create(stderr)
	if err != nil {
		return sample{}, err
	}
	defer func() { _ = errF.Close() }() // on an early return; checked after the run
	cmd := exec.CommandContext(ctx, bin, args...)
	rssFile := stderr + ".rss"
	if t := gnuTime(); t != "" {
		cmd = exec.CommandContext(ctx, t, append([]string{"-f", "%M", "-o", rssFile, bin}, args...)...)
	}
	// A cache of its own (normalize's check cache, under
	// os.UserCacheDir): what the user's cache holds does not matter.
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(cfg.work, "cache"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = outF, errF
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil {
		return sample{}, fmt.Errorf("%s %s: %w", bin, strings.Join(args, " "), ctx.Err())
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return sample{}, fmt.Errorf("%s: %w", bin, err)
	}
	// the command's output, which is read back and counted
	if err := errors.Join(outF.Close(), errF.Close()); err != nil {
		return sample{}, err
	}
	ps := cmd.ProcessState
	s := sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), rss: peakRSS(ps), exit: ps.ExitCode()}
	if gnuTime() != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return sample{}, err
		}
		// The last line: GNU time writes "Command exited with non-zero
		// status N" (or "terminated by signal") before it.
		lines := strings.Fields(string(b))
		kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			return sample{}, fmt.Errorf("GNU time's %%M: %q: %w", b, err)
		}
		s.rss = kb << 10
	}
	return s, nil
}

type scaleResult struct {
	n                 int
	normalize, impact []sample
	// checks, from each run's output
	normalizeObjects, impactRecords []int
	normalizeStderr, impactStderr   []int // lines
	categories                      map[string]int
	impactTable                     string
}

// scaleRound measures normalize, then impact, on the List of res.n objects,
// and checks each run's output: normalize's JSON array and impact's JSON
// lines hold one entry per object.
func scaleRound(ctx context.Context, cfg *scaleConfig, res *scaleResult, r int) error {
	n := res.n
	list := filepath.Join(cfg.work, fmt.Sprintf("list-%d.yaml", n))
	stdout, stderr := filepath.Join(cfg.work, "out"), filepath.Join(cfg.work, "err")
	s, err := measureRun(ctx, cfg, cfg.bin, []string{"--crd", cfg.newCRDs, "-o", "json", list}, stdout+".normalize", stderr+".normalize")
	if err != nil {
		return err
	}
	objects, err := countJSONObjects(stdout + ".normalize")
	if err != nil {
		return fmt.Errorf("normalize on %d objects (exit %d): its output: %w\n%s", n, s.exit, err, head(stderr+".normalize", 20))
	}
	res.normalize = append(res.normalize, s)
	res.normalizeObjects = append(res.normalizeObjects, objects)
	res.normalizeStderr = append(res.normalizeStderr, countLines(stderr+".normalize"))
	progress("N=%-6d round %d  normalize  wall %7.2fs  cpu %7.2fs  cpu/wall %.2f  rss %5.0f MiB  exit %d  objects %d",
		n, r, s.wall.Seconds(), s.cpu.Seconds(), s.cpu.Seconds()/s.wall.Seconds(), mib(s.rss), s.exit, objects)
	if s.exit != 0 {
		progress("normalize exited %d; stderr begins:\n%s", s.exit, head(stderr+".normalize", 10))
	}

	s, err = measureRun(ctx, cfg, cfg.bin, []string{"impact", "--old", cfg.oldCRDs, "--new", cfg.newCRDs, "-o", "json", list}, stdout+".impact", stderr+".impact")
	if err != nil {
		return err
	}
	records, cats, err := impactRecords(stdout + ".impact")
	if err != nil {
		return fmt.Errorf("impact on %d objects (exit %d): its output: %w\n%s", n, s.exit, err, head(stderr+".impact", 20))
	}
	res.impact = append(res.impact, s)
	res.impactRecords = append(res.impactRecords, records)
	res.impactStderr = append(res.impactStderr, countLines(stderr+".impact"))
	if r == 1 {
		res.categories = cats
		b, _ := os.ReadFile(stderr + ".impact")
		res.impactTable = string(b)
	}
	progress("N=%-6d round %d  impact     wall %7.2fs  cpu %7.2fs  cpu/wall %.2f  rss %5.0f MiB  exit %d  records %d  (impact/normalize wall %.2f)",
		n, r, s.wall.Seconds(), s.cpu.Seconds(), s.cpu.Seconds()/s.wall.Seconds(), mib(s.rss), s.exit, records,
		s.wall.Seconds()/res.normalize[len(res.normalize)-1].wall.Seconds())
	if s.exit > 1 {
		progress("impact exited %d; stderr begins:\n%s", s.exit, head(stderr+".impact", 10))
	}
	return nil
}

// countJSONObjects counts the objects of normalize's -o json output, one
// at a time: a JSON array, or JSON lines (one object per line).
func countJSONObjects(file string) (int, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }() // read only: Close loses nothing
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if !bytes.ContainsAny(b, " \t\r\n") {
			break
		}
		_, _ = br.ReadByte() // the byte Peek returned: buffered, cannot fail
	}
	dec := json.NewDecoder(br)
	array := false
	if b, _ := br.Peek(1); b[0] == '[' {
		array = true
		if _, err := dec.Token(); err != nil {
			return 0, err
		}
	}
	n := 0
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return n, err
		}
		if len(raw) == 0 || raw[0] != '{' {
			return n, fmt.Errorf("value %d is not an object", n+1)
		}
		n++
	}
	if array {
		if _, err := dec.Token(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// impactRecords counts impact's JSON lines of objects and their
// categories; a line of a finding about a CRD (it has "finding", as
// objects-unreadable) is not a record, and is counted in cats as
// "finding NAME".
func impactRecords(file string) (int, map[string]int, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = f.Close() }() // read only: Close loses nothing
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n, cats := 0, map[string]int{}
	for sc.Scan() {
		var rec struct {
			Categories []string
			Finding    string
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return n, nil, fmt.Errorf("record %d: %w", n+1, err)
		}
		if rec.Finding != "" {
			cats["finding "+rec.Finding]++
			continue
		}
		for _, c := range rec.Categories {
			cats[c]++
		}
		n++
	}
	return n, cats, sc.Err()
}

func countLines(file string) int {
	b, _ := os.ReadFile(file)
	return bytes.Count(b, []byte("\n"))
}

func head(file string, n int) string {
	b, _ := os.ReadFile(file)
	lines := strings.SplitAfter(string(b), "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

type oneResult struct {
	object, source           string
	normalize, validate      []sample
	normalizeNoCache         []sample
	checks                   []string
	normalizeArgs, validArgs []string
}

// oneObject compares normalize with kubectl-validate on one HTTPRoute of
// the base set: first that both accept it and both refuse a copy with an
// invalid hostname, then one untimed round and cfg.oneRounds timed rounds,
// alternating.
func oneObject(ctx context.Context, cfg *scaleConfig, base []baseObject) (oneResult, error) {
	var res oneResult
	i := slices.IndexFunc(base, func(b baseObject) bool {
		return b.kind() == "HTTPRoute" && dig(b.obj, "spec", "rules") != nil && dig(b.obj, "spec", "hostnames") != nil
	})
	if i < 0 {
		return res, errors.New("no HTTPRoute with rules and hostnames among the manifests")
	}
	obj := base[i].instance(0)
	res.source, res.object = base[i].source, fmt.Sprintf("HTTPRoute %s/%s", str(obj, "metadata", "namespace"), str(obj, "metadata", "name"))
	dir := filepath.Join(cfg.work, "one")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	good, bad := filepath.Join(dir, "httproute.yaml"), filepath.Join(dir, "invalid.yaml")
	write := func(file string, o map[string]any) error {
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		y, err := jsonToYAML(b)
		if err != nil {
			return err
		}
		return os.WriteFile(file, y, 0o644)
	}
	if err := write(good, obj); err != nil {
		return res, err
	}
	spec := map[string]any{}
	for k, v := range obj["spec"].(map[string]any) {
		spec[k] = v
	}
	spec["hostnames"] = []any{"Invalid_Host!"}
	invalid := map[string]any{}
	for k, v := range obj {
		invalid[k] = v
	}
	invalid["spec"] = spec
	if err := write(bad, invalid); err != nil {
		return res, err
	}

	normalizeArgs := func(f string) []string { return []string{"--crd", cfg.newCRDs, f} }
	validateArgs := func(f string) []string { return []string{f, "--local-crds", cfg.newCRDs} }
	res.normalizeArgs = []string{"--crd", "NEW", "httproute.yaml"}
	res.validArgs = []string{"httproute.yaml", "--local-crds", "NEW"}
	out, errf := filepath.Join(dir, "out"), filepath.Join(dir, "err")
	for _, c := range []struct {
		tool, bin string
		args      func(string) []string
	}{{"normalize", cfg.bin, normalizeArgs}, {"kubectl-validate", cfg.kubectlValidate, validateArgs}} {
		s, err := measureRun(ctx, cfg, c.bin, c.args(good), out, errf)
		if err != nil {
			return res, err
		}
		if s.exit != 0 {
			return res, fmt.Errorf("%s refuses %s (exit %d), which should be valid:\n%s%s", c.tool, res.object, s.exit, head(out, 20), head(errf, 20))
		}
		s, err = measureRun(ctx, cfg, c.bin, c.args(bad), out, errf)
		if err != nil {
			return res, err
		}
		msg := strings.ReplaceAll(strings.TrimSpace(head(errf, 3)+head(out, 3)), dir+string(filepath.Separator), "")
		if s.exit == 0 {
			return res, fmt.Errorf("%s accepts the copy of %s with hostnames [Invalid_Host!] (exit 0):\n%s", c.tool, res.object, msg)
		}
		res.checks = append(res.checks, fmt.Sprintf("%s: valid object exit 0; invalid copy exit %d: %s", c.tool, s.exit, firstLine(msg)))
		progress("%s", res.checks[len(res.checks)-1])
	}

	for r := 0; r <= cfg.oneRounds; r++ {
		ns, err := measureRun(ctx, cfg, cfg.bin, normalizeArgs(good), out, errf)
		if err != nil {
			return res, err
		}
		vs, err := measureRun(ctx, cfg, cfg.kubectlValidate, validateArgs(good), out, errf)
		if err != nil {
			return res, err
		}
		cs, err := measureRun(ctx, cfg, cfg.bin, normalizeArgs(good), out, errf, checkcache.Env+"=off")
		if err != nil {
			return res, err
		}
		if ns.exit != 0 || vs.exit != 0 || cs.exit != 0 {
			return res, fmt.Errorf("round %d: normalize exit %d, kubectl-validate exit %d, normalize without its check cache exit %d", r, ns.exit, vs.exit, cs.exit)
		}
		if r == 0 {
			continue // warm-up
		}
		res.normalize = append(res.normalize, ns)
		res.validate = append(res.validate, vs)
		res.normalizeNoCache = append(res.normalizeNoCache, cs)
	}
	progress("one object: %d rounds done", cfg.oneRounds)
	return res, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	if len(l) > 160 {
		l = l[:160] + "…"
	}
	return l
}

func jsonToYAML(j []byte) ([]byte, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return yaml.Marshal(v)
}

func uptime() string {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return "load average " + loadAvg()
	}
	return strings.TrimSpace(string(out))
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func seconds(ss []sample, f func(sample) float64) (med, lo, hi float64) {
	var xs []float64
	for _, s := range ss {
		xs = append(xs, f(s))
	}
	return median(xs), slices.Min(xs), slices.Max(xs)
}

func exits(ss []sample) string {
	var codes []string
	for _, s := range ss {
		codes = append(codes, fmt.Sprint(s.exit))
	}
	slices.Sort(codes)
	return strings.Join(slices.Compact(codes), ", ")
}

func report(ctx context.Context, cfg *scaleConfig, scale []scaleResult, floor sample, one *oneResult, out io.Writer) {
	fmt.Fprintf(out, "Measured %s on %s/%s, %d CPUs (%s), %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel(), goVersion(ctx))
	fmt.Fprintf(out, "- `uptime` before: `%s`\n- `uptime` after: `%s`\n", cfg.uptimeBefore, cfg.uptime)
	fmt.Fprintf(out, "- controller-gen-default-normalize: %s.\n", cfg.binNote)
	fmt.Fprintf(out, "- Objects: gateway-api %s manifests; OLD: gateway-api %s `%s`; NEW: gateway-api %s `%s`.\n",
		cfg.objVersion, cfg.oldVersion, crdSubdir, cfg.newVersion, crdSubdir)
	if len(scale) > 0 {
		fmt.Fprintf(out, "- Peak RSS %s; `/bin/true` measured so reads %.1f MiB.\n", rssHow(), mib(floor.rss))
		fmt.Fprintf(out, "\n#### N objects: medians of %d rounds (each round: normalize, impact at each N in turn)\n\n", len(scale[0].impact))
		fmt.Fprintln(out, "| objects | List | run | wall, median (min–max) | CPU user+sys | CPU/wall | peak RSS | exit | output |")
		fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|")
		last := len(scale) - 1
		for i, r := range scale {
			target := i == last
			for _, run := range []struct {
				name    string
				ss      []sample
				outputs []int
				unit    string
			}{{"`normalize --crd NEW -o json`", r.normalize, r.normalizeObjects, "objects"}, {"`impact --old OLD --new NEW -o json`", r.impact, r.impactRecords, "records"}} {
				w, lo, hi := seconds(run.ss, func(s sample) float64 { return s.wall.Seconds() })
				c, _, _ := seconds(run.ss, func(s sample) float64 { return s.cpu.Seconds() })
				cores, _, _ := seconds(run.ss, func(s sample) float64 { return s.cpu.Seconds() / s.wall.Seconds() })
				rssMed, _, _ := seconds(run.ss, func(s sample) float64 { return float64(s.rss) })
				rss := int64(rssMed)
				var coreMark, rssMark string
				if target && strings.HasPrefix(run.name, "`normalize") {
					coreMark = mark(cores >= normalizeCoresTarget)
					rssMark = mark(rss <= normalizeRSSTarget)
				}
				if target && strings.HasPrefix(run.name, "`impact") {
					rssMark = mark(rss <= impactRSSTarget)
				}
				fmt.Fprintf(out, "| %d | %.1f MiB | %s | %.2f s (%.2f–%.2f) | %.2f s | %.2f%s | %.0f MiB%s | %s | %s %s |\n",
					r.n, mib(cfg.generated[r.n]), run.name, w, lo, hi, c, cores, coreMark, mib(rss), rssMark, exits(run.ss),
					distinct(run.outputs), run.unit)
			}
			var ratios []float64
			for j := range r.impact {
				ratios = append(ratios, r.impact[j].wall.Seconds()/r.normalize[j].wall.Seconds())
			}
			m := median(ratios)
			var rm string
			if target {
				rm = mark(m <= impactWallRatioTarget)
			}
			fmt.Fprintf(out, "| %d | | impact wall / normalize wall, same round | %.2f%s (%.2f–%.2f) | | | | | |\n", r.n, m, rm, slices.Min(ratios), slices.Max(ratios))
		}
		fmt.Fprintf(out, "\nTargets at %d objects: normalize peak RSS ≤ %d MiB and CPU/wall ≥ %.1f; impact peak RSS ≤ %d MiB and wall ≤ %.1fx normalize's in the same round.\n",
			scale[last].n, normalizeRSSTarget>>20, normalizeCoresTarget, impactRSSTarget>>20, impactWallRatioTarget)
		for _, r := range scale {
			var cats []string
			for c, k := range r.categories {
				cats = append(cats, fmt.Sprintf("%s %d", c, k))
			}
			slices.Sort(cats)
			fmt.Fprintf(out, "\n%d objects: normalize wrote %s stderr lines, impact %s; impact's categories (first round): %s.\n",
				r.n, intsList(r.normalizeStderr), intsList(r.impactStderr), strings.Join(cats, ", "))
		}
	}
	if one != nil {
		fmt.Fprintf(out, "\n#### One object: %s (`%s`), %d rounds after 1 warm-up, alternating (normalize, kubectl-validate, normalize without its check cache)\n\n", one.object, one.source, len(one.normalize))
		fmt.Fprintln(out, "| run | wall, median (min–max) | CPU user+sys | peak RSS, median (min–max) |")
		fmt.Fprintln(out, "|---|---|---|---|")
		var walls, rsss [3]float64
		for i, run := range []struct {
			name string
			ss   []sample
		}{
			{"`controller-gen-default-normalize " + strings.Join(one.normalizeArgs, " ") + "`", one.normalize},
			{"`kubectl-validate " + strings.Join(one.validArgs, " ") + "` (" + kubectlValidateVersion + ")", one.validate},
			{"the same normalize, `" + checkcache.Env + "=off`", one.normalizeNoCache},
		} {
			w, lo, hi := seconds(run.ss, func(s sample) float64 { return s.wall.Seconds() })
			c, _, _ := seconds(run.ss, func(s sample) float64 { return s.cpu.Seconds() })
			rm, rlo, rhi := seconds(run.ss, func(s sample) float64 { return float64(s.rss) })
			walls[i], rsss[i] = w, rm
			fmt.Fprintf(out, "| %s | %.3f s (%.3f–%.3f) | %.3f s | %.0f MiB (%.0f–%.0f) |\n", run.name, w, lo, hi, c, rm/(1<<20), rlo/(1<<20), rhi/(1<<20))
		}
		fmt.Fprintf(out, "\nnormalize / kubectl-validate: wall %.2f%s, peak RSS %.2f (target: median wall ≤ kubectl-validate's); without its check cache: wall %.2f, peak RSS %.2f.\n\n",
			ratio(walls[0], walls[1]), mark(ratio(walls[0], walls[1]) <= oneObjectRatioTarget), ratio(rsss[0], rsss[1]), ratio(walls[2], walls[1]), ratio(rsss[2], rsss[1]))
		for _, c := range one.checks {
			fmt.Fprintf(out, "- %s\n", c)
		}
	}
}

func mark(ok bool) string {
	if ok {
		return " ✅"
	}
	return " ❌"
}

func intsList(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

// distinct lists the distinct values of xs, sorted.
func distinct(xs []int) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return intsList(slices.Compact(s))
}

func rssHow() string {
	if gnuTime() != "" {
		return "from GNU time (`%M`), CPU from wait4's rusage"
	}
	return "and CPU from wait4's rusage (no GNU time: the floor is the harness's own peak RSS)"
}
