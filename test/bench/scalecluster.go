package main

// `go run ./test/bench scale-cluster`: wall, CPU and peak RSS of `impact
// --objects kube://`, which reads the objects from a cluster page by page,
// against `impact` on the same objects as a `kubectl get -A -o yaml` dump,
// at N gateway-api objects stored in a real kube-apiserver and etcd
// (envtest). See README.md, "Scale: impact reading from a cluster".

import (
	"bufio"
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
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// fieldManager is the field manager of the server-side applies that
// store the dump's objects.
const fieldManager = "bench-scale-cluster"

type clusterConfig struct {
	scaleConfig
	assets  string // KUBEBUILDER_ASSETS: kube-apiserver, etcd
	workers int
}

// parseClusterFlags reads the flags of scale-cluster; getenv gives
// KUBEBUILDER_ASSETS. The sizes come out ascending and distinct: the
// cluster only grows, each N adding objects to those of the N before.
func parseClusterFlags(args []string, getenv func(string) string, output io.Writer) (*clusterConfig, error) {
	flags := flag.NewFlagSet("scale-cluster", flag.ContinueOnError)
	flags.SetOutput(output)
	sizes := flags.String("n", "20000,40000", "numbers of objects, comma-separated; the cluster is filled up to each in turn")
	rounds := flags.Int("rounds", 3, "timed rounds at each N; each round runs impact reading the cluster, then impact reading the dump")
	cfg := &clusterConfig{scaleConfig: scaleConfig{generated: map[int]int64{}}}
	sourceFlags(flags, &cfg.scaleConfig)
	workers := flags.Int("workers", 4, "concurrent server-side applies while the objects are stored")
	flags.BoolVar(&cfg.keep, "keep", false, "keep the work directory (Lists, CRDs, kubeconfig, outputs of the last round)")
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "usage: KUBEBUILDER_ASSETS=DIR go run ./test/bench scale-cluster [-n 20000,40000] [-rounds R] [flags]\n\n"+
			"Starts kube-apiserver and etcd from $KUBEBUILDER_ASSETS (envtest), installs OLD's CRDs, stores N objects of\n"+
			"the scale dump in it, and measures impact --objects kube:// against impact on the dump file.\n\n")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	if flags.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: scale-cluster takes only flags", flags.Arg(0))
	}
	cfg.rounds, cfg.workers = *rounds, *workers
	var err error
	if cfg.sizes, err = parseSizes(*sizes); err != nil {
		return nil, err
	}
	slices.Sort(cfg.sizes)
	cfg.sizes = slices.Compact(cfg.sizes)
	if cfg.rounds < 1 {
		return nil, errors.New("-rounds must be at least 1")
	}
	if cfg.workers < 1 {
		return nil, errors.New("-workers must be at least 1")
	}
	if cfg.assets = getenv("KUBEBUILDER_ASSETS"); cfg.assets == "" {
		return nil, errors.New("KUBEBUILDER_ASSETS is not set: set it to a directory holding kube-apiserver and etcd " +
			"(`make envtest-assets` builds them and prints it, e.g. KUBEBUILDER_ASSETS=$PWD/bin/k8s/1.37.1-linux-amd64)")
	}
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(cfg.assets, b)); err != nil {
			return nil, fmt.Errorf("KUBEBUILDER_ASSETS=%s has no %s (`make envtest-assets` builds it): %w", cfg.assets, b, err)
		}
	}
	return cfg, nil
}

