package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// capiRecord is the part of an `impact -o json` record the capi e2e
// compares. afterWriteAt and listFails are declared here, as the command
// prints them.
type capiRecord struct {
	Kind             string                    `json:"kind"`
	Namespace        string                    `json:"namespace"`
	Name             string                    `json:"name"`
	CRD              string                    `json:"crd"`
	Categories       []string                  `json:"categories"`
	ReadVersion      string                    `json:"readVersion"`
	Changes          impact.Changes            `json:"changes"`
	ChangesAt        string                    `json:"changesAt"`
	AtStorageVersion *impact.VersionRead       `json:"atStorageVersion"`
	AfterWrite       *impact.VersionRead       `json:"afterWrite"`
	ConversionFailed *impact.ConversionFailure `json:"conversionFailed"`
	Update           *impact.Update            `json:"update"`
	AfterWriteAt     []struct {
		Version string         `json:"version"`
		Object  map[string]any `json:"object"`
	} `json:"afterWriteAt"`
	ListFails []struct {
		Version    string `json:"version"`
		StoredAt   string `json:"storedAt"`
		AfterWrite bool   `json:"afterWrite"`
	} `json:"listFails"`
	// present are the record's JSON keys.
	present map[string]bool
}

func (r *capiRecord) key() string { return fmt.Sprintf("%s %s/%s", r.Kind, r.Namespace, r.Name) }

// runImpact runs `impact --convert ./... --setup` from a copy of
// cluster-api v1.14.2's module with hack/cgdsetup added, on OLD, NEW and
// the objects, and returns its records; or, when the command cannot make
// these predictions yet, why (pending).
func (s *capiScenario) runImpact() (recs map[string]*capiRecord, pending string) {
	GinkgoHelper()
	bin := testkit.Binary(GinkgoT(), testkit.Objects)
	help, _ := exec.Command(bin, "impact", "--help").CombinedOutput()
	if !bytes.Contains(help, []byte("--setup")) {
		return nil, "this impact has no --setup flag, so --convert cannot run cluster-api's Converters (registered with WithConverter, their APIVersionGetter set by a setup function)"
	}

	By("copying " + capiNewModule + " and adding hack/cgdsetup, as a cluster-api maintainer would")
	capi := filepath.Join(s.tmp, "cluster-api")
	run(".", "cp", "-R", s.newMod, capi)
	// The module's go.mod replaces its api module with ./api, a nested
	// module that the module zip leaves out: put in place as a clone of
	// the release holds it.
	run(".", "cp", "-R", s.apiMod, filepath.Join(capi, "api"))
	run(".", "chmod", "-R", "u+w", capi)
	setup, err := os.ReadFile(capiSetupFile)
	Expect(err).NotTo(HaveOccurred())
	Expect(os.MkdirAll(filepath.Join(capi, "hack", "cgdsetup"), 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(capi, "hack", "cgdsetup", "setup.go"), setup, 0o644)).To(Succeed())

	By("running impact --convert ./... --setup " + capiSetup)
	start := time.Now()
	cmd := exec.Command(bin, "impact", "--old", s.oldDir, "--new", s.newDir, "-o", "json", "--skip-other-groups",
		"--convert", "./...", "--setup", capiSetup, s.objectsPath)
	cmd.Dir = capi
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGD_CAPI_CRDS="+s.newDir+string(os.PathListSeparator)+s.infraDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if exitErr, ok := errors.AsType[*exec.ExitError](err); ok {
		code = exitErr.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	fmt.Fprintf(GinkgoWriter, "impact ran in %s, exit %d; stderr:\n%s\n", time.Since(start).Round(time.Millisecond), code, stderr.String())
	Expect(code).To(BeElementOf(0, 1), "impact failed:\n%s", stderr.String())

	recs = map[string]*capiRecord{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		r := &capiRecord{}
		Expect(json.Unmarshal(sc.Bytes(), r)).To(Succeed(), "%s", sc.Text())
		var keys map[string]json.RawMessage
		Expect(json.Unmarshal(sc.Bytes(), &keys)).To(Succeed())
		r.present = map[string]bool{}
		for k := range keys {
			r.present[k] = true
		}
		recs[r.key()] = r
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	Expect(recs).To(HaveLen(len(s.objects)), "one record per object:\n%s", out)
	return recs, ""
}

// capiComparison counts the checks and holds each disagreement, and each
// prediction the command does not make (pending).
type capiComparison struct {
	checks, expected, agreements int
	disagreements, pending       []string
	byKind                       map[string]int
}

func (c *capiComparison) check(kind string, agree bool, format string, args ...any) {
	c.checks++
	c.byKind[kind]++
	if agree {
		c.agreements++
		return
	}
	c.disagreements = append(c.disagreements, fmt.Sprintf(format, args...))
}

func (c *capiComparison) oneLine() string {
	var kinds []string
	for _, k := range sortedKeys(c.byKind) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, c.byKind[k]))
	}
	return fmt.Sprintf("%d checks (%s): %d agreements, %d disagreements, %d pending",
		c.checks, strings.Join(kinds, ", "), c.agreements, len(c.disagreements), len(c.pending))
}

