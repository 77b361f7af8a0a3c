// Command bench measures what controller-gen-default costs compared with
// controller-gen v0.23.0 on real API modules, and reports every
// warning and error it prints on them.
//
//	go run ./test/bench [-rounds 5] [-warmup 1] [-modules gateway-api,prometheus-operator,cluster-api]
//	               [-controller-gen bin/controller-gen-v0.23.0/controller-gen] [-ours path]
//
// The modules are fetched through the Go module proxy into a throwaway
// module (internal/testsupport/realapis). Three variants run on each, alternating
// (A B C A B C …) so that drift in machine load spreads over all of them:
//
//	A  controller-gen v0.23.0
//	B  controller-gen-default, default options (implicit defaults, all checks)
//	C  controller-gen-default crd:check=false
//
// Every run writes to a fresh directory with output:crd:dir. For each
// variant the command prints the median wall time, CPU time (user+sys) and
// peak RSS, from the rusage of the generator and the go list it runs, and
// the ratios to A, as markdown. Then it runs B once more with
// crd:verbose=true (and once with check=false as well) and tabulates the
// findings on stderr by rule.
package main

import (
	"bytes"
	"context"
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
	"strings"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

const refVersion = "v0.23.0"

// Targets, for B against A: wall time and peak RSS.
const (
	wallTarget = 1.10
	rssTarget  = 1.25
)

type variant struct {
	key, label string
	bin        string
	extra      []string // crd options added to the module's own
	env        []string // added to the environment
}

type sample struct {
	wall, cpu time.Duration
	rss       int64
	exit      int
	stderr    string
}

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "scale":
			scaleMain(os.Args[2:])
			return
		case "scale-cluster":
			scaleClusterMain(os.Args[2:])
			return
		case "scale-gen":
			scaleGenMain(os.Args[2:])
			return
		case "output":
			outputMain(os.Args[2:])
			return
		}
	}
	rounds := flag.Int("rounds", 5, "timed rounds; each round runs every variant once per module")
	warmup := flag.Int("warmup", 1, "untimed rounds first (module cache, go list cache, page cache)")
	modules := flag.String("modules", "", "comma-separated modules (default: all of internal/testsupport/realapis.Default)")
	refFlag := flag.String("controller-gen", "", "controller-gen "+refVersion+" (default $CONTROLLER_GEN_REF, else bin/controller-gen-"+refVersion+"/controller-gen)")
	oursFlag := flag.String("ours", "", "controller-gen-default binary (default $CGD_BIN, else go build ./cmd/controller-gen-default)")
	keep := flag.Bool("keep", false, "keep the work directory (throwaway module, outputs, stderr)")
	flag.Parse()
	if *rounds < 1 {
		fatalf("-rounds must be at least 1")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *rounds, *warmup, *modules, *refFlag, *oursFlag, *keep, os.Stdout); err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

