package conversion

import (
	"bufio"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// A finding about a field declared outside the user's module (a shared
// type's field: k8s.io/api's ObjectReference.UID, which many of the
// user's fields hold) goes to the user's field that holds it: the deepest
// field on the path declared in the user's module, the module of the
// version's root type. Its message names the shared field and where it is
// declared relative to its module (k8s.io/api/core/v1/types.go:7412), not
// in the module cache. So findings on one shared line are one per user
// field and path, each where the user can act on it.

// chainer gives the Go fields on a path, outermost first (loaded does);
// positions without it are placed at the deepest field, as before.
type chainer interface {
	fieldChain(gvk schema.GroupVersionKind, p Path) []*model.Field
}

// link is one Go field on a path, as attribution sees it.
type link struct {
	// Field is the model's field, for the finding's position and Type.Field.
	Field *model.Field
	Pos   token.Position
	// Name is the field's JSON name, Type its declaring type as Go code of
	// another package writes it (corev1.ObjectReference).
	Name, Type string
}

// attribution is where a finding about a path goes: User, the deepest
// field of the user's module on it (nil: none), and Shared, the deepest
// field on it when that one is declared elsewhere (nil: it is the
// user's).
type attribution struct {
	User, Shared *link
}

// attribute picks the user's field and the shared one from the fields on
// a path, outermost first: a field is the user's when its file is below
// moduleDir.
func attribute(chain []link, moduleDir string) attribution {
	var a attribution
	if len(chain) == 0 {
		return a
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if below(chain[i].Pos.Filename, moduleDir) {
			a.User = &chain[i]
			break
		}
	}
	if last := &chain[len(chain)-1]; a.User != last {
		a.Shared = last
	}
	return a
}

// below says whether file is in dir or under it.
func below(file, dir string) bool {
	if dir == "" || file == "" {
		return false
	}
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// sharedNote is what a message says of a shared field: "uid of
// corev1.ObjectReference (k8s.io/api/core/v1/types.go:7412)".
func sharedNote(l *link) string {
	return fmt.Sprintf("%s of %s (%s)", l.Name, l.Type, modulePos(l.Pos))
}

// fieldChain are the Go fields on p in an object of gvk, outermost first,
// as field walks them (a list's or map's field stands for its items and
// keys).
func (l *loaded) fieldChain(gvk schema.GroupVersionKind, p Path) []*model.Field {
	var out []*model.Field
	for i := 1; i <= len(p); i++ {
		f, ok := l.field(gvk, p[:i])
		if !ok {
			continue
		}
		if len(out) == 0 || out[len(out)-1] != f {
			out = append(out, f)
		}
	}
	return out
}

// links are the fields of chain for attribute.
func links(chain []*model.Field) []link {
	out := make([]link, 0, len(chain))
	for _, f := range chain {
		typ := f.Owner
		if f.Pkg != nil {
			typ = pkgAlias(f.Pkg.PkgPath, f.Pkg.Name) + "." + f.Owner
		}
		out = append(out, link{Field: f, Pos: f.Pos(), Name: f.Tag.Name, Type: typ})
	}
	return out
}

var versionName = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]*)?$`)

// pkgAlias is how Kubernetes code names a package when it imports it: a
// package named as a version by its parent directory and its name
// (k8s.io/api/core/v1: corev1, .../apis/meta/v1: metav1), else its name.
func pkgAlias(pkgPath, name string) string {
	if versionName.MatchString(name) {
		parts := strings.Split(pkgPath, "/")
		if len(parts) >= 2 {
			return parts[len(parts)-2] + name
		}
	}
	return name
}

// userModuleDir is the directory of the module of gvk's root type: the
// directory of the go.mod above its file ("" if none).
func userModuleDir(pos positions, gvk schema.GroupVersionKind) string {
	tp, ok := pos.typePos(gvk)
	if !ok {
		return ""
	}
	dir, _ := moduleOf(tp.Filename)
	return dir
}

var moduleCache sync.Map // directory → [2]string{moduleDir, modulePath}

// moduleOf is the directory and path of the module whose go.mod is the
// nearest above file.
func moduleOf(file string) (dir, path string) {
	start := filepath.Dir(file)
	if v, ok := moduleCache.Load(start); ok {
		m := v.([2]string)
		return m[0], m[1]
	}
	for d := start; ; d = filepath.Dir(d) {
		if f, err := os.Open(filepath.Join(d, "go.mod")); err == nil {
			s := bufio.NewScanner(f)
			for s.Scan() {
				line := strings.TrimSpace(s.Text())
				if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
					path = strings.Trim(strings.TrimSpace(rest), `"`)
					break
				}
			}
			_ = f.Close() // read only: Close loses nothing
			dir = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	moduleCache.Store(start, [2]string{dir, path})
	return dir, path
}

// modulePos is a position outside the user's module as its module path
// and the file within it: k8s.io/api/core/v1/types.go:7412 (a file with
// no go.mod above stays as it is).
func modulePos(p token.Position) string {
	dir, mod := moduleOf(p.Filename)
	if dir == "" || mod == "" {
		return relFile(p).String()
	}
	rel, err := filepath.Rel(dir, p.Filename)
	if err != nil {
		return relFile(p).String()
	}
	return fmt.Sprintf("%s/%s:%d", mod, filepath.ToSlash(rel), p.Line)
}