func (c *capiComparison) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "capi impact against the apiserver: %s\n", c.oneLine())
	for _, d := range c.disagreements {
		fmt.Fprintf(&b, "  DISAGREE %s\n", d)
	}
	for _, p := range c.pending {
		fmt.Fprintf(&b, "  PENDING %s\n", p)
	}
	return b.String()
}

// compareCapi compares each prediction with the live answer: per object,
// the GET at each served version before the write, the no-op update's
// verdict, the GET at each served version after it; per resource and
// served version, the LIST before and after the writes.
func compareCapi(s *capiScenario, recs map[string]*capiRecord) *capiComparison {
	c := &capiComparison{byKind: map[string]int{}}
	written := map[string]bool{} // by object key: impact predicts the write stores it
	for _, k := range s.live.order {
		o := s.live.objects[k]
		storage := storageVersion(o.crd)
		served := servedVersions(o.crd)
		// Expected: a GET per served version before; the update; and when
		// it was sent and accepted, a GET per served version after.
		c.expected += len(served) + 1
		liveWritten := o.updateSent && len(o.updateFields) == 0
		if liveWritten {
			c.expected += len(served)
		}
		r, ok := recs[k]
		if !ok {
			c.disagreements = append(c.disagreements, k+": impact has no record")
			continue
		}
		failed := r.ConversionFailed
		failedAt := func(reqs ...string) bool { return failed != nil && containsString(reqs, failed.Request) }

		// Before the write, at each served version.
		for _, v := range served {
			got := o.before[v]
			what := fmt.Sprintf("%s: GET at %s before the write", k, v)
			switch {
			case v == r.ReadVersion || (r.ReadVersion == "" && v == versionOfObj(o.obj)):
				if failedAt(impact.RequestRead) {
					c.check("get-before", got.code == 500, "%s: impact: 500 (%s), live: %d %s", what, failed.Message, got.code, got.err)
					continue
				}
				if got.err != "" {
					c.check("get-before", false, "%s: impact: read, live: %d %s", what, got.code, got.err)
					continue
				}
				liveChanges := capiChanges(o.stored.obj, got.obj)
				want := r.Changes
				if r.ChangesAt != "" {
					c.pending = append(c.pending, what+": impact counts changes at "+r.ChangesAt)
					continue
				}
				c.check("get-before", reflect.DeepEqual(sortedChanges(liveChanges), sortedChanges(want)),
					"%s: changes from the object stored under OLD: impact %s, live %s", what, toJSON(sortedChanges(want)), toJSON(sortedChanges(liveChanges)))
			case v == storage:
				if failedAt(impact.RequestReadAtStorage) {
					c.check("get-before", got.code == 500, "%s: impact: 500 (%s), live: %d %s", what, failed.Message, got.code, got.err)
					continue
				}
				if r.AtStorageVersion == nil {
					c.check("get-before", false, "%s: impact predicts no read at the storage version (conversionFailed %v), live: %d %s", what, failed, got.code, got.err)
					continue
				}
				c.checkObject("get-before", what, r.AtStorageVersion.Object, got)
			default:
				c.pending = append(c.pending, what+": impact predicts no read at this version before the write")
			}
		}

		// The no-op update.
		what := k + ": no-op update"
		switch {
		case !o.updateSent:
			c.check("update", failed != nil, "%s: live: not sent (the GET at %s failed: %s), impact: %s", what, storage, o.before[storage].err, updateVerdict(r))
		case failedAt(impact.RequestRead, impact.RequestReadAtStorage, impact.RequestReadBack, impact.RequestNextWrite):
			c.check("update", false, "%s: impact: %s, live: sent, %v", what, updateVerdict(r), o.updateErr)
		case r.Update == nil:
			c.check("update", false, "%s: impact predicts no update, live: %v", what, o.updateErr)
		default:
			want := sortedSet(problemFields(r.Update.Problems))
			c.check("update", slicesEqual(sortedSet(o.updateFields), want), "%s: refused at: impact %v (%v), live %v (%s)", what, want, r.Update.Problems, sortedSet(o.updateFields), o.updateErr)
		}
		written[k] = r.Update != nil && !r.Update.Refused && failed == nil

		// After the write, at each served version.
		if !liveWritten {
			continue
		}
		for _, v := range served {
			got := o.after[v]
			what := fmt.Sprintf("%s: GET at %s after the write", k, v)
			var want map[string]any
			found := false
			if v == storage && r.AfterWrite != nil {
				want, found = r.AfterWrite.Object, true
			}
			for _, a := range r.AfterWriteAt {
				if a.Version == v {
					want, found = a.Object, true
				}
			}
			if !found {
				if v != storage && !r.present["afterWriteAt"] && r.AfterWrite != nil {
					c.pending = append(c.pending, what+": impact predicts no read at this version after the write (no afterWriteAt)")
					continue
				}
				c.check("get-after", false, "%s: impact predicts no read, live: %d %s", what, got.code, got.err)
				continue
			}
			c.checkObject("get-after", what, want, got)
		}
	}

	// LISTs: a resource's LIST at a version fails (500) while one of its
	// objects is stored so that its conversion to that version fails.
	anyListFails := false
	for _, r := range recs {
		anyListFails = anyListFails || r.present["listFails"]
	}
	for _, phase := range []struct {
		name       string
		afterWrite bool
		live       map[string]string
	}{{"before the writes", false, s.live.listsBefore}, {"after the writes", true, s.live.listsAfter}} {
		predicted := map[string][]string{}
		for _, k := range s.live.order {
			r := recs[k]
			if r == nil {
				continue
			}
			for _, f := range r.ListFails {
				// After the writes, an object that is written fails as its
				// write stores it; one that is not, as it is stored now.
				if f.AfterWrite == (phase.afterWrite && written[k]) {
					predicted[r.CRD+" "+f.Version] = append(predicted[r.CRD+" "+f.Version], k)
				}
			}
		}
		for _, key := range sortedKeys(phase.live) {
			c.expected++
			got := phase.live[key]
			fields := strings.SplitN(key, " ", 3)
			resource, request := fields[0]+" "+fields[1], fields[2]
			what := fmt.Sprintf("%s %s at %s %s", request, fields[0], fields[1], phase.name)
			if !anyListFails && got != "" {
				c.pending = append(c.pending, what+": live "+got+"; impact has no listFails")
				c.expected--
				continue
			}
			// A predicted failure: 500 from etcd for a LIST with a limit
			// while the watch cache is not ready, 429 "storage is
			// (re)initializing" for the other LISTs and every WATCH.
			want := ""
			switch {
			case len(predicted[resource]) == 0:
			case request == "LIST limit=500":
				want = "500"
			default:
				want = "429"
			}
			code, msg, _ := strings.Cut(got, ": ")
			agree := code == want
			if want == "429" {
				agree = agree && strings.Contains(msg, "storage is (re)initializing")
			}
			c.check("list", agree, "%s: impact: %s, live: %s", what, listVerdict(want, predicted[resource]), orOK(got))
		}
	}
	return c
}

