package manifest

import (
	"fmt"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	goyaml "sigs.k8s.io/yaml/goyaml.v3"
)

// KeyCollisionError is a YAML mapping with two keys that go-yaml v2 reads
// as different values (1 and "1", 1 and 1.0, two .nan) but that become one
// JSON key. sigs.k8s.io/yaml, which kubectl and the apiserver's YAML
// decoding use, converts the keys of a mapping in Go's map order, so which
// value the field keeps changes from run to run.
type KeyCollisionError struct {
	Path        string // the mapping's path ("" for the top)
	First, Then string // the two keys as written
	Key         string // the JSON key both become
}

func (e *KeyCollisionError) Error() string {
	at := ""
	if e.Path != "" {
		at = e.Path + ": "
	}
	return fmt.Sprintf("%sthe keys %s and %s both become %q in JSON, and which value is kept changes from run to run "+
		"(sigs.k8s.io/yaml converts a mapping's keys in Go's map order; kubectl reads the file the same way): write the key once, quoted",
		at, e.First, e.Then, e.Key)
}

// jsonKey is the key k of a YAML mapping as sigs.k8s.io/yaml writes it in
// JSON, and the value go-yaml v2 reads k as, which tells keys apart before
// that conversion. ok is false for a key that conversion refuses (null, a
// uint64, a collection).
func jsonKey(k *goyaml.Node) (key string, read any, ok bool) {
	if k.Kind != goyaml.ScalarNode {
		return "", nil, false
	}
	if !mayNotBeString(k) {
		return k.Value, k.Value, true
	}
	text := k.Value
	if k.Style&(goyaml.DoubleQuotedStyle|goyaml.SingleQuotedStyle|goyaml.LiteralStyle|goyaml.FoldedStyle) != 0 {
		text = strconv.Quote(k.Value)
	}
	if k.Style&goyaml.TaggedStyle != 0 {
		text = k.Tag + " " + text
	}
	if yamlv2.Unmarshal([]byte(text), &read) != nil {
		return "", nil, false
	}
	// sigs.k8s.io/yaml's convertToJSONableObject
	switch v := read.(type) {
	case string:
		return v, v, true
	case int:
		return strconv.Itoa(v), v, true
	case int64:
		return strconv.FormatInt(v, 10), v, true
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, v, true
	case bool:
		return strconv.FormatBool(v), v, true
	}
	return "", nil, false
}

// mayNotBeString reports whether go-yaml v2 may read the key k as
// something other than its text: a tag, or a plain scalar that is empty,
// starts like a number, null or .inf, or is a YAML 1.1 boolean or null word.
func mayNotBeString(k *goyaml.Node) bool {
	if k.Style&goyaml.TaggedStyle != 0 {
		return true
	}
	if k.Style&(goyaml.DoubleQuotedStyle|goyaml.SingleQuotedStyle|goyaml.LiteralStyle|goyaml.FoldedStyle) != 0 {
		return false
	}
	if k.Value == "" || strings.ContainsRune("0123456789+-.~", rune(k.Value[0])) {
		return true
	}
	switch strings.ToLower(k.Value) {
	case "y", "yes", "n", "no", "true", "false", "on", "off", "null":
		return true
	}
	return false
}

// written is a key as the message quotes it: quoted when it was, else as
// it is.
func written(k *goyaml.Node) string {
	if k.Style&(goyaml.DoubleQuotedStyle|goyaml.SingleQuotedStyle) != 0 {
		return strconv.Quote(k.Value)
	}
	if k.Style&goyaml.TaggedStyle != 0 {
		return k.Tag + " " + k.Value
	}
	return k.Value
}
