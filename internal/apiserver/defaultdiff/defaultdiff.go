// Package defaultdiff lists the defaults that were added, changed or removed
// between two versions of a CRD, per CRD version and JSON path.
//
// It depends only on the apiextensions v1 types, so that the crd generator
// can say which defaults a regeneration changes without linking the
// apiserver (package internal/impact, which uses it too, links the
// apiserver's storage layer).
package defaultdiff

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// Change is one default that differs between two CRDs.
type Change struct {
	// Version is the CRD version (spec.versions[].name).
	Version string `json:"version"`
	// Path is the JSON path of the defaulted value in an object of that
	// version: `spec.ports[*].protocol` (`[*]` is every item of a list),
	// `spec.labels.*` (`.*` is every value of a map), `spec["a.b"]` for a
	// property name that is not an identifier.
	Path string `json:"path"`
	// Old and New are the defaults as compact JSON; nil when absent.
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
	// Field is the Go field that declares the default, for callers that know
	// it (the crd generator, at generation time). Diff leaves it empty: a CRD
	// has no Go types.
	Field string `json:"field,omitempty"`
}

// What a Change does.
const (
	Added   = "added"
	Changed = "changed"
	Removed = "removed"
)

// Kind is Added, Changed or Removed.
func (c Change) Kind() string {
	switch {
	case c.Old == nil:
		return Added
	case c.New == nil:
		return Removed
	default:
		return Changed
	}
}

// Diff lists the defaults that differ between old and new, in a stable
// order: versions as new lists them, then the versions only old has, in its
// order; within a version, by path. A version only one side has contributes
// all its defaults (as added or removed). Defaults are compared as JSON
// values (`{"a": 1}` and `{"a":1}` are the same default). A nil CRD has no
// defaults.
func Diff(old, new *apiextensionsv1.CustomResourceDefinition) []Change {
	oldDefaults, newDefaults := defaultsByVersion(old), defaultsByVersion(new)
	var out []Change
	for _, v := range versionOrder(old, new) {
		out = append(out, diffVersion(v, oldDefaults[v], newDefaults[v])...)
	}
	return out
}

// Versions lists the defaults that differ between two versions of one CRD,
// by path: Old is version a's default, New version b's, and Version is b.
// A version the CRD does not have has no defaults.
func Versions(crd *apiextensionsv1.CustomResourceDefinition, a, b string) []Change {
	defaults := defaultsByVersion(crd)
	return diffVersion(b, defaults[a], defaults[b])
}

// versionOrder is new's versions, then old's that new does not have.
func versionOrder(old, new *apiextensionsv1.CustomResourceDefinition) []string {
	var out []string
	for _, c := range []*apiextensionsv1.CustomResourceDefinition{new, old} {
		if c == nil {
			continue
		}
		for _, v := range c.Spec.Versions {
			if !slices.Contains(out, v.Name) {
				out = append(out, v.Name)
			}
		}
	}
	return out
}

// diffVersion compares the defaults of one version, path by path.
func diffVersion(version string, old, new map[string]json.RawMessage) []Change {
	var paths []string
	for p := range old {
		paths = append(paths, p)
	}
	for p := range new {
		if _, ok := old[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []Change
	for _, p := range paths {
		o, n := old[p], new[p]
		if o != nil && n != nil && bytes.Equal(o, n) {
			continue
		}
		out = append(out, Change{Version: version, Path: p, Old: o, New: n})
	}
	return out
}

// defaultsByVersion maps each version of crd to its defaults by path.
func defaultsByVersion(crd *apiextensionsv1.CustomResourceDefinition) map[string]map[string]json.RawMessage {
	out := map[string]map[string]json.RawMessage{}
	if crd == nil {
		return out
	}
	for _, v := range crd.Spec.Versions {
		defaults := map[string]json.RawMessage{}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			collect(v.Schema.OpenAPIV3Schema, "", defaults)
		}
		out[v.Name] = defaults
	}
	return out
}

// collect records the default of s and of every schema below it that an
// object can reach: properties, items and additionalProperties (a
// structural schema has no defaults anywhere else).
func collect(s *apiextensionsv1.JSONSchemaProps, path string, into map[string]json.RawMessage) {
	if s.Default != nil && path != "" {
		into[path] = canonical(s.Default.Raw)
	}
	for name, p := range s.Properties {
		collect(&p, child(path, name), into)
	}
	if s.Items != nil && s.Items.Schema != nil {
		collect(s.Items.Schema, path+"[*]", into)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		collect(s.AdditionalProperties.Schema, path+".*", into)
	}
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// child is the path of property name below path.
func child(path, name string) string {
	if !identifier.MatchString(name) {
		q, _ := json.Marshal(name)
		return path + "[" + string(q) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// canonical is raw as the apiserver stores it (jsonnum.CanonicalJSON:
// keys sorted, numbers by value), so that equal defaults compare equal.
// Invalid JSON is returned as is.
func canonical(raw []byte) json.RawMessage {
	if b, err := jsonnum.CanonicalJSON(raw); err == nil {
		return b
	}
	return json.RawMessage(strings.TrimSpace(string(raw)))
}
