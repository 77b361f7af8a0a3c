package impact

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/quote"
)

// Effect is what a default that NEW's read adds does to the clients of the
// API: the grouped report says each once, and only EffectNews is news for
// a reviewer.
type Effect string

const (
	// EffectNews: the default changes what a client that applies
	// manifests (kubectl, GitOps) reads: an author's default, or a value
	// a Go client of the API's types does not send.
	EffectNews Effect = "changes-reads"
	// EffectStatus: a default under status, which the object shows on
	// read until its controller's first status write replaces status.
	EffectStatus Effect = "status"
	// EffectGoSends: a zero value that a Go client of the API's types
	// already sends (a non-pointer field without omitempty, a non-pointer
	// struct without omitzero), so that no Go client sees a change.
	EffectGoSends Effect = "go-client-sends"
	// EffectZero: a zero value ({}, "", 0, false) whose Go field was not
	// looked at (no --types): what a Go client sends when the field is
	// not a pointer and does not omit it, else news.
	EffectZero Effect = "zero-value"
)

// effectOrder is the order of the grouped report: news first.
var effectOrder = []Effect{EffectNews, EffectZero, EffectStatus, EffectGoSends}

// GoClient says what a Go client of the API's types sends.
type GoClient interface {
	// Encode is obj, an object of gvk, as a Go client of the API's types
	// sends it: decoded into the kind's Go root type and encoded again,
	// so that every field the types write when unset is there. ok is
	// false when no Go type of gvk is known.
	Encode(gvk schema.GroupVersionKind, obj map[string]any) (sent map[string]any, ok bool)
}

// maxExamples is how many objects a group names.
const maxExamples = 3

// defaultGroup is a default that NEW's read adds to many objects alike:
// one CRD, one JSON path (list items as [*]), one value.
type defaultGroup struct {
	CRD      string
	Path     string
	Value    string // as JSON
	Effect   Effect
	Versions []string // read at, sorted
	Objects  int
	Examples []string // the first objects' distinct names, as Kind namespace/name
}

// grouper collects the defaults that read adds, across objects, into
// groups: memory grows with the distinct (CRD, path, value) triples, not
// with the objects.
type grouper struct {
	groups   map[[3]string]*defaultGroup
	goClient GoClient // nil: the Go types are not known
}

func newGrouper(goClient GoClient) *grouper {
	return &grouper{groups: map[[3]string]*defaultGroup{}, goClient: goClient}
}

var listIndex = regexp.MustCompile(`\[[0-9]+\]`)

// add counts the defaults r's read adds, each object once per group.
func (g *grouper) add(r *Record) {
	if len(r.Changes.Added) == 0 || r.Read == nil {
		return
	}
	// what a Go client sends for the object as stored, when the object is
	// read at its own version (else the paths are another version's)
	var sent map[string]any
	known := false
	if g.goClient != nil && r.Stored != nil && cmp.Or(r.ReadVersion, versionOf(r.APIVersion)) == versionOf(r.APIVersion) {
		sent, known = g.goClient.Encode(schema.FromAPIVersionAndKind(r.APIVersion, r.Kind), r.Stored)
	}
	seen := map[*defaultGroup]bool{}
	for _, p := range r.Changes.Added {
		v := valueAtPath(r.Read, p)
		b, err := json.Marshal(v)
		if err != nil {
			continue
		}
		generic := listIndex.ReplaceAllString(p, "[*]")
		key := [3]string{r.CRD, generic, string(b)}
		grp := g.groups[key]
		if grp == nil {
			grp = &defaultGroup{CRD: r.CRD, Path: generic, Value: string(b), Effect: effectOf(generic, v, sent, p, known)}
			g.groups[key] = grp
		}
		if seen[grp] {
			continue
		}
		seen[grp] = true
		grp.Objects++
		if name := r.Kind + " " + r.objectName(); len(grp.Examples) < maxExamples && !slices.Contains(grp.Examples, name) {
			grp.Examples = append(grp.Examples, name) // samples often reuse a name
		}
		if v := cmp.Or(r.ReadVersion, versionOf(r.APIVersion)); !slices.Contains(grp.Versions, v) {
			grp.Versions = append(grp.Versions, v)
			slices.Sort(grp.Versions)
		}
	}
}

// effectOf classifies a default at path (p in the object, generic with
// list items as [*]) with value v: under status; else, with what a Go
// client sends for the object known, whether it sends v there already
// (EffectGoSends) or not (news); without it, a zero value (EffectZero) or
// news.
func effectOf(generic string, v any, sent map[string]any, p string, known bool) Effect {
	switch {
	case generic == "status" || strings.HasPrefix(generic, "status.") || strings.HasPrefix(generic, "status["):
		return EffectStatus
	case known && sameJSON(valueAtPath(sent, p), v):
		return EffectGoSends
	case known || !isZeroValue(v):
		return EffectNews
	}
	return EffectZero
}

// isZeroValue says whether v is a zero value as encoding/json writes one
// for a Go field left unset: "", 0, false, or an object whose members are
// all zero values ({} included).
func isZeroValue(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case bool:
		return !v
	case int64:
		return v == 0
	case float64:
		return v == 0
	case json.Number:
		return strings.Trim(string(v), "0.-") == ""
	case map[string]any:
		for _, c := range v {
			if !isZeroValue(c) {
				return false
			}
		}
		return true
	}
	return false
}

