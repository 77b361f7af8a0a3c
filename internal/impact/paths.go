package impact

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// A path into an object is a list of map keys (string) and list indexes
// (int).
type path []any

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// String writes a path as the apiserver writes field paths: `spec.a[0].b`,
// with `["a.b"]` for a key that is not an identifier.
func (p path) String() string {
	var b strings.Builder
	for _, seg := range p {
		switch seg := seg.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(seg) + "]")
		case string:
			if !identifier.MatchString(seg) {
				q, _ := json.Marshal(seg)
				b.WriteString("[" + string(q) + "]")
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg)
		}
	}
	return b.String()
}

// child is p with one more segment, in a new slice.
func (p path) child(seg any) path {
	return append(append(path{}, p...), seg)
}

// resolveFieldPath finds, in obj, the value a field error's path names
// (field.Path.String(): `spec.a[0].b`, `spec.m[key]`, where [x] is an
// index into a list or a key of a map, unquoted). It returns the path and
// whether the value exists.
func resolveFieldPath(obj map[string]any, fieldPath string) (path, bool) {
	var p path
	var cur any = obj
	for _, tok := range tokenize(fieldPath) {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return p, false
			}
			p, cur = p.child(tok), v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return p, false
			}
			p, cur = p.child(i), c[i]
		default:
			return p, false
		}
	}
	return p, len(p) > 0
}

// tokenize splits a field path into its names, indexes and keys.
func tokenize(fieldPath string) []string {
	var out []string
	for len(fieldPath) > 0 {
		switch fieldPath[0] {
		case '.':
			fieldPath = fieldPath[1:]
		case '[':
			end := strings.IndexByte(fieldPath, ']')
			if end < 0 {
				return append(out, fieldPath[1:])
			}
			out, fieldPath = append(out, fieldPath[1:end]), fieldPath[end+1:]
		default:
			end := strings.IndexAny(fieldPath, ".[")
			if end < 0 {
				end = len(fieldPath)
			}
			out, fieldPath = append(out, fieldPath[:end]), fieldPath[end:]
		}
	}
	return out
}

// get is the value at p in obj.
func get(obj any, p path) (any, bool) {
	cur := obj
	for _, seg := range p {
		switch c := cur.(type) {
		case map[string]any:
			k, _ := seg.(string)
			v, ok := c[k]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, ok := seg.(int)
			if !ok || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// set replaces the value at p, which must exist, in obj.
func set(obj map[string]any, p path, v any) {
	parent, _ := get(obj, p[:len(p)-1])
	switch c := parent.(type) {
	case map[string]any:
		c[p[len(p)-1].(string)] = v
	case []any:
		c[p[len(p)-1].(int)] = v
	}
}
