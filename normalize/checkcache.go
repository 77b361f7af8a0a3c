package normalize

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/controller-gen-default/controller-gen-default/internal/codeid"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// CheckCacheEnv turns the check caches off when set to "off": the
// generator's (crdgen) and this one.
const CheckCacheEnv = "CONTROLLER_GEN_DEFAULT_CHECK_CACHE"

// CheckCache remembers the CRDs that the apiserver's whole-CRD checks
// accepted, so that normalize and impact do not run them again on the
// same CRDs: ValidateCustomResourceDefinition compiles every CEL rule of
// the CRD to estimate its cost, which is most of a short run's time.
//
// An entry is keyed by what the check is ("create", "update"), the
// checked CRDs exactly as the apiserver receives them (their JSON), the
// code that checked them (every module of the build with its version and
// checksum, or, for a build without versions, the executable itself) and
// the state of every feature gate. The checks are a pure function of
// those, so a hit is exactly as good as a run. Only a clean outcome is
// stored: a CRD that the apiserver refuses is checked again on every run,
// and its errors are always the apiserver's code's own. Entries live in
// the user cache directory ($XDG_CACHE_HOME/controller-gen-default/
// normalize-checks), one small file each, written atomically (a
// temporary file renamed over the entry), so concurrent runs that check
// the same CRDs at worst both check them. Removing the directory is
// always safe.
//
// A nil *CheckCache misses every time.
type CheckCache struct {
	dir  string
	salt []byte
}

// OpenCheckCache returns the user's check cache, or nil (a cache that
// misses) when CheckCacheEnv is "off" or there is no user cache
// directory.
func OpenCheckCache() *CheckCache {
	if os.Getenv(CheckCacheEnv) == "off" {
		return nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return openCheckCache(filepath.Join(base, "controller-gen-default", "normalize-checks"))
}

// openCheckCache is a check cache in dir.
func openCheckCache(dir string) *CheckCache {
	salt := codeid.Identity()
	if salt == nil {
		return nil
	}
	return &CheckCache{dir: dir, salt: salt}
}

// key is the entry of check on crds ("" when there is none).
func (c *CheckCache) key(check string, crds ...*apiextensionsv1.CustomResourceDefinition) string {
	if c == nil {
		return ""
	}
	h := sha256.New()
	h.Write(c.salt)
	fmt.Fprintf(h, "%s %d\n", check, len(crds))
	for _, crd := range crds {
		b, err := json.Marshal(crd)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// clean says whether the entry records a clean outcome. An entry holds
// its own key, so that a file that is not one (truncated, foreign) misses.
func (c *CheckCache) clean(key string) bool {
	if key == "" {
		return false
	}
	b, err := os.ReadFile(c.path(key))
	return err == nil && string(b) == key
}

// markClean records a clean outcome. A failure to write costs a later run
// only time.
func (c *CheckCache) markClean(key string) {
	if key == "" {
		return
	}
	path := c.path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.WriteString(key)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		_ = os.Remove(f.Name())
	}
}

func (c *CheckCache) path(key string) string { return filepath.Join(c.dir, key[:2], key) }

// ValidateCRD is ValidateCRD, unless the cache holds that this CRD
// validated clean with this code: then nil, without running it.
func (c *CheckCache) ValidateCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) field.ErrorList {
	key := c.key("create", crd)
	if c.clean(key) {
		return nil
	}
	errs := ValidateCRD(ctx, crd)
	if len(errs) == 0 {
		c.markClean(key)
	}
	return errs
}

// Cached runs check, a whole-CRD check of crds that is a pure function of
// them and of the code (the apiserver's validation of a CRD update), unless
// the cache holds that it found nothing: then nil. name tells checks apart.
func Cached[T any](c *CheckCache, name string, crds []*apiextensionsv1.CustomResourceDefinition, check func() []T) []T {
	key := c.key(name, crds...)
	if c.clean(key) {
		return nil
	}
	out := check()
	if len(out) == 0 {
		c.markClean(key)
	}
	return out
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
