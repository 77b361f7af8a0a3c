// Package checkcache is the one cache of the apiserver's checks of CRDs,
// shared by the crd generator (crdgen: ValidateCustomResourceDefinition and
// the nested-default checks of each generated CRD) and by normalize and
// impact (the whole-CRD checks on create and on update).
package checkcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache/codeid"
)

// Env turns the cache off when set to "off":
// CONTROLLER_GEN_DEFAULT_CHECK_CACHE=off.
const Env = "CONTROLLER_GEN_DEFAULT_CHECK_CACHE"

// Cache remembers the checks of CRDs that found nothing.
//
// An entry is keyed by the name of the check ("create", "update",
// "generate"), the checked CRDs exactly as the apiserver receives them
// (their JSON, in order), and the code that checked them (codeid.Identity:
// every module of the build with its version and checksum, or, for a build
// without versions, the executable itself; and the state of every feature
// gate). A check is a pure function of those, so a hit is exactly as good
// as a run.
//
// The policy on failures: only a clean outcome is stored (Run). A check
// that finds something runs again on every run, so that its errors are
// always those of the apiserver's code of this run, never a file's.
//
// Entries live in the user cache directory
// ($XDG_CACHE_HOME/controller-gen-default/checks), one small file each
// that holds its own key (a file that is not one, truncated or foreign,
// misses), written atomically (a temporary file renamed over the entry),
// so that concurrent runs that check the same CRDs at worst both check
// them. Removing the directory is always safe.
//
// It also holds values that the code derives from bytes alone (DataKey,
// Load, Store: the CRDs decoded from a CRD file), under the same salt and
// policy: only a result without error is stored, and an entry holds its
// key and its value's SHA-256, so a damaged one misses.
//
// A nil *Cache misses every time and stores nothing.
type Cache struct {
	dir  string
	salt []byte
}

// Open returns the user's check cache, or nil (a cache that misses) when
// Env is "off" or there is no user cache directory.
func Open() *Cache {
	if os.Getenv(Env) == "off" {
		return nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return OpenDir(filepath.Join(base, "controller-gen-default", "checks"))
}

// OpenDir is a check cache in dir, or nil when the running code cannot be
// named (codeid.Identity), since then nothing may be cached.
func OpenDir(dir string) *Cache {
	salt := codeid.Identity()
	if salt == nil {
		return nil
	}
	return &Cache{dir: dir, salt: salt}
}

// Key is the entry of check on crds ("" when there is none: a nil cache, or
// a CRD that does not encode).
func (c *Cache) Key(check string, crds ...*apiextensionsv1.CustomResourceDefinition) string {
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

// Clean says whether the entry key records a clean outcome.
func (c *Cache) Clean(key string) bool {
	if key == "" {
		return false
	}
	b, err := os.ReadFile(c.Path(key))
	return err == nil && string(b) == key
}

// MarkClean records a clean outcome. A failure to write costs a later run
// only time.
func (c *Cache) MarkClean(key string) {
	if key == "" {
		return
	}
	c.write(key, []byte(key))
}

// DataKey is the entry of a value that the code derives from some bytes
// alone (a CRD file's decoded CRDs), named what ("crds"), those bytes by
// their SHA-256 digest ("" for a nil cache). Such an entry lives among the
// checks' entries, under another key: the salt is the same, so a new build
// never reads an old build's value.
func (c *Cache) DataKey(what string, digest []byte) string {
	if c == nil {
		return ""
	}
	h := sha256.New()
	h.Write(c.salt)
	fmt.Fprintf(h, "data %s %d\n", what, len(digest))
	h.Write(digest)
	return hex.EncodeToString(h.Sum(nil))
}

// Load is the value stored under key (Store), or false. The entry holds
// its key and the SHA-256 of the value: a file that does not (foreign,
// truncated, a clean outcome's entry) misses.
func (c *Cache) Load(key string) ([]byte, bool) {
	if key == "" {
		return nil, false
	}
	b, err := os.ReadFile(c.Path(key))
	if err != nil {
		return nil, false
	}
	head, value, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		return nil, false
	}
	sum := sha256.Sum256(value)
	if string(head) != key+" "+hex.EncodeToString(sum[:]) {
		return nil, false
	}
	return value, true
}

// Store stores value under key, written as MarkClean writes (a temporary
// file renamed over the entry: concurrent runs that store the same entry
// write the same bytes, and a reader sees one of them whole). A failure
// to write costs a later run only time.
func (c *Cache) Store(key string, value []byte) {
	if key == "" {
		return
	}
	sum := sha256.Sum256(value)
	c.write(key, []byte(key+" "+hex.EncodeToString(sum[:])+"\n"), value)
}

// write writes the entry key, parts one after the other, atomically.
func (c *Cache) write(key string, parts ...[]byte) {
	path := c.Path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	var werr error
	for _, p := range parts {
		if _, err := f.Write(p); err != nil && werr == nil {
			werr = err
		}
	}
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		_ = os.Remove(f.Name())
	}
}

// Path is the file of the entry key.
func (c *Cache) Path(key string) string { return filepath.Join(c.dir, key[:2], key) }

// Run is the cache's policy: it runs check, named name, on crds, unless
// the cache holds that it found nothing on them with this code (then nil,
// without running it), and stores the outcome only when it found nothing.
// check must be a pure function of crds and of the code.
func Run[T any](c *Cache, name string, crds []*apiextensionsv1.CustomResourceDefinition, check func() []T) []T {
	key := c.Key(name, crds...)
	if c.Clean(key) {
		return nil
	}
	out := check()
	if len(out) == 0 {
		c.MarkClean(key)
	}
	return out
}
