package impact

import (
	"reflect"
	"slices"
	"sort"
)

// Changes are the differences between the object as stored under OLD and
// as read under NEW, by path.
type Changes struct {
	// Added are the fields read adds (new defaults), the topmost of each
	// added subtree.
	Added []string `json:"added,omitempty"`
	// Removed are the fields read drops (pruned: data the next write loses).
	Removed []string `json:"removed,omitempty"`
	// Changed are the values read changes.
	Changed []string `json:"changed,omitempty"`
}

// diffObjects compares two objects field by field, apiVersion aside (a
// version change is reported as such). Lists are compared item by item.
func diffObjects(before, after map[string]any) Changes {
	var c Changes
	b, a := withoutAPIVersion(before), withoutAPIVersion(after)
	c.walk(nil, b, a)
	return c
}

func (c *Changes) walk(p path, before, after any) {
	switch b := before.(type) {
	case map[string]any:
		a, ok := after.(map[string]any)
		if !ok {
			c.Changed = append(c.Changed, p.String())
			return
		}
		c.walkMaps(p, b, a)
	case []any:
		a, ok := after.([]any)
		if !ok {
			c.Changed = append(c.Changed, p.String())
			return
		}
		for i := 0; i < max(len(a), len(b)); i++ {
			switch {
			case i >= len(a):
				c.Removed = append(c.Removed, p.child(i).String())
			case i >= len(b):
				c.Added = append(c.Added, p.child(i).String())
			default:
				c.walk(p.child(i), b[i], a[i])
			}
		}
	default:
		if !reflect.DeepEqual(before, after) {
			c.Changed = append(c.Changed, p.String())
		}
	}
}

// walkMaps compares two maps key by key, in key order.
func (c *Changes) walkMaps(p path, before, after map[string]any) {
	keys := make([]string, 0, len(before)+len(after))
	for k := range before {
		keys = append(keys, k)
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		bv, inBefore := before[k]
		av, inAfter := after[k]
		switch {
		case !inAfter:
			c.Removed = append(c.Removed, p.child(k).String())
		case !inBefore:
			c.Added = append(c.Added, p.child(k).String())
		default:
			c.walk(p.child(k), bv, av)
		}
	}
}

func withoutAPIVersion(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "apiVersion" {
			out[k] = v
		}
	}
	return out
}

// loses says whether read drops or changes data.
func (c Changes) loses() bool {
	return len(c.Removed) > 0 || len(c.Changed) > 0
}

// sorted returns c with its lists sorted.
func (c Changes) sorted() Changes {
	slices.Sort(c.Added)
	slices.Sort(c.Removed)
	slices.Sort(c.Changed)
	return c
}