func run(ctx context.Context, rounds, warmup int, modules, refBin, oursBin string, keep bool, out io.Writer) error {
	mods, err := realapis.Select(modules)
	if err != nil {
		return err
	}
	root, err := repoRoot(ctx)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "cgd-bench-")
	if err != nil {
		return err
	}
	if keep {
		progress("work directory: %s", work)
	} else {
		defer os.RemoveAll(work)
	}

	refBin, err = referenceBinary(ctx, refBin, root)
	if err != nil {
		return err
	}
	oursBin, oursNote, err := oursBinary(ctx, oursBin, root, work)
	if err != nil {
		return err
	}

	start := time.Now()
	wsDir := filepath.Join(work, "module")
	if err := os.Mkdir(wsDir, 0o755); err != nil {
		return err
	}
	ws, err := realapis.Prepare(ctx, wsDir, mods...)
	if err != nil {
		return err
	}
	progress("fetched %d modules in %s", len(mods), time.Since(start).Round(time.Millisecond))
	modCache := goEnv(ctx, "GOMODCACHE")

	variants := []variant{
		{key: "A", label: "controller-gen " + refVersion, bin: refBin},
		{key: "B", label: "controller-gen-default (all checks, check cache off)", bin: oursBin, env: []string{checkcache.Env + "=off"}},
		{key: "C", label: "controller-gen-default `crd:check=false`", bin: oursBin, extra: []string{"check=false"}},
		{key: "D", label: "controller-gen-default (all checks, warm check cache: unchanged types)", bin: oursBin, env: []string{"XDG_CACHE_HOME=" + filepath.Join(work, "cache")}},
	}

	loadBefore := loadAvg()
	samples := map[string]map[string][]sample{} // module → variant → samples
	for _, m := range mods {
		samples[m.Name] = map[string][]sample{}
	}
	seq := 0
	for r := -warmup; r < rounds; r++ {
		for _, m := range mods {
			for _, v := range variants {
				seq++
				outDir := filepath.Join(work, "out", fmt.Sprintf("%04d-%s-%s", seq, m.Name, v.key))
				s, err := measure(ctx, ws, v.bin, m.Args(outDir, v.extra...), v.env...)
				if err != nil {
					return err
				}
				os.RemoveAll(outDir)
				what := "round " + fmt.Sprint(r+1)
				if r < 0 {
					what = "warm-up"
				} else {
					samples[m.Name][v.key] = append(samples[m.Name][v.key], s)
				}
				progress("%-8s %-20s %s  wall %6.2fs  cpu %6.2fs  rss %5.0f MiB  exit %d",
					what, m.Name, v.key, s.wall.Seconds(), s.cpu.Seconds(), mib(s.rss), s.exit)
			}
		}
	}
	loadAfter := loadAvg()

	// Diagnostics, untimed: verbose lists findings in other modules one by one.
	type diagRun struct {
		all, noCheck sample
	}
	diags := map[string]diagRun{}
	for _, m := range mods {
		var d diagRun
		for i, extra := range [][]string{{"verbose=true"}, {"verbose=true", "check=false"}} {
			outDir := filepath.Join(work, "out", "diag-"+m.Name+fmt.Sprint(i))
			s, err := measure(ctx, ws, oursBin, m.Args(outDir, extra...))
			if err != nil {
				return err
			}
			if i == 0 {
				d.all = s
			} else {
				d.noCheck = s
			}
		}
		diags[m.Name] = d
		if keep {
			_ = os.WriteFile(filepath.Join(work, m.Name+".stderr"), []byte(d.all.stderr), 0o644)
		}
	}

	// Report.
	fmt.Fprintf(out, "Measured %s on %s/%s, %d CPUs (load average %s before, %s after), %s; %d rounds after %d warm-up.\n\n",
		time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), loadBefore, loadAfter, goVersion(ctx), rounds, warmup)
	fmt.Fprintf(out, "controller-gen-default: %s.\n\n", oursNote)
	for _, m := range mods {
		fmt.Fprintf(out, "#### %s (`%s`)\n\n", m.Name, m)
		fmt.Fprintf(out, "| Run | Wall, median (min–max) | CPU user+sys | Peak RSS | Wall ratio | CPU ratio | RSS ratio | Exit |\n")
		fmt.Fprintf(out, "|---|---|---|---|---|---|---|---|\n")
		base := stats(samples[m.Name]["A"])
		for _, v := range variants {
			st := stats(samples[m.Name][v.key])
			wallR, cpuR, rssR := ratio(st.wall, base.wall), ratio(st.cpu, base.cpu), ratio(float64(st.rss), float64(base.rss))
			wallCell, rssCell := fmt.Sprintf("%.2f", wallR), fmt.Sprintf("%.2f", rssR)
			if v.key == "B" || v.key == "D" {
				wallCell += verdict(wallR, wallTarget)
				rssCell += verdict(rssR, rssTarget)
			}
			fmt.Fprintf(out, "| %s %s | %.2f s (%.2f–%.2f) | %.2f s | %.0f MiB | %s | %.2f | %s | %s |\n",
				v.key, v.label, st.wall, st.minWall, st.maxWall, st.cpu, mib(st.rss), wallCell, cpuR, rssCell, st.exits)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "Targets (B against A): wall ratio ≤ %.2f, peak RSS ratio ≤ %.2f. Commands, run in a throwaway module that requires the API modules:\n\n", wallTarget, rssTarget)
	fmt.Fprintf(out, "```sh\n")
	for _, m := range mods {
		for _, v := range variants {
			name := "controller-gen-default"
			if v.key == "A" {
				name = "controller-gen"
			}
			fmt.Fprintf(out, "%s %s %s\n", v.key, name, strings.Join(m.Args("<out>", v.extra...), " "))
		}
	}
	fmt.Fprintf(out, "```\n\n")

	fmt.Fprintf(out, "#### Findings of controller-gen-default on these modules\n\n")
	fmt.Fprintf(out, "Default options plus `crd:verbose=true`, so that findings in types of other modules (k8s.io/api, apimachinery) are listed one by one. \"Other modules\" counts those; \"check=false\" is the count with `crd:check=false`.\n\n")
	fmt.Fprintf(out, "| Module | Severity | Rule | Count | In other modules | With check=false | Example |\n")
	fmt.Fprintf(out, "|---|---|---|---|---|---|---|\n")
	var notes []string
	for _, m := range mods {
		d := diags[m.Name]
		prefix := m.String() + "/"
		found, other := parseFindings(d.all.stderr, prefix)
		foundNC, _ := parseFindings(d.noCheck.stderr, prefix)
		rows := tally(m.Name, found)
		nc := map[[2]string]int{}
		for _, r := range tally(m.Name, foundNC) {
			nc[[2]string{r.severity, r.rule}] = r.count
		}
		for _, r := range rows {
			fmt.Fprintf(out, "| %s | %s | %s | %d | %d | %d | %s |\n", m.Name, r.severity, mdCell(r.rule, 60), r.count, r.foreign, nc[[2]string{r.severity, r.rule}], r.exampleCell(modCache))
		}
		for _, r := range tally(m.Name, foundNC) {
			if !slices.ContainsFunc(rows, func(x ruleRow) bool { return x.severity == r.severity && x.rule == r.rule }) {
				fmt.Fprintf(out, "| %s | %s | %s | 0 | %d | %d | %s |\n", m.Name, r.severity, mdCell(r.rule, 60), r.foreign, r.count, r.exampleCell(modCache))
			}
		}
		if len(rows) == 0 {
			fmt.Fprintf(out, "| %s | – | (none) | 0 | 0 | %d | |\n", m.Name, len(foundNC))
		}
		notes = append(notes, fmt.Sprintf("%s: exit status %d with all checks, %d with check=false", m.Name, d.all.exit, d.noCheck.exit))
		for _, o := range other {
			if !strings.HasPrefix(o, "run `") { // the usual hint after a failed run
				notes = append(notes, fmt.Sprintf("%s: other stderr line: %s", m.Name, mdCell(o, 200)))
			}
		}
	}
	fmt.Fprintln(out)
	for _, n := range notes {
		fmt.Fprintf(out, "- %s\n", n)
	}
	return nil
}