func scaleClusterMain(args []string) {
	cfg, err := parseClusterFlags(args, os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fatalf("scale-cluster: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// runScaleCluster stops the apiserver and etcd before it returns.
	if err := runScaleCluster(ctx, cfg, os.Stdout); err != nil {
		fatalf("scale-cluster: %v", err)
	}
}

// clusterResult is what was measured at one N.
type clusterResult struct {
	n             int
	fill          time.Duration // storing the objects added at this N
	filled        int           // how many were added
	cluster, file []sample
	// server is the CPU time kube-apiserver and etcd used during each
	// run reading the cluster, and during each run on the file.
	serverCluster, serverFile []time.Duration
	records                   [2][]int // cluster, file
	categories                [2]map[string]int
	// readVersionDiffs are the objects whose categories differ, read
	// at other versions (last round).
	readVersionDiffs []readVersionDiff
}

func runScaleCluster(ctx context.Context, cfg *clusterConfig, out io.Writer) error {
	cfg.uptimeBefore = uptime()
	src, cleanup, err := prepareScale(ctx, &cfg.scaleConfig, "cgd-bench-scale-cluster-")
	if err != nil {
		return err
	}
	defer cleanup()
	base, err := prepareBase(ctx, src, cfg.bin, cfg.work)
	if err != nil {
		return err
	}

	progress("starting kube-apiserver and etcd from %s, installing OLD's CRDs …", cfg.assets)
	ctrllog.SetLogger(logr.Discard()) // envtest's progress messages
	env := &envtest.Environment{
		BinaryAssetsDirectory: cfg.assets,
		CRDDirectoryPaths:     []string{cfg.oldCRDs},
		ErrorIfCRDPathMissing: true,
	}
	restCfg, err := env.Start()
	if err != nil {
		return fmt.Errorf("envtest from KUBEBUILDER_ASSETS=%s: %w", cfg.assets, err)
	}
	defer func() {
		if err := env.Stop(); err != nil {
			progress("stopping envtest: %v", err)
		}
	}()
	kubeconfig, err := writeAdminKubeconfig(env, cfg.work)
	if err != nil {
		return err
	}
	serverVersion := apiserverVersion(ctx, cfg.assets)
	st, err := newStorer(restCfg, cfg.workers)
	if err != nil {
		return err
	}
	floor, err := measureFloor(ctx, &cfg.scaleConfig)
	if err != nil {
		return err
	}

	var results []clusterResult
	stored := 0
	for _, n := range cfg.sizes {
		list, err := writeScaleList(&cfg.scaleConfig, base, n)
		if err != nil {
			return err
		}
		res := clusterResult{n: n, filled: n - stored}
		start := time.Now()
		if err := st.store(ctx, base, stored, n); err != nil {
			return err
		}
		res.fill, stored = time.Since(start), n
		for r := 1; r <= cfg.rounds; r++ {
			if err := clusterRound(ctx, cfg, &res, r, kubeconfig, list); err != nil {
				return err
			}
		}
		results = append(results, res)
	}
	cfg.uptime = uptime()
	clusterReport(ctx, cfg, results, floor, serverVersion, out)
	return nil
}

// writeAdminKubeconfig writes a kubeconfig for a user of system:masters
// of env's apiserver into dir.
func writeAdminKubeconfig(env *envtest.Environment, dir string) (string, error) {
	user, err := env.AddUser(envtest.User{Name: "bench-scale-cluster", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return "", err
	}
	b, err := user.KubeConfig()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "kubeconfig")
	return path, os.WriteFile(path, b, 0o600)
}

func apiserverVersion(ctx context.Context, assets string) string {
	b, err := exec.CommandContext(ctx, filepath.Join(assets, "kube-apiserver"), "--version").Output()
	if err != nil {
		return "kube-apiserver (version unknown)"
	}
	return strings.TrimSpace(string(b))
}

// storer stores the dump's objects in the cluster: namespaces created,
// objects server-side applied, by a few workers.
type storer struct {
	dyn     dynamic.Interface
	core    kubernetes.Interface
	mapper  *restmapper.DeferredDiscoveryRESTMapper
	workers int
}

func newStorer(cfg *rest.Config, workers int) (*storer, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = -1, 0 // no client-side rate limit: the workers bound it
	cfg.WarningHandler = rest.NewWarningWriter(os.Stderr, rest.WarningWriterOptions{Deduplicate: true})
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	core, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &storer{dyn: dyn, core: core, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)), workers: workers}, nil
}

