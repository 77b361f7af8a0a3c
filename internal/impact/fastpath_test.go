package impact

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/random"
)

// fastPathValues is the vocabulary of the random values of TestFastPathIsFullPath:
// the names the test CRDs use, and values some of which they refuse,
// prune or default.
var fastPathValues = random.Vocabulary{
	Keys:    []string{"size", "color", "replicas", "mode", "legacy", "tier", "ready", "extra", "port", "phase"},
	Strings: []string{"", "a", "small", "large", "fast", "Bad Name", "C", "keep-me", "Legacy", "Ready"},
	IntMin:  -5, IntMax: 14, MaxKeys: 3, MaxItems: 2,
}

// TestFastPathIsFullPath: the records of the test objects, and of random
// objects of each kind and version, are the same with Analyzer.Object's
// shortcuts (an empty diff for an object read as stored; one decoding of
// the body the no-op update and the ratcheting updates share; no main
// write in the search for ratcheted values of an object read as OLD's
// create accepted it, createdAsRead) and without them, against NEWs that
// change the rules everywhere (new.yaml, new-refused.yaml), only in some
// fields (new-narrow.yaml), and nowhere (old.yaml). The shortcut must be
// taken, with and without a status, and declined for an object whose
// fields NEW judges by other rules; and the no-op update's write of the
// status left out (statusUpdateFollows).
func TestFastPathIsFullPath(t *testing.T) {
	t.Parallel()
	var objects []map[string]any
	for _, file := range []string{"testdata/objects.yaml", "testdata/list.yaml", "testdata/mixed.yaml"} {
		inputs, err := readInputs([]string{file}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			objects = append(objects, in.Object)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	kinds := [][2]string{{"impact.example.com/v1", "Widget"}, {"impact.example.com/v1beta1", "Gadget"}, {"impact.example.com/v1", "Gadget"}}
	for i := range 200 {
		k := kinds[i%len(kinds)]
		obj := map[string]any{"apiVersion": k[0], "kind": k[1], "metadata": map[string]any{"name": "r" + strconv.Itoa(i)}}
		for _, f := range []string{"spec", "status"} {
			if r.IntN(3) > 0 {
				obj[f] = random.JSON(r, fastPathValues, 3)
			}
		}
		if r.IntN(2) == 0 { // a status of the Widget's own fields, as controllers write it
			obj["status"] = map[string]any{"phase": []string{"Ready", "Pending", "Legacy", "Bad"}[r.IntN(4)]}
		}
		objects = append(objects, obj)
	}
	unchanged := 0
	skips := map[string]int{}
	statusSkips := int64(0)
	for _, newFile := range []string{"testdata/new.yaml", "testdata/new-refused.yaml", "testdata/new-narrow.yaml", "testdata/old.yaml"} {
		a := analyzer(t, []string{"testdata/old.yaml"}, newFile)
		for i, obj := range objects {
			before := a.skips.createdAsRead.Load()
			fast, ferr := a.Object(context.Background(), runtime.DeepCopyJSON(obj))
			if fast != nil && fast.Read != nil {
				switch _, status := fast.Read["status"]; {
				case a.skips.createdAsRead.Load() > before && status:
					skips[newFile+" with a status"]++
				case a.skips.createdAsRead.Load() > before:
					skips[newFile]++
				case newFile == "testdata/new-narrow.yaml" && fast.InvalidUnderOld == nil && len(fast.Ratcheted) > 0:
					skips["declined, something held by ratcheting"]++
				}
			}
			a.fullPath = true
			full, err := a.Object(context.Background(), runtime.DeepCopyJSON(obj))
			a.fullPath = false
			if !reflect.DeepEqual(fast, full) || (ferr == nil) != (err == nil) {
				t.Errorf("%s, object %d: fast %+v (%v), full %+v (%v)", newFile, i, fast, ferr, full, err)
			}
			if fast != nil && reflect.DeepEqual(fast.Categories, []string{Unchanged}) {
				unchanged++
			}
		}
		statusSkips += a.skips.statusUpdate.Load()
	}
	if unchanged == 0 {
		t.Error("no unchanged object compared")
	}
	for _, want := range []string{"testdata/new-narrow.yaml", "testdata/new-narrow.yaml with a status", "testdata/old.yaml", "testdata/old.yaml with a status", "declined, something held by ratcheting"} {
		if skips[want] == 0 {
			t.Errorf("createdAsRead: no object for %q", want)
		}
	}
	if statusSkips == 0 {
		t.Error("statusUpdateFollows spared no write of the status")
	}
	t.Logf("%d objects, %d unchanged records; createdAsRead: %v; statusUpdateFollows: %d", len(objects), unchanged, skips, statusSkips)
}