// measure runs one generator and returns its wall time, CPU time and peak
// RSS. A non-zero exit is recorded, not an error: ours fails on purpose
// when a check fails.
func measure(ctx context.Context, ws *realapis.Workspace, bin string, args []string, env ...string) (sample, error) {
	cmd := ws.Command(ctx, bin, args...)
	if len(env) > 0 {
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = append(cmd.Env, env...)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil {
		return sample{}, ctx.Err()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return sample{}, fmt.Errorf("%s: %w", bin, err)
	}
	ps := cmd.ProcessState
	return sample{
		wall:   wall,
		cpu:    ps.UserTime() + ps.SystemTime(),
		rss:    peakRSS(ps),
		exit:   ps.ExitCode(),
		stderr: stderr.String(),
	}, nil
}

type summary struct {
	wall, minWall, maxWall, cpu float64 // seconds
	rss                         int64
	exits                       string
}

func stats(ss []sample) summary {
	var walls, cpus, rsss []float64
	exits := map[int]int{}
	for _, s := range ss {
		walls = append(walls, s.wall.Seconds())
		cpus = append(cpus, s.cpu.Seconds())
		rsss = append(rsss, float64(s.rss))
		exits[s.exit]++
	}
	var ex []string
	for code, n := range exits {
		if code == 0 && n == len(ss) {
			ex = append(ex, "0")
		} else {
			ex = append(ex, fmt.Sprintf("%d (%d of %d)", code, n, len(ss)))
		}
	}
	slices.Sort(ex)
	return summary{
		wall: median(walls), minWall: slices.Min(walls), maxWall: slices.Max(walls),
		cpu: median(cpus), rss: int64(median(rsss)), exits: strings.Join(ex, ", "),
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func verdict(r, target float64) string {
	if r <= target {
		return " ✅"
	}
	return " ❌"
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// repoRoot is the directory of the go.mod the current directory belongs to.
func repoRoot(ctx context.Context) (string, error) {
	gomod := goEnv(ctx, "GOMOD")
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("run bench inside the controller-gen-default module (go run ./test/bench)")
	}
	return filepath.Dir(gomod), nil
}

func referenceBinary(ctx context.Context, bin, root string) (string, error) {
	if bin == "" {
		bin = os.Getenv("CONTROLLER_GEN_REF")
	}
	if bin == "" {
		bin = filepath.Join(root, "bin", "controller-gen-"+refVersion, "controller-gen")
	}
	bin, err := filepath.Abs(bin) // generators run in the throwaway module
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("controller-gen %s not found at %s; install it with `make controller-gen-ref`", refVersion, bin)
	}
	out, err := exec.CommandContext(ctx, bin, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s is not controller-gen %s (--version: %q): %w", bin, refVersion, strings.TrimSpace(string(out)), err)
	}
	if strings.TrimSpace(string(out)) != "Version: "+refVersion {
		return "", fmt.Errorf("%s is not controller-gen %s (--version: %q)", bin, refVersion, strings.TrimSpace(string(out)))
	}
	return bin, nil
}

func oursBinary(ctx context.Context, bin, root, work string) (path, note string, err error) {
	if bin == "" {
		bin = os.Getenv("CGD_BIN")
		if bin != "" {
			progress("using CGD_BIN=%s", bin)
		}
	}
	if bin != "" {
		if bin, err = filepath.Abs(bin); err != nil {
			return "", "", err
		}
		if _, err := os.Stat(bin); err != nil {
			return "", "", err
		}
		return bin, "the binary " + bin, nil
	}
	bin = filepath.Join(work, "controller-gen-default")
	progress("building ./cmd/controller-gen-default …")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/controller-gen-default")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("go build ./cmd/controller-gen-default: %w\n%s", err, out)
	}
	return bin, "built from ./cmd/controller-gen-default at " + gitDescribe(ctx, root), nil
}

func gitDescribe(ctx context.Context, root string) string {
	cmd := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "(unknown revision)"
	}
	return strings.TrimSpace(string(out))
}

func goEnv(ctx context.Context, key string) string {
	out, err := exec.CommandContext(ctx, "go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func goVersion(ctx context.Context) string {
	if v := goEnv(ctx, "GOVERSION"); v != "" {
		return v
	}
	return runtime.Version()
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}