// store creates the namespaces of items from..to-1 of the dump, then
// applies those items, as `kubectl apply --server-side` of the List would.
func (s *storer) store(ctx context.Context, base []baseObject, from, to int) error {
	namespaces := dumpNamespaces(base, from, to)
	progress("creating %d namespaces, then applying objects %d to %d (server-side, %d workers) …", len(namespaces), from+1, to, s.workers)
	err := parallel(ctx, s.workers, len(namespaces), "namespaces", func(i int) error {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespaces[i]}}
		if _, err := s.core.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("namespace %s: %w", namespaces[i], err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return parallel(ctx, s.workers, to-from, "objects", func(i int) error {
		b := base[(from+i)%len(base)]
		return s.apply(ctx, b, b.instance((from+i)/len(base)))
	})
}

// apply server-side applies obj, and its status, which the main resource
// ignores when the CRD has a status subresource, through the status
// subresource: the cluster then stores the dump's object.
func (s *storer) apply(ctx context.Context, b baseObject, obj map[string]any) error {
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	m, err := s.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", b.source, gvk, err)
	}
	r := s.dyn.Resource(m.Resource).Namespace(u.GetNamespace())
	opts := metav1.ApplyOptions{FieldManager: fieldManager, Force: true}
	if _, err := r.Apply(ctx, u.GetName(), u, opts); err != nil {
		return fmt.Errorf("%s: %s %s/%s: %w", b.source, gvk.Kind, u.GetNamespace(), u.GetName(), err)
	}
	if _, ok := obj["status"]; ok {
		if _, err := r.ApplyStatus(ctx, u.GetName(), u, opts); err != nil {
			return fmt.Errorf("%s: %s %s/%s: status: %w", b.source, gvk.Kind, u.GetNamespace(), u.GetName(), err)
		}
	}
	return nil
}

// dumpNamespaces are the namespaces of items from..to-1 of the dump, in
// order of first use.
func dumpNamespaces(base []baseObject, from, to int) []string {
	seen := map[string]bool{}
	var out []string
	for i := from; i < to; i++ {
		if _, ns := base[i%len(base)].names(i / len(base)); ns != "" && !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	return out
}

// parallel calls fn(0) … fn(count-1) from workers goroutines, with a
// progress line on stderr about once a second; the first error stops it.
func parallel(ctx context.Context, workers, count int, what string, fn func(int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next, done atomic.Int64
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
				done.Add(1)
			}
		}()
	}
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	line := func() {
		d := done.Load()
		fmt.Fprintf(os.Stderr, "\r%s: %d/%d in %s (%.0f/s)\x1b[K", what, d, count, time.Since(start).Round(time.Second), float64(d)/time.Since(start).Seconds())
	}
	for {
		select {
		case <-tick.C:
			line()
		case <-stopped:
			line()
			fmt.Fprintln(os.Stderr)
			if first != nil {
				return first
			}
			return ctx.Err()
		}
	}
}

