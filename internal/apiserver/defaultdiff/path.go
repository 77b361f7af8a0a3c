package defaultdiff

import (
	"encoding/json"
	"strings"
)

// SchemaPathOf is the schema path below openAPIV3Schema of a
// Change.Path, which names a node as the apiserver's errors do:
// `spec.ports[*].protocol` is
// `properties[spec].properties[ports].items.properties[protocol]`.
func SchemaPathOf(path string) string {
	var segs []string
	for i := 0; i < len(path); {
		switch {
		case strings.HasPrefix(path[i:], "[*]"):
			segs = append(segs, "items")
			i += 3
		case strings.HasPrefix(path[i:], ".*"):
			segs = append(segs, "additionalProperties")
			i += 2
		case strings.HasPrefix(path[i:], `["`):
			end := strings.Index(path[i:], `"]`)
			if end < 0 {
				return strings.Join(segs, ".")
			}
			var name string
			if err := json.Unmarshal([]byte(path[i+1:i+end+1]), &name); err != nil {
				return strings.Join(segs, ".")
			}
			segs = append(segs, "properties["+name+"]")
			i += end + 2
		default:
			if path[i] == '.' {
				i++
			}
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			segs = append(segs, "properties["+path[i:j]+"]")
			i = j
		}
	}
	return strings.Join(segs, ".")
}
