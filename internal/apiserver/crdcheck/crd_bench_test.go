package crdcheck

import (
	"context"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// gatewayAPICRDs are gateway-api v1.6.1's experimental CRDs, from the
// module cache (downloaded through the Go module proxy if needed); the
// benchmark is skipped when they cannot be had.
func gatewayAPICRDs(b *testing.B) []*apiextensionsv1.CustomResourceDefinition {
	b.Helper()
	dir, err := realapis.ModuleDir(context.Background(), "sigs.k8s.io/gateway-api", "v1.6.1")
	if err != nil {
		b.Skipf("gateway-api v1.6.1 not available: %v", err)
	}
	crds, err := LoadCRDs(filepath.Join(dir, "config", "crd", "experimental"))
	if err != nil || len(crds) == 0 {
		b.Fatalf("LoadCRDs: %d CRDs, %v", len(crds), err)
	}
	return crds
}

// BenchmarkValidateCRD is the whole-CRD check of gateway-api's 13
// experimental CRDs, one op validating all of them:
//
//   - apiserver: validation.ValidateCustomResourceDefinition on the CRDs
//     as the apiserver holds them (converted before the timer), the
//     apiserver's own cost on a CRD create;
//   - ValidateCRD: the same with the conversion (ToInternal);
//   - cache-miss: CheckCache.ValidateCRD on an empty cache (the check,
//     the key, the entry written), one CRD after the other;
//   - cache-hit: CheckCache.ValidateCRD on a cache that holds them (the
//     key and a file read);
//   - ValidateCRDs-hit: CheckCache.ValidateCRDs, as the commands call it.
func BenchmarkValidateCRD(b *testing.B) {
	ctx := context.Background()
	crds := gatewayAPICRDs(b)
	b.Run("apiserver", func(b *testing.B) {
		for _, c := range crds {
			internal, err := ToInternal(c)
			if err != nil {
				b.Fatal(err)
			}
			if errs := validation.ValidateCustomResourceDefinition(ctx, internal); len(errs) > 0 {
				b.Fatalf("%s: %v", c.Name, errs)
			}
		}
		for b.Loop() {
			for _, c := range crds {
				internal, _ := ToInternal(c)
				b.StopTimer()
				b.StartTimer()
				validation.ValidateCustomResourceDefinition(ctx, internal)
			}
		}
	})
	b.Run("ValidateCRD", func(b *testing.B) {
		for b.Loop() {
			for _, c := range crds {
				ValidateCRD(ctx, c)
			}
		}
	})
	b.Run("cache-miss", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			cache := openCheckCache(b.TempDir())
			b.StartTimer()
			for _, c := range crds {
				cache.ValidateCRD(ctx, c)
			}
		}
	})
	cache := openCheckCache(b.TempDir())
	for _, c := range crds {
		if errs := cache.ValidateCRD(ctx, c); len(errs) > 0 {
			b.Fatalf("%s: %v", c.Name, errs)
		}
	}
	b.Run("cache-hit", func(b *testing.B) {
		for b.Loop() {
			for _, c := range crds {
				cache.ValidateCRD(ctx, c)
			}
		}
	})
	b.Run("ValidateCRDs-hit", func(b *testing.B) {
		for b.Loop() {
			cache.ValidateCRDs(ctx, crds)
		}
	})
}