// clusterRound runs, at res.n objects, impact reading OLD's CRDs and the
// objects from the cluster, then impact on the dump file with OLD's CRD
// files, and checks that both print one record per object and the same
// categories.
func clusterRound(ctx context.Context, cfg *clusterConfig, res *clusterResult, r int, kubeconfig, list string) error {
	runs := []struct {
		name   string
		args   []string
		ss     *[]sample
		server *[]time.Duration
	}{
		{"cluster", []string{"impact", "--old", "kube://", "--new", cfg.newCRDs, "--objects", "kube://", "--kubeconfig", kubeconfig, "-o", "json"}, &res.cluster, &res.serverCluster},
		{"file", []string{"impact", "--old", cfg.oldCRDs, "--new", cfg.newCRDs, "-o", "json", list}, &res.file, &res.serverFile},
	}
	for i, run := range runs {
		stdout, stderr := filepath.Join(cfg.work, "out."+run.name), filepath.Join(cfg.work, "err."+run.name)
		before := serverCPU()
		s, err := measureRun(ctx, &cfg.scaleConfig, cfg.bin, run.args, stdout, stderr)
		if err != nil {
			return err
		}
		server := serverCPU() - before
		records, cats, err := impactRecords(stdout)
		if err != nil {
			return fmt.Errorf("impact reading the %s at N=%d (exit %d): its output: %w\n%s", run.name, res.n, s.exit, err, head(stderr, 20))
		}
		progress("N=%-6d round %d  impact, %-7s  wall %7.2fs  cpu %7.2fs  rss %5.0f MiB  apiserver+etcd cpu %6.2fs  exit %d  records %d",
			res.n, r, run.name, s.wall.Seconds(), s.cpu.Seconds(), mib(s.rss), server.Seconds(), s.exit, records)
		if s.exit > 1 || records != res.n {
			return fmt.Errorf("impact reading the %s at N=%d: exit %d, %d records for %d objects; stderr begins:\n%s", run.name, res.n, s.exit, records, res.n, head(stderr, 20))
		}
		*run.ss = append(*run.ss, s)
		*run.server = append(*run.server, server)
		res.records[i] = append(res.records[i], records)
		res.categories[i] = cats
	}
	diffs, err := compareRecords(filepath.Join(cfg.work, "out.cluster"), filepath.Join(cfg.work, "out.file"))
	if err != nil {
		return fmt.Errorf("comparing the records read from the cluster and from the file at N=%d, round %d: %w", res.n, r, err)
	}
	res.readVersionDiffs = diffs
	return nil
}

// recordKey names an object in both runs' records: the source differs
// (kube://CRD/NAMESPACE/NAME against FILE:DOC:ITEM).
type recordKey struct{ group, kind, namespace, name string }

func (k recordKey) String() string {
	if k.namespace == "" {
		return k.kind + " " + k.name
	}
	return k.kind + " " + k.namespace + "/" + k.name
}

// recordView is what compareRecords compares of a record.
type recordView struct {
	readVersion string
	categories  string
}

// readVersionDiff is an object whose categories differ between the runs
// because they read it at different versions.
type readVersionDiff struct {
	key           recordKey
	cluster, file recordView
}

// compareRecords matches the records of the run reading the cluster with
// those of the run on the dump, object by object, and checks that each
// object has a record in both and the same categories. An object read at
// another version may differ: the cluster is read at the version objects
// are stored at (source.ReadVersion), the dump at the version each object
// is written in, and a schema may require at one version what another
// lets out. Those objects are returned; any other difference is the error.
func compareRecords(clusterOut, fileOut string) ([]readVersionDiff, error) {
	cluster, err := recordViews(clusterOut)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", clusterOut, err)
	}
	file, err := recordViews(fileOut)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fileOut, err)
	}
	var diffs []readVersionDiff
	var problems []string
	for k, c := range cluster {
		f, ok := file[k]
		switch {
		case !ok:
			problems = append(problems, k.String()+": a record reading the cluster, none on the dump")
		case c.categories == f.categories:
		case c.readVersion != f.readVersion:
			diffs = append(diffs, readVersionDiff{k, c, f})
		default:
			problems = append(problems, fmt.Sprintf("%s, both read at %s: categories [%s] reading the cluster, [%s] on the dump", k, c.readVersion, c.categories, f.categories))
		}
	}
	for k := range file {
		if _, ok := cluster[k]; !ok {
			problems = append(problems, k.String()+": a record on the dump, none reading the cluster")
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, fmt.Errorf("%d objects' records differ between the cluster and the dump:\n%s", len(problems), strings.Join(problems[:min(len(problems), 20)], "\n"))
	}
	slices.SortFunc(diffs, func(a, b readVersionDiff) int { return strings.Compare(a.key.String(), b.key.String()) })
	return diffs, nil
}