func updateVerdict(r *capiRecord) string {
	switch {
	case r.ConversionFailed != nil:
		return fmt.Sprintf("conversion fails at %s (%s)", r.ConversionFailed.Request, r.ConversionFailed.Message)
	case r.Update == nil:
		return "no update"
	case r.Update.Refused:
		return fmt.Sprintf("refused %v", r.Update.Problems)
	}
	return "accepted"
}

func listVerdict(code string, objs []string) string {
	if len(objs) == 0 {
		return "ok"
	}
	return code + " (because of " + strings.Join(objs, ", ") + ")"
}

func orOK(e string) string {
	if e == "" {
		return "ok"
	}
	return e
}

// checkObject compares a predicted object with a GET's answer, metadata
// reduced to what a client writes (name, namespace, labels, annotations).
func (c *capiComparison) checkObject(kind, what string, want map[string]any, got capiAnswer) {
	if got.err != "" {
		c.check(kind, false, "%s: impact: the object, live: %d %s", what, got.code, got.err)
		return
	}
	w, g := capiCanonical(want), capiCanonical(got.obj)
	var diffs []string
	capiDiff("", w, g, &diffs)
	c.check(kind, len(diffs) == 0, "%s: %s", what, strings.Join(diffs, "; "))
}

// capiCanonical is obj as JSON decodes it, its metadata reduced to name,
// namespace, labels and annotations.
func capiCanonical(obj map[string]any) map[string]any {
	var out map[string]any
	_ = json.Unmarshal([]byte(toJSON(obj)), &out)
	if md, ok := out["metadata"].(map[string]any); ok {
		keep := map[string]any{}
		for _, k := range []string{"name", "namespace", "labels", "annotations"} {
			if v, ok := md[k]; ok {
				keep[k] = v
			}
		}
		out["metadata"] = keep
	}
	return out
}