// sorted are the groups, news first, then by objects (most first), CRD
// and path.
func (g *grouper) sorted() []*defaultGroup {
	out := make([]*defaultGroup, 0, len(g.groups))
	for _, grp := range g.groups {
		out = append(out, grp)
	}
	slices.SortFunc(out, func(a, b *defaultGroup) int {
		return cmp.Or(
			cmp.Compare(slices.Index(effectOrder, a.Effect), slices.Index(effectOrder, b.Effect)),
			cmp.Compare(b.Objects, a.Objects),
			strings.Compare(a.CRD, b.CRD),
			strings.Compare(a.Path, b.Path),
			strings.Compare(a.Value, b.Value))
	})
	return out
}

// effectText is how the grouped report says each effect, once.
var effectText = map[Effect]string{
	EffectNews:    "change what a client that applies manifests reads",
	EffectZero:    "zero values, which a Go client sends for a non-pointer field without omitempty (--types checks which)",
	EffectStatus:  "under status: shown on read until the controller's first status write",
	EffectGoSends: "zero values a Go client of the API's types already sends: no Go client sees a change",
}

// groupsShown is how many groups of each effect the text report lists;
// the rest are counted. News is listed in full up to its own limit.
var groupsShown = map[Effect]int{EffectNews: 30, EffectZero: 10, EffectStatus: 5, EffectGoSends: 5}

// writeGroups writes the defaults read adds, grouped across objects: a
// line per effect, then a line per group (objects, CRD, versions, path =
// value, and the first objects).
func writeGroups(w *indented, groups []*defaultGroup, gaining int) {
	if len(groups) == 0 {
		return
	}
	w.line(fmt.Sprintf("%d %s gain defaults on read under NEW, in %d %s (CRD, path, value):", gaining, plural(gaining, "object"), len(groups), plural(len(groups), "group")))
	for _, e := range effectOrder {
		var of []*defaultGroup
		objects := 0
		for _, g := range groups {
			if g.Effect == e {
				of = append(of, g)
				objects += g.Objects
			}
		}
		if len(of) == 0 {
			continue
		}
		w.line(fmt.Sprintf("  %s: %d %s", effectText[e], len(of), plural(len(of), "group")))
		shown := min(len(of), groupsShown[e])
		if len(of)-shown == 1 {
			shown++ // its own line takes no more room than a line that counts it
		}
		for _, g := range of[:shown] {
			w.line(fmt.Sprintf("    %6d  %s %s: %s = %s  e.g. %s", g.Objects, g.CRD, strings.Join(g.Versions, ","), g.Path, quote.Excerpt(g.Value), strings.Join(g.Examples, ", ")))
		}
		if rest := of[shown:]; len(rest) > 0 {
			n := 0
			for _, g := range rest {
				n += g.Objects
			}
			w.line(fmt.Sprintf("    %6d  in %d more %s (-v or -o json shows each object's)", n, len(rest), plural(len(rest), "group")))
		}
	}
}

func plural(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}

// quiet are the categories that do not name an object in the grouped
// report: unchanged, gaining defaults (grouped), a new storage version and
// new with NEW (informational).
var quiet = []string{Unchanged, GainsDefaults, StorageVersionChanged, NewOnly}

// named says whether the grouped report names r, on a line of its own:
// when a category of it is not quiet.
func named(r *Record) bool {
	for _, c := range r.Categories {
		if !slices.Contains(quiet, c) {
			return true
		}
	}
	return false
}

// briefLine is an object's line in the grouped report: where it was
// read, what it is, its categories, and its first problem.
func briefLine(r *Record) string {
	var cats []string
	for _, c := range r.Categories {
		if !slices.Contains(quiet, c) {
			cats = append(cats, categoryText[c])
		}
	}
	line := fmt.Sprintf("%s: %s %s (%s): %s", r.Source, r.Kind, r.objectName(), r.APIVersion, strings.Join(cats, ", "))
	if first, more := firstProblem(r); first != "" {
		line += ": " + first
		if more > 0 {
			line += fmt.Sprintf(" (and %d more)", more)
		}
	}
	return line
}

// firstProblem is the first thing wrong with r, in the order of the steps
// (update refused, OLD refuses it, held by ratcheting, data lost), and how
// many more there are of that kind.
func firstProblem(r *Record) (string, int) {
	switch {
	case r.Update != nil && r.Update.Refused && len(r.Update.Problems) > 0:
		return r.Update.Problems[0].String(), len(r.Update.Problems) - 1
	case len(r.InvalidUnderNew) > 0:
		return r.InvalidUnderNew[0].String(), len(r.InvalidUnderNew) - 1
	case len(r.InvalidUnderOld) > 0:
		return r.InvalidUnderOld[0].String(), len(r.InvalidUnderOld) - 1
	case len(r.Ratcheted) > 0:
		return r.Ratcheted[0].Problem.String(), len(r.Ratcheted) - 1
	case r.ConversionFailed != nil:
		return r.ConversionFailed.String(), 0
	case len(r.Changes.Removed) > 0:
		return "loses " + r.Changes.Removed[0], len(r.Changes.Removed) - 1 + len(r.Changes.Changed)
	case len(r.Changes.Changed) > 0:
		return "changes " + r.Changes.Changed[0], len(r.Changes.Changed) - 1
	}
	return "", 0
}

// sameJSON says whether a and b are the same JSON (whatever Go types hold
// their numbers).
func sameJSON(a, b any) bool {
	ja, err := json.Marshal(a)
	if err != nil {
		return false
	}
	jb, err := json.Marshal(b)
	return err == nil && bytes.Equal(ja, jb)
}