// recordViews reads impact's JSON lines, by object; lines of a finding
// about a CRD are skipped.
func recordViews(file string) (map[recordKey]recordView, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: Close loses nothing
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	views := map[recordKey]recordView{}
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			APIVersion, Kind, Namespace, Name, ReadVersion, Finding string
			Categories                                              []string
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if rec.Finding != "" {
			continue
		}
		group, _, _ := strings.Cut(rec.APIVersion, "/")
		k := recordKey{group, rec.Kind, rec.Namespace, rec.Name}
		if _, dup := views[k]; dup {
			return nil, fmt.Errorf("line %d: a second record of %s", line, k)
		}
		views[k] = recordView{rec.ReadVersion, strings.Join(rec.Categories, " ")}
	}
	return views, sc.Err()
}

// serverCPU is the CPU time (user + system) the kube-apiserver and etcd
// children of this process have used so far, from /proc/PID/stat (0
// where there is no /proc).
func serverCPU() time.Duration {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var ticks int64
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		comm, ppid, t, ok := parseStat(string(b))
		if ok && ppid == self && pid != self && (comm == "kube-apiserver" || comm == "etcd") {
			ticks += t
		}
	}
	return time.Duration(ticks) * (time.Second / clockTicks)
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on Linux.
const clockTicks = 100

// parseStat reads comm, ppid and utime+stime from a /proc/PID/stat line:
// "PID (COMM) STATE PPID … UTIME STIME …", fields 4, 14 and 15 counted
// from 1; COMM may hold spaces and parentheses, so fields are counted
// after its last ')'.
func parseStat(line string) (comm string, ppid int, ticks int64, ok bool) {
	open, end := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if open < 0 || end < open {
		return "", 0, 0, false
	}
	f := strings.Fields(line[end+1:]) // f[0] is field 3, STATE
	if len(f) < 13 {
		return "", 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	utime, err2 := strconv.ParseInt(f[11], 10, 64)
	stime, err3 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return "", 0, 0, false
	}
	return line[open+1 : end], ppid, utime + stime, true
}

