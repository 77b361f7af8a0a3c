package normalize

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// FuzzCreate: any bytes, read as the command reads them, give each object
// a result of the create path (or the reader's error), never a panic or a
// hang. An object of no CRD is given the kind of one, chosen by its
// position, so that every object runs through a pipeline; strict switches
// fieldValidation. The CRDs are testdata/crds and testdata/fuzz/rich.yaml
// (status and scale subresources, an embedded resource, list maps and
// sets, CEL). The seed corpus is testdata/fuzz/FuzzCreate.
func FuzzCreate(f *testing.F) {
	crds, err := crdcheck.LoadCRDs("../apiserver/objectpath/testdata/crds", "../apiserver/objectpath/testdata/fuzz/rich.yaml")
	if err != nil {
		f.Fatal(err)
	}
	pipelines := map[schema.GroupVersionKind]*objectpath.Pipeline{}
	var all []*objectpath.Pipeline
	for _, c := range crds {
		for _, v := range c.Spec.Versions {
			p, err := objectpath.New(c, v.Name)
			if err != nil {
				f.Fatal(err)
			}
			pipelines[p.GVK()] = p
			all = append(all, p)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			createAll(t, data, strict, pipelines, all)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%d bytes take more than 20s", len(data))
		}
	})
}

func createAll(t *testing.T, data []byte, strict bool, pipelines map[schema.GroupVersionKind]*objectpath.Pipeline, all []*objectpath.Pipeline) {
	ctx := context.Background()
	r := manifest.NewReader("fuzz", bytes.NewReader(data))
	for n := 0; n < 20; n++ {
		o, err := r.Next()
		if errors.Is(err, io.EOF) || err != nil {
			return
		}
		gvk := schema.FromAPIVersionAndKind(str(o.Object["apiVersion"]), str(o.Object["kind"]))
		p := pipelines[gvk]
		if p == nil {
			p = all[n%len(all)]
			o.Object["apiVersion"], o.Object["kind"] = p.GVK().GroupVersion().String(), p.GVK().Kind
		}
		sent, req, err := p.KubectlRequest(o.Object, "default", n%2 == 1)
		if err != nil {
			continue
		}
		req.Strict = strict
		res := p.Create(ctx, sent, req)
		if res.Object == nil {
			t.Fatalf("object %d: no object in the result", n)
		}
		var out bytes.Buffer
		if err := writeResults(&out, []map[string]any{res.Object}, []string{"yaml", "json"}[n%2]); err != nil {
			t.Fatalf("object %d: the result does not print: %v", n, err)
		}
		_ = p.Decode(o.Object)
	}
}

// writeResults prints objs as Run prints them, without messages.
func writeResults(w io.Writer, objs []map[string]any, format string) error {
	p := &printer{stdout: w, stderr: io.Discard, yaml: format == "yaml"}
	for _, obj := range objs {
		b, err := encode(obj, format)
		if err != nil {
			return err
		}
		if err := p.print(outcome{object: b}); err != nil {
			return err
		}
	}
	return p.flush()
}
