package golit

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"unicode"

	"sigs.k8s.io/yaml"
)

// CRDString is the rule for the strings of a default (values and object
// keys): each must be the same string once the CRD is written and read
// back, or it is refused, naming its first such character (U+XXXX) and
// why. controller-gen writes CRDs in YAML with sigs.k8s.io/yaml, which
// refuses most C1 control characters and the non-characters U+FFFE and
// U+FFFF ("yaml: control characters are not allowed"), and writes U+0085
// (NEL) as it is, which YAML reads back as a line break folded into a
// space: the apiserver would store another string than the Go defaulter
// sets. The test is the writer itself: a round trip of the string through
// sigs.k8s.io/yaml's Marshal and Unmarshal, as a value or as a key.
func CRDString(s string, key bool) error {
	if yamlRoundTrips(s, key) {
		return nil
	}
	seen := map[rune]bool{}
	for _, r := range s {
		if seen[r] {
			continue
		}
		seen[r] = true
		probe := "a" + string(r) + "b"
		if yamlRoundTrips(probe, key) {
			continue
		}
		return fail("%s", crdCharProblem(r, probe, key))
	}
	what := "string"
	if key {
		what = "key"
	}
	return fail("the %s %s does not read back the same from the CRD's YAML (%s); write it otherwise", what, strconv.QuoteToASCII(s), yamlTrip(s, key))
}

// crdCharProblem says why the rune r cannot be in a default's string.
func crdCharProblem(r rune, probe string, key bool) string {
	name := fmt.Sprintf("U+%04X", r)
	if unicode.IsControl(r) {
		name += " (a control character)"
	} else if r == 0xFFFE || r == 0xFFFF {
		name += " (a non-character)"
	}
	return fmt.Sprintf("%s cannot be in a default: controller-gen writes the CRD in YAML, %s; "+
		"the apiserver would not store the string the Go defaulter sets. Leave the character out", name, yamlTrip(probe, key))
}

// yamlTrip says what becomes of s written to YAML and read back.
func yamlTrip(s string, key bool) string {
	y, err := yaml.Marshal(wrapYAML(s, key))
	if err != nil {
		return "which cannot hold it (" + err.Error() + ")"
	}
	var back map[string]any
	if err := yaml.Unmarshal(y, &back); err != nil {
		return "which cannot read it back (" + err.Error() + ")"
	}
	got := "nothing"
	if key {
		for k := range back {
			got = strconv.QuoteToASCII(k)
		}
	} else if v, ok := back["d"].(string); ok {
		got = strconv.QuoteToASCII(v)
	}
	return fmt.Sprintf("which reads %s back as %s", strconv.QuoteToASCII(s), got)
}

func wrapYAML(s string, key bool) map[string]any {
	if key {
		return map[string]any{s: "x"}
	}
	return map[string]any{"d": s}
}

// yamlRoundTrips reports whether s, as a value or a key, is the same
// after sigs.k8s.io/yaml writes it and reads it back.
func yamlRoundTrips(s string, key bool) bool {
	w := wrapYAML(s, key)
	y, err := yaml.Marshal(w)
	if err != nil {
		return false
	}
	var back map[string]any
	if err := yaml.Unmarshal(y, &back); err != nil {
		return false
	}
	return reflect.DeepEqual(back, w)
}

// crdStrings applies CRDString to every string and key of a decoded JSON
// value.
func crdStrings(v any) error {
	switch x := v.(type) {
	case string:
		return CRDString(x, false)
	case []any:
		for i, item := range x {
			if err := crdStrings(item); err != nil {
				return at(fmt.Sprintf("[%d]", i), err)
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := CRDString(k, true); err != nil {
				return at(strconv.Quote(k), err)
			}
			if err := crdStrings(x[k]); err != nil {
				return at(k, err)
			}
		}
	}
	return nil
}