func clusterReport(ctx context.Context, cfg *clusterConfig, results []clusterResult, floor sample, serverVersion string, out io.Writer) {
	fmt.Fprintf(out, "Measured %s on %s/%s, %d CPUs (%s), %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel(), goVersion(ctx))
	fmt.Fprintf(out, "- `uptime` before: `%s`\n- `uptime` after: `%s`\n", cfg.uptimeBefore, cfg.uptime)
	fmt.Fprintf(out, "- controller-gen-default-normalize: %s.\n", cfg.binNote)
	fmt.Fprintf(out, "- Objects: gateway-api %s manifests; OLD: gateway-api %s `%s`, installed in the cluster; NEW: gateway-api %s `%s`.\n",
		cfg.objVersion, cfg.oldVersion, crdSubdir, cfg.newVersion, crdSubdir)
	fmt.Fprintf(out, "- Cluster: envtest's %s and etcd from `KUBEBUILDER_ASSETS`; objects stored by server-side apply (field manager `%s`), %d workers:", serverVersion, fieldManager, cfg.workers)
	for _, r := range results {
		fmt.Fprintf(out, " %d more in %.0f s (%.0f/s);", r.filled, r.fill.Seconds(), float64(r.filled)/r.fill.Seconds())
	}
	fmt.Fprintf(out, " the N of each row are all the cluster holds.\n")
	fmt.Fprintf(out, "- Peak RSS %s; `/bin/true` measured so reads %.1f MiB. apiserver+etcd CPU: their CPU time (`/proc/PID/stat`) during the run.\n", rssHow(), mib(floor.rss))
	fmt.Fprintf(out, "\n#### Medians of %d rounds (each round: the cluster read, then the file)\n\n", len(results[0].cluster))
	fmt.Fprintln(out, "| objects | run | wall, median (min–max) | CPU user+sys | peak RSS | apiserver+etcd CPU | exit | output |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|")
	type med struct{ wall, cpu, rss float64 }
	clusterRSS := map[int]float64{}
	for _, r := range results {
		var meds [2]med
		for i, run := range []struct {
			name   string
			ss     []sample
			server []time.Duration
		}{
			{"`impact --old kube:// --new NEW --objects kube:// --kubeconfig K -o json`", r.cluster, r.serverCluster},
			{fmt.Sprintf("`impact --old OLD --new NEW -o json DUMP` (%.1f MiB)", mib(cfg.generated[r.n])), r.file, r.serverFile},
		} {
			w, lo, hi := seconds(run.ss, func(s sample) float64 { return s.wall.Seconds() })
			c, _, _ := seconds(run.ss, func(s sample) float64 { return s.cpu.Seconds() })
			rss, _, _ := seconds(run.ss, func(s sample) float64 { return float64(s.rss) })
			var srv []float64
			for _, d := range run.server {
				srv = append(srv, d.Seconds())
			}
			meds[i] = med{w, c, rss}
			fmt.Fprintf(out, "| %d | %s | %.2f s (%.2f–%.2f) | %.2f s | %.0f MiB | %.2f s | %s | %s records |\n",
				r.n, run.name, w, lo, hi, c, mib(int64(rss)), median(srv), exits(run.ss), distinct(r.records[i]))
		}
		clusterRSS[r.n] = meds[0].rss
		var wr, cr, rr []float64
		for j := range r.cluster {
			wr = append(wr, ratio(r.cluster[j].wall.Seconds(), r.file[j].wall.Seconds()))
			cr = append(cr, ratio(r.cluster[j].cpu.Seconds(), r.file[j].cpu.Seconds()))
			rr = append(rr, ratio(float64(r.cluster[j].rss), float64(r.file[j].rss)))
		}
		fmt.Fprintf(out, "| %d | cluster / file, same round | %.2f (%.2f–%.2f) | %.2f | %.2f | | | |\n",
			r.n, median(wr), slices.Min(wr), slices.Max(wr), median(cr), median(rr))
	}
	if len(results) > 1 {
		lo, hi := results[0].n, results[len(results)-1].n
		fmt.Fprintf(out, "\nPeak RSS of impact reading the cluster: %.0f MiB at %d objects, %.0f MiB at %d: %.2fx for %.1fx the objects.\n",
			mib(int64(clusterRSS[lo])), lo, mib(int64(clusterRSS[hi])), hi, ratio(clusterRSS[hi], clusterRSS[lo]), float64(hi)/float64(lo))
	}
	for _, r := range results {
		fmt.Fprintf(out, "\n%d objects: both runs printed one record per object; categories (last round) reading the cluster: %s; on the dump: %s.",
			r.n, categoryList(r.categories[0]), categoryList(r.categories[1]))
		if d := r.readVersionDiffs; len(d) > 0 {
			fmt.Fprintf(out, " Objects whose categories differ: %d, each read at another version (the cluster at the stored version, the dump at the object's own), e.g.", len(d))
			for _, x := range d[:min(len(d), 3)] {
				fmt.Fprintf(out, " %s: %s [%s] reading the cluster, %s [%s] on the dump;", x.key, x.cluster.readVersion, x.cluster.categories, x.file.readVersion, x.file.categories)
			}
			fmt.Fprintf(out, " every other object has the same categories in both.")
		} else {
			fmt.Fprintf(out, " Every object has the same categories in both.")
		}
		fmt.Fprintln(out)
	}
}

func categoryList(cats map[string]int) string {
	var l []string
	for c, k := range cats {
		l = append(l, fmt.Sprintf("%s %d", c, k))
	}
	slices.Sort(l)
	return strings.Join(l, ", ")
}
