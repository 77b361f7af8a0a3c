package conversion

import (
	"encoding/json"
	"fmt"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// Seg is one step of a path into an object: a property of a schema's
// properties, a list item, or a key of a map (additionalProperties).
type Seg struct {
	Name string // the property or key
	Item bool   // a list item (Name is unused)
	Key  bool   // a map key
}

// Path is where a value lies in an object of one version.
type Path []Seg

// String is the path as the CRD's fields are written: spec.items[].name,
// spec.labels[key].
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.Item:
			b.WriteString("[]")
		case s.Key:
			fmt.Fprintf(&b, "[%s]", s.Name)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		}
	}
	return b.String()
}

// Field is the path with map keys left out: what names one Go field,
// whichever keys an object has.
func (p Path) Field() string {
	q := make(Path, 0, len(p))
	for _, s := range p {
		if s.Key {
			s.Name = "*"
		}
		q = append(q, s)
	}
	return q.String()
}

// absent stands for a value an object does not have.
type absentT struct{}

func (absentT) String() string               { return "absent" }
func (absentT) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

var absent any = absentT{}

// Show writes a value for a message: JSON, or "absent".
func Show(v any) string {
	if _, ok := v.(absentT); ok {
		return "absent"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Diff is one value that differs between two objects of one version.
type Diff struct {
	Path Path
	// Before and After are the values, absent where one object has none.
	Before, After any
}

// sameValue compares two JSON values as the apiserver stores them
// (jsonnum.Equal): numbers by value.
func sameValue(a, b any) bool { return jsonnum.Equal(a, b) }

// get is the value at p in obj, or absent.
func get(obj any, p Path) any {
	cur := obj
	for _, s := range p {
		m, ok := cur.(map[string]any)
		if !ok || s.Item {
			return absent
		}
		v, ok := m[s.Name]
		if !ok {
			return absent
		}
		cur = v
	}
	return cur
}

// set sets the value at p, a path of properties, in obj, making the
// objects on the way.
func set(obj map[string]any, p Path, v any) {
	cur := obj
	for i, s := range p {
		if i == len(p)-1 {
			cur[s.Name] = v
			return
		}
		next, ok := cur[s.Name].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[s.Name] = next
		}
		cur = next
	}
}

// del deletes the value at p, a path of properties, from obj.
func del(obj map[string]any, p Path) {
	cur := obj
	for i, s := range p {
		if i == len(p)-1 {
			delete(cur, s.Name)
			return
		}
		next, ok := cur[s.Name].(map[string]any)
		if !ok {
			return
		}
		cur = next
	}
}

// schemaAt is the schema of the property path p, or nil when p leaves
// properties.
func schemaAt(s *structuralschema.Structural, p Path) *structuralschema.Structural {
	for _, seg := range p {
		if s == nil || seg.Item || seg.Key {
			return nil
		}
		sub, ok := s.Properties[seg.Name]
		if !ok {
			return nil
		}
		s = &sub
	}
	return s
}
