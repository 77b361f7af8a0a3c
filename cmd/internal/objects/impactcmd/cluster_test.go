package impactcmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/controller-gen-default/controller-gen-default/internal/impact"
)

// kubeconfig writes a kubeconfig whose current context, name, is the
// cluster at server.
func kubeconfig(t *testing.T, server, name string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["c"] = &clientcmdapi.Cluster{Server: server}
	cfg.AuthInfos["u"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	cfg.CurrentContext = name
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// runBounded is runCLI that fails the test, instead of waiting, when the
// command takes over limit.
func runBounded(t *testing.T, limit time.Duration, args ...string) (string, string, int) {
	t.Helper()
	type result struct {
		out, err string
		code     int
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := Run(args, strings.NewReader(""), &out, &errb)
		done <- result{out.String(), errb.String(), code}
	}()
	select {
	case r := <-done:
		return r.out, r.err, r.code
	case <-time.After(limit):
		t.Fatalf("impact %s: still running after %s", strings.Join(args, " "), limit)
		return "", "", 0
	}
}

// TestRequestTimeoutFlag: --request-timeout is kubectl's (a duration, whole
// seconds, 0 for no limit), 1m by default, said in --help; a cluster that
// accepts the connection and never answers ends the run (exit 2) after
// it, with an error that names the cluster, the request and the flag.
func TestRequestTimeoutFlag(t *testing.T) {
	for args, want := range map[string]time.Duration{
		"":                        time.Minute,
		"--request-timeout 0":     0,
		"--request-timeout=30s":   30 * time.Second,
		"--request-timeout 5":     5 * time.Second,
		"--request-timeout 1m30s": 90 * time.Second,
	} {
		var out, errb bytes.Buffer
		o, code := parseFlags(append(strings.Fields(args), oldNew...), &out, &errb)
		if o == nil || o.RequestTimeout != want {
			t.Errorf("%q: exit %d, %s; want a request timeout of %s", args, code, errb.String(), want)
		}
	}
	_, stderr, code := runCLI(t, "", append(oldNew, "--request-timeout", "10x")...)
	if code != 2 || !strings.HasPrefix(stderr, `impact: invalid value "10x" for flag -request-timeout: want a duration such as 30s or 1m, whole seconds, or 0 for no limit`) {
		t.Errorf("a bad --request-timeout: exit %d, %q", code, stderr)
	}
	help, _, _ := runCLI(t, "", "--help")
	if !strings.Contains(help, "-request-timeout DURATION") || !strings.Contains(help, "never answers") || !strings.Contains(help, "(default 1m0s)") {
		t.Errorf("--help does not give --request-timeout, its default and what it bounds:\n%s", help)
	}

	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn // accepted, never read or written
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			conn, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, conn)
		}
	}()
	k := kubeconfig(t, "http://"+silent.Addr().String(), "silent")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--old", "kube://", "--new", "testdata/new.yaml"}, "kube://: listing the CRDs of the cluster (context \"silent\"): no answer to list customresourcedefinitions within --request-timeout=300ms"},
		{[]string{"--old", "testdata/old.yaml", "--new", "testdata/new.yaml", "--objects", "kube://"}, "kube://widgets.impact.example.com: listing its objects in the cluster (context \"silent\") after 0 of them: no answer to list widgets.impact.example.com at v1 within --request-timeout=300ms"},
	} {
		start := time.Now()
		_, stderr, code := runBounded(t, 20*time.Second, append(c.args, "--kubeconfig", k, "--request-timeout", "300ms")...)
		if code != impact.ExitUnusable || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v: %s for a request timeout of 300ms", c.args, d)
		}
	}
}

// TestClusterObjectsExpired: a kind whose list expires on every continue
// token (410 Expired) is reported objects-unreadable with how many of its
// objects were read, each of them reported once, not as a kind of which
// nothing is known.
func TestClusterObjectsExpired(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/apis/impact.example.com/v1/widgets" && r.URL.Query().Get("continue") != "":
			w.WriteHeader(http.StatusGone)
			fmt.Fprint(w, `{"apiVersion":"v1","kind":"Status","status":"Failure","code":410,"reason":"Expired","message":"The provided continue parameter is too old to display a consistent list result."}`)
		case r.URL.Path == "/apis/impact.example.com/v1/widgets":
			items := make([]map[string]any, 500)
			for i := range items {
				items[i] = map[string]any{"apiVersion": "impact.example.com/v1", "kind": "Widget",
					"metadata": map[string]any{"name": fmt.Sprintf("w%04d", i), "namespace": "default"}, "spec": map[string]any{"color": "red"}}
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "impact.example.com/v1", "kind": "WidgetList",
				"metadata": map[string]any{"continue": "next"}, "items": items})
		default: // other kinds: none
			fmt.Fprint(w, `{"apiVersion":"impact.example.com/v1beta1","kind":"GadgetList","metadata":{},"items":[]}`)
		}
	}))
	defer srv.Close()
	k := kubeconfig(t, srv.URL, "fake")
	out, stderr, code := runBounded(t, 60*time.Second, append(oldNew, "--objects", "kube://", "--kubeconfig", k, "-o", "json")...)
	if code != impact.ExitImpact {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	records := map[string]int{}
	var findings []impact.Finding
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var probe struct {
			Source  string `json:"source"`
			Finding string `json:"finding"`
		}
		if err := json.Unmarshal([]byte(line), &probe); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if probe.Finding == impact.FindingUnreadable {
			var f impact.Finding
			_ = json.Unmarshal([]byte(line), &f)
			findings = append(findings, f)
		}
		if strings.HasPrefix(probe.Source, "kube://widgets.impact.example.com/") {
			records[probe.Source]++
		}
	}
	if len(records) != 500 {
		t.Errorf("%d widgets reported, want the 500 read", len(records))
	}
	for s, n := range records {
		if n != 1 {
			t.Errorf("%s reported %d times", s, n)
		}
	}
	want := "its objects could not all be listed at v1: 500 were read (and are reported), nothing is known of the rest: restart 1 of the list expired"
	if len(findings) != 1 || findings[0].CRD != "widgets.impact.example.com" || !strings.HasPrefix(findings[0].Msg, want) {
		t.Errorf("findings %+v, want one of widgets.impact.example.com: %q", findings, want)
	}
	if !strings.Contains(stderr, "impact: kube://widgets.impact.example.com: "+want) {
		t.Errorf("stderr %q does not say it", stderr)
	}
}
