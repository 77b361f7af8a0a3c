package crdgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/codeid"
)

// CheckCacheEnv turns the check cache off when set to "off".
const CheckCacheEnv = "CONTROLLER_GEN_DEFAULT_CHECK_CACHE"

// checkCache remembers what the checks said about a CRD, keyed by the
// CRD's content and by the code that checked it, so that `make manifests`
// on unchanged API types does not validate the same CRDs again. The checks
// are a pure function of those two, so a hit is exactly as good as a run.
// Entries live in the user cache directory
// ($XDG_CACHE_HOME/controller-gen-default/checks).
type checkCache struct {
	dir  string
	salt []byte
}

// openCheckCache returns nil, a cache that misses, when it is turned off or
// there is no cache directory.
func openCheckCache() *checkCache {
	if os.Getenv(CheckCacheEnv) == "off" {
		return nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return &checkCache{dir: filepath.Join(base, "controller-gen-default", "checks"), salt: codeid.Identity()}
}

func (c *checkCache) key(crd *apiextensionsv1.CustomResourceDefinition) string {
	if c == nil || c.salt == nil {
		return ""
	}
	b, err := json.Marshal(crd)
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write(c.salt)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *checkCache) get(key string) (checkOutcome, bool) {
	var out checkOutcome
	if key == "" {
		return out, false
	}
	b, err := os.ReadFile(filepath.Join(c.dir, key[:2], key))
	if err != nil || json.Unmarshal(b, &out) != nil {
		return checkOutcome{}, false
	}
	return out, true
}

// put stores an outcome; a failure to write only costs a later run time.
func (c *checkCache) put(key string, out checkOutcome) {
	if key == "" {
		return
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	_ = atomicout.WriteFile(filepath.Join(c.dir, key[:2], key), b)
}
