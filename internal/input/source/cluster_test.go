package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// fakeAPI serves the list of widgets.example.com/v1 as the apiserver
// pages it: objects in key order, ChunkSize a page at most, a continue
// token that says the revision and the last key of the page. page, when
// set, answers instead of it (a fault); it is called with the request's
// number (1 is the first) and continue token, and answers false to let
// the list be served.
type fakeAPI struct {
	mu       sync.Mutex
	names    []string // "default/NAME", sorted
	rev      int
	requests int
	page     func(w http.ResponseWriter, n int, token string) bool
}

func newFakeAPI(objects int) *fakeAPI {
	f := &fakeAPI{rev: 1}
	for i := range objects {
		f.names = append(f.names, fmt.Sprintf("default/w%04d", i))
	}
	return f
}

// add stores the object default/name at a new revision.
func (f *fakeAPI) add(name string) {
	f.names = append(f.names, "default/"+name)
	slices.Sort(f.names)
	f.rev++
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.URL.Path != "/apis/example.com/v1/widgets" {
		http.NotFound(w, r)
		return
	}
	f.requests++
	if f.requests > 1000 { // a client that would not stop: end its list
		writeStatus(w, http.StatusInternalServerError, "InternalError", "too many requests: the client lists in a loop")
		return
	}
	token := r.URL.Query().Get("continue")
	if f.page != nil && f.page(w, f.requests, token) {
		return
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	after := ""
	if token != "" {
		_, after, _ = strings.Cut(token, ";")
	}
	start, _ := slices.BinarySearch(f.names, after)
	if start < len(f.names) && f.names[start] == after {
		start++
	}
	end := min(len(f.names), start+limit)
	next := ""
	if end < len(f.names) {
		next = fmt.Sprintf("%d;%s", f.rev, f.names[end-1])
	}
	writeList(w, f.names[start:end], next)
}

func writeList(w http.ResponseWriter, keys []string, next string) {
	items := []map[string]any{}
	for _, k := range keys {
		ns, name, _ := strings.Cut(k, "/")
		items = append(items, map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"namespace": ns, "name": name}})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList",
		"metadata": map[string]any{"continue": next}, "items": items})
}

func writeStatus(w http.ResponseWriter, code int, reason, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure",
		"code": code, "reason": reason, "message": message})
}

// writeExpired is the apiserver's answer to a continue token whose
// revision etcd compacted.
func writeExpired(w http.ResponseWriter) {
	writeStatus(w, http.StatusGone, "Expired", "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.")
}

var widgets = &apiextensionsv1.CustomResourceDefinition{
	ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
	Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
		Names:    apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"},
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true}},
	},
}

// readAll is EachObject on f's widgets: how many times each object was
// given, and what was refused.
func readAll(t *testing.T, f *fakeAPI) (map[string]int, []*ResourceError, error) {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := ClusterOf(&rest.Config{Host: srv.URL}, "fake")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var refused []*ResourceError
	err = c.EachObject(context.Background(), []*apiextensionsv1.CustomResourceDefinition{widgets}, nil, func(o Object) error {
		if seen[o.Source]++; len(seen) > 100000 || seen[o.Source] > 100 {
			return errors.New("an object given over and over: the list loops")
		}
		return nil
	}, func(e *ResourceError) { refused = append(refused, e) })
	return seen, refused, err
}

