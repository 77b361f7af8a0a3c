package crdcheck

import (
	"context"
	"runtime"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
)

// CheckCache remembers the CRDs that the apiserver's whole-CRD checks
// accepted, so that normalize and impact do not run them again on the
// same CRDs: ValidateCustomResourceDefinition compiles every CEL rule of
// the CRD to estimate its cost, which is most of a short run's time. It is
// the check cache of internal/apiserver/checkcache, whose doc comment states what an
// entry is keyed by and its policy: only a clean outcome is stored, so a
// CRD that the apiserver refuses is checked again on every run, and its
// errors are always the apiserver's code's own.
//
// A nil *CheckCache misses every time.
type CheckCache struct{ c *checkcache.Cache }

// OpenCheckCache returns the user's check cache, or nil (a cache that
// misses) when CONTROLLER_GEN_DEFAULT_CHECK_CACHE (checkcache.Env) is "off" or there is no user cache
// directory.
func OpenCheckCache() *CheckCache { return wrap(checkcache.Open()) }

func wrap(c *checkcache.Cache) *CheckCache {
	if c == nil {
		return nil
	}
	return &CheckCache{c: c}
}

// cache is the cache c wraps; nil for a nil c.
func (c *CheckCache) cache() *checkcache.Cache {
	if c == nil {
		return nil
	}
	return c.c
}

// ValidateCRD is ValidateCRD, unless the cache holds that this CRD
// validated clean with this code: then nil, without running it.
func (c *CheckCache) ValidateCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) field.ErrorList {
	return checkcache.Run(c.cache(), "create", []*apiextensionsv1.CustomResourceDefinition{crd}, func() []*field.Error {
		return ValidateCRD(ctx, crd)
	})
}

// Cached runs check, a whole-CRD check of crds that is a pure function of
// them and of the code (the apiserver's validation of a CRD update), unless
// the cache holds that it found nothing: then nil. name tells checks apart.
func Cached[T any](c *CheckCache, name string, crds []*apiextensionsv1.CustomResourceDefinition, check func() []T) []T {
	return checkcache.Run(c.cache(), name, crds, check)
}

// ValidateCRDs validates every CRD as ValidateCRD does, through the cache,
// on up to GOMAXPROCS CRDs at once. The result is each CRD's errors, in
// the order of crds.
func (c *CheckCache) ValidateCRDs(ctx context.Context, crds []*apiextensionsv1.CustomResourceDefinition) []field.ErrorList {
	out := make([]field.ErrorList, len(crds))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(crds)) {
		wg.Go(func() {
			for i := range work {
				out[i] = c.ValidateCRD(ctx, crds[i])
			}
		})
	}
	for i := range crds {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}