// capiDiff appends each path where a and b differ, with both values.
func capiDiff(p string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for _, k := range sortedKeys(keys) {
			capiDiff(joinPath(p, k), am[k], bm[k], out)
		}
		return
	}
	al, alok := a.([]any)
	bl, blok := b.([]any)
	if alok && blok && len(al) == len(bl) {
		for i := range al {
			capiDiff(p+"["+strconv.Itoa(i)+"]", al[i], bl[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, fmt.Sprintf("%s: impact %s, live %s", p, capiValue(a), capiValue(b)))
	}
}

func capiValue(v any) string {
	if v == nil {
		return "(absent)"
	}
	s := toJSON(v)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func joinPath(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

// capiChanges are the paths where a GET changes the object stored under
// OLD, as impact's Changes name them (apiVersion aside; added and removed
// subtrees by their top; list items one by one).
func capiChanges(stored, read map[string]any) impact.Changes {
	var ch impact.Changes
	a, b := capiCanonical(stored), capiCanonical(read)
	delete(a, "apiVersion")
	delete(b, "apiVersion")
	var walk func(p string, x, y any)
	walk = func(p string, x, y any) {
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok {
				ch.Changed = append(ch.Changed, p)
				return
			}
			keys := map[string]bool{}
			for k := range xv {
				keys[k] = true
			}
			for k := range yv {
				keys[k] = true
			}
			for _, k := range sortedKeys(keys) {
				xk, inX := xv[k]
				yk, inY := yv[k]
				switch {
				case !inY:
					ch.Removed = append(ch.Removed, impactPath(p, k))
				case !inX:
					ch.Added = append(ch.Added, impactPath(p, k))
				default:
					walk(impactPath(p, k), xk, yk)
				}
			}
		case []any:
			yv, ok := y.([]any)
			if !ok {
				ch.Changed = append(ch.Changed, p)
				return
			}
			for i := 0; i < max(len(xv), len(yv)); i++ {
				ip := p + "[" + strconv.Itoa(i) + "]"
				switch {
				case i >= len(yv):
					ch.Removed = append(ch.Removed, ip)
				case i >= len(xv):
					ch.Added = append(ch.Added, ip)
				default:
					walk(ip, xv[i], yv[i])
				}
			}
		default:
			if !reflect.DeepEqual(x, y) {
				ch.Changed = append(ch.Changed, p)
			}
		}
	}
	walk("", a, b)
	return ch
}

// impactPath is impact's path notation (internal/impact/paths.go).
func impactPath(p, k string) string {
	ok := k != ""
	for i, r := range k {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !(letter || (i > 0 && (r == '-' || (r >= '0' && r <= '9')))) {
			ok = false
		}
	}
	if !ok {
		q, _ := json.Marshal(k)
		return p + "[" + string(q) + "]"
	}
	if p == "" {
		return k
	}
	return p + "." + k
}

func sortedChanges(ch impact.Changes) impact.Changes {
	return impact.Changes{Added: sortedSet(ch.Added), Removed: sortedSet(ch.Removed), Changed: sortedSet(ch.Changed)}
}

func versionOfObj(obj map[string]any) string {
	_, v, _ := strings.Cut(obj["apiVersion"].(string), "/")
	return v
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	sort.Strings(a)
	sort.Strings(b)
	return reflect.DeepEqual(a, b)
}