// once checks that the objects given are want, each once.
func once(t *testing.T, seen map[string]int, want []string) {
	t.Helper()
	for _, k := range want {
		if n := seen["kube://widgets.example.com/"+k]; n != 1 {
			t.Errorf("%s given %d times, want once", k, n)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d objects given, want %d", len(seen), len(want))
	}
}

// TestEachObjectExpired: 410 Expired on the second page (etcd compacted
// the list's revision) restarts the list, as k8s.io/client-go/tools/pager
// does, and every object is given once: the 500 given before are not
// given again, and objects stored meanwhile, before and after where the
// list was, are given.
func TestEachObjectExpired(t *testing.T) {
	f := newFakeAPI(1201)
	expired := 0
	f.page = func(w http.ResponseWriter, n int, token string) bool {
		if n == 2 {
			expired++
			f.add("a-created-meanwhile")
			f.add("z-created-meanwhile")
			writeExpired(w)
			return true
		}
		return false
	}
	seen, refused, err := readAll(t, f)
	if err != nil || len(refused) > 0 {
		t.Fatalf("error %v, refused %v", err, refused)
	}
	if expired != 1 {
		t.Fatalf("the second page expired %d times, want once", expired)
	}
	once(t, seen, f.names)
	if len(f.names) != 1203 {
		t.Fatalf("%d objects stored, want 1203", len(f.names))
	}
}

// TestEachObjectExpiredAgain: a list whose restart expires again before
// it reads an object not read before ends, as a refused kind that says
// how many objects were read (and given once).
func TestEachObjectExpiredAgain(t *testing.T) {
	f := newFakeAPI(1201)
	f.page = func(w http.ResponseWriter, n int, token string) bool {
		if token != "" {
			writeExpired(w)
			return true
		}
		return false
	}
	seen, refused, err := readAll(t, f)
	if err != nil {
		t.Fatal(err)
	}
	once(t, seen, f.names[:ChunkSize])
	if len(refused) != 1 || refused[0].Read != ChunkSize || !strings.Contains(refused[0].Err.Error(), "restart 1 of the list expired before it read an object not read before") {
		t.Fatalf("refused %+v, want widgets refused after 500 objects read, the list expired again", refused)
	}
}

// TestEachObjectLoop: a server that sends a continue token again, or
// empty pages each with a new token, would have the list go on forever:
// it ends, as a refused kind that says how many objects were read, each
// given once.
func TestEachObjectLoop(t *testing.T) {
	for name, c := range map[string]struct {
		page func(w http.ResponseWriter, n int, token string) bool
		read int
		msg  string
	}{
		"the first page again, with its token": {
			page: func(w http.ResponseWriter, n int, token string) bool {
				writeList(w, newFakeAPI(ChunkSize).names, "again")
				return true
			},
			read: ChunkSize, msg: "page 2 came with the continue token of page 1",
		},
		"tokens in a cycle": {
			page: func(w http.ResponseWriter, n int, token string) bool {
				names := newFakeAPI(3 * ChunkSize).names
				switch token {
				case "", "c": // page 3 comes with page 1's token
					writeList(w, names[:ChunkSize], "b")
				default:
					writeList(w, names[ChunkSize:2*ChunkSize], "c")
				}
				return true
			},
			read: 2 * ChunkSize, msg: "page 3 came with the continue token of page 1",
		},
		"empty pages, each with a new token": {
			page: func(w http.ResponseWriter, n int, token string) bool {
				if n == 1 {
					writeList(w, newFakeAPI(ChunkSize).names, "t1")
				} else {
					writeList(w, nil, fmt.Sprintf("t%d", n))
				}
				return true
			},
			read: ChunkSize, msg: "10 pages in a row came with a continue token and no object",
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFakeAPI(0)
			f.page = c.page
			seen, refused, err := readAll(t, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(refused) != 1 || refused[0].Read != c.read || refused[0].CRD != "widgets.example.com" || !strings.Contains(refused[0].Err.Error(), c.msg) {
				t.Fatalf("refused %+v, want widgets.example.com refused after %d objects read: %s", refused, c.read, c.msg)
			}
			if len(seen) != c.read {
				t.Errorf("%d objects given, want %d", len(seen), c.read)
			}
			for k, n := range seen {
				if n != 1 {
					t.Errorf("%s given %d times", k, n)
				}
			}
			if f.requests > 20 {
				t.Errorf("%d requests for a list of at most 2 pages of objects", f.requests)
			}
		})
	}
}

// TestRequestTimeout: a server that accepts the connection and never
// answers, or sends the headers of a page and never its end, costs the
// request timeout, not forever; the error names the cluster, the request
// and --request-timeout, and ends the run (each other kind would wait as
// long).
func TestRequestTimeout(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		var held []net.Conn // accepted, never read or written
		for {
			conn, err := silent.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, conn)
		}
	}()
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{},"items":[`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(stalled.Close)

	const timeout = 300 * time.Millisecond
	for name, host := range map[string]string{"silent": "http://" + silent.Addr().String(), "stalled": stalled.URL} {
		t.Run(name, func(t *testing.T) {
			c, err := ClusterOf(&rest.Config{Host: host, Timeout: timeout}, name)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, err error, wants ...string) {
				t.Helper()
				for _, want := range append(wants, "no answer to", "within --request-timeout=300ms") {
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: %v, want an error saying %q", what, err, want)
					}
				}
			}
			ctx := context.Background()
			start := time.Now()
			err = c.EachObject(ctx, []*apiextensionsv1.CustomResourceDefinition{widgets}, nil,
				func(Object) error { return nil },
				func(e *ResourceError) { t.Errorf("refused: %v: a timeout must end the run", e.Err) })
			check("EachObject", err, `kube://widgets.example.com: listing its objects in the cluster (context "`+name+`") after 0 of them`, "list widgets.example.com at v1")
			if name == "silent" {
				_, err = c.CRDs(ctx, "", nil)
				check("CRDs", err, `kube://: listing the CRDs of the cluster (context "silent")`, "list customresourcedefinitions")
				_, err = c.CRDs(ctx, "widgets.example.com", nil)
				check("CRD", err, `kube://widgets.example.com: reading the CRD from the cluster (context "silent")`, "get customresourcedefinition widgets.example.com")
			}
			if d := time.Since(start); d > 10*timeout {
				t.Errorf("%s for requests of %s at most", d, timeout)
			}
		})
	}
}

// TestParseRequestTimeout: kubectl's --request-timeout syntax.
func TestParseRequestTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 0, "30s": 30 * time.Second, "1m": time.Minute, "5": 5 * time.Second, "1h2m": time.Hour + 2*time.Minute} {
		if got, err := ParseRequestTimeout(in); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1s", "1.5", "-5"} {
		if _, err := ParseRequestTimeout(in); err == nil || !strings.Contains(err.Error(), "0 for no limit") {
			t.Errorf("%q: %v, want refused", in, err)
		}
	}
}
