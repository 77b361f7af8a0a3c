package pipeline

import (
	"context"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/normalize"
)

// loadPipelines loads and validates the CRDs and builds a pipeline per
// served version.
func loadPipelines(ctx context.Context, paths []string, stderr io.Writer) (map[schema.GroupVersionKind]*Pipeline, int) {
	crds, err := normalize.LoadCRDs(paths...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, ExitUnusable
	}
	if len(crds) == 0 {
		fmt.Fprintf(stderr, "no CustomResourceDefinition in %s\n", strings.Join(paths, ", "))
		return nil, ExitUnusable
	}
	out := map[schema.GroupVersionKind]*Pipeline{}
	for _, c := range crds {
		if errs := normalize.ValidateCRD(ctx, c); len(errs) > 0 {
			for _, e := range sortErrors(errs) {
				fmt.Fprintf(stderr, "CRD %s: %s\n", c.Name, e.Error())
			}
			return nil, ExitUnusable
		}
		for _, v := range c.Spec.Versions {
			if !v.Served {
				continue
			}
			p, err := New(c, v.Name)
			if err != nil {
				fmt.Fprintf(stderr, "CRD %s: %v\n", c.Name, err)
				return nil, ExitUnusable
			}
			out[p.gvk] = p
		}
	}
	return out, ExitOK
}
