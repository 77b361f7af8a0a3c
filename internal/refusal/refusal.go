// Package refusal writes the apiserver's refusals of a default in words a
// person reads. The apiserver's errors (field.Error, as
// apiextensions-apiserver converts kube-openapi's validation errors) say
// `default: Invalid value: 0:  in body should have at least 1 properties`,
// where 0 is the number of properties the default has; Text says `the
// default {} has 0 properties; the schema requires at least 1
// (minProperties)`, keeping the field path and naming the schema keyword
// that refuses it. Every finding that quotes such an error goes through
// Text: the crd generator's apiserver and nested-defaults errors, and the
// implicit defaults it skips (and their crd:explain notes).
//
// An error Text does not know, or one that is not about a default, is
// kept as the apiserver writes it.
package refusal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Text is errs in words, "; " between them. raw is the default the errors
// are about, as JSON: the value at the error's path ("default",
// "spec.versions[0]…properties[x].default") is raw, below it ("default.name")
// the part of raw at that path; nil when it is not known (the words then
// name no value).
// Required properties that one object leaves out are named in one
// sentence.
func Text(errs field.ErrorList, raw []byte) string {
	var lists ValueLists
	parts := make([]string, 0, len(errs))
	for i := 0; i < len(errs); i++ {
		e := errs[i]
		if parent, name, ok := requiredBelow(e); ok {
			names := []string{name}
			for i+1 < len(errs) {
				p, n, ok := requiredBelow(errs[i+1])
				if !ok || p != parent {
					break
				}
				names = append(names, n)
				i++
			}
			if len(names) > 1 {
				e = field.Required(nil, "")
				e.Field = parent + "." + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
			}
		}
		parts = append(parts, one(e, raw, &lists))
	}
	return strings.Join(parts, "; ")
}

// requiredBelow splits the path of a Required error below a default into
// the object's path and the missing property's name.
func requiredBelow(e *field.Error) (parent, name string, ok bool) {
	if e.Type != field.ErrorTypeRequired || e.Detail != "" {
		return "", "", false
	}
	if _, below, ok := splitDefault(e.Field); !ok || below == "" {
		return "", "", false
	}
	i := strings.LastIndexByte(e.Field, '.')
	if i < 0 || strings.ContainsAny(e.Field[i+1:], "[]") {
		return "", "", false
	}
	return e.Field[:i], e.Field[i+1:], true
}

// One is one error in words, as Text writes it.
func One(e *field.Error, raw []byte) string { return one(e, raw, &ValueLists{}) }

// one is One with the lists of allowed values of the errors before it
// (ValueLists.Shorten).
func one(e *field.Error, raw []byte, lists *ValueLists) string {
	if e.Type == field.ErrorTypeNotSupported {
		short := *e
		short.Detail = lists.Shorten(e.Field, e.Detail)
		e = &short
	}
	at, below, ok := splitDefault(e.Field)
	if !ok {
		return e.Error() // not about a default: the apiserver's words
	}
	detail, cause := splitCause(e.Detail)
	// A default checked with the defaults below it applied is not raw:
	// its value is not shown.
	stored := strings.Contains(cause, "nested below it applied")
	// value is the default's part the error is about; known says it is
	// shown (its kind is read in any case)
	var value any
	known := false
	if raw != nil {
		value, known = lookup(raw, below)
		known = known && !stored
	}
	base := "the default"
	switch {
	case strings.HasPrefix(below, "["):
		base = "the default's item " + strings.TrimPrefix(below, "[")
		base = strings.Replace(base, "]", "", 1)
	case below != "":
		base = "the default's " + strings.TrimPrefix(below, ".")
	case stored:
		// the cause says it; the words say it shorter
		base, cause = "the default as the apiserver stores it (with the defaults below it applied)", ""
	}
	words, ok := reason(e, detail, base, below, value, known)
	if !ok {
		return e.Error()
	}
	if at != "default" {
		words = at + ": " + words
	}
	if cause != "" {
		words += " " + cause
	}
	return words
}

// splitDefault splits an error path at its last "default" segment: the
// path of the default ("default", "…properties[x].default") and the path
// below it in the value (".name", "[0]"); ok is false for a path without
// one.
func splitDefault(p string) (at, below string, ok bool) {
	i := strings.LastIndex(p, ".default")
	switch {
	case i >= 0 && (len(p) == i+len(".default") || p[i+len(".default")] == '.' || p[i+len(".default")] == '['):
		return p[:i+len(".default")], p[i+len(".default"):], true
	case p == "default" || strings.HasPrefix(p, "default.") || strings.HasPrefix(p, "default["):
		return "default", p[len("default"):], true
	}
	return "", "", false
}

// splitCause takes off a cause that the nested-defaults check appends to
// an error's detail: " (the apiserver does not validate …)".
func splitCause(d string) (detail, cause string) {
	if i := strings.LastIndex(d, " (the "); i >= 0 && strings.HasSuffix(d, ")") {
		return d[:i], d[i+1:]
	}
	return d, ""
}

// lookup is the part of raw at the field path below ("", ".name",
// "[0].name", "[key]").
func lookup(raw []byte, below string) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	for below != "" {
		var seg string
		switch below[0] {
		case '.':
			end := strings.IndexAny(below[1:], ".[")
			if end < 0 {
				end = len(below) - 1
			}
			seg, below = below[1:end+1], below[end+1:]
		case '[':
			end := strings.IndexByte(below, ']')
			if end < 0 {
				return nil, false
			}
			seg, below = below[1:end], below[end+1:]
		default:
			return nil, false
		}
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[seg]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return nil, false
			}
			v = c[n]
		default:
			return nil, false
		}
	}
	return v, true
}

// show is a value as JSON, cut after 60 characters.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = string(r[:59]) + "…"
	}
	return s
}

// kube-openapi's messages, after "<name> in body " or "<name> ".
var (
	minPropsRx  = detailRx(`should have at least (\d+) properties`)
	maxPropsRx  = detailRx(`should have at most (\d+) properties`)
	minItemsRx  = detailRx(`should have at least (\d+) items`)
	maxItemsRx  = detailRx(`should have at most (\d+) items`)
	minLengthRx = detailRx(`should be at least (\d+) chars long`)
	maxLengthRx = detailRx(`should be at most (\d+) chars long`)
	patternRx   = detailRx(`should match '(.*)'`)
	// formatRangeRx is kube-openapi's error for a number its format cannot
	// hold (a Go uint32 default above 2^31-1 is format int32), which names
	// the value below the default in its message, not in its path
	formatRangeRx = regexp.MustCompile(`^Checked value must be of type (\S+) with format (\S+) in (\S*)$`)
	minIncRx      = detailRx(`should be greater than or equal to (\S+)`)
	minExcRx      = detailRx(`should be greater than (\S+)`)
	maxIncRx      = detailRx(`should be less than or equal to (\S+)`)
	maxExcRx      = detailRx(`should be less than (\S+)`)
	multipleRx    = detailRx(`should be a multiple of (\S+)`)
	uniqueRx      = detailRx(`shouldn't contain duplicates`)
	typeRx        = detailRx(`must be of type ([\w-]+)(?:: .*|, because: .*)?`)
	atMostRx      = regexp.MustCompile(`^must have at most (\d+) items?$`)
	notMoreRx     = regexp.MustCompile(`^may not be more than (\d+) bytes?$`)
)

func detailRx(s string) *regexp.Regexp {
	return regexp.MustCompile(`^(?:\S*\s*in body\s+|\S+\s+)?` + s + `$`)
}

var jsonTypes = map[string]bool{"object": true, "array": true, "string": true, "integer": true, "number": true, "boolean": true, "null": true}

// reason is the error in words, base what it is about ("the default",
// "the default's name"), below the path below the default; ok is false
// for an error it does not know.
func reason(e *field.Error, detail, base, below string, value any, known bool) (string, bool) {
	// subject is base with its value: the one looked up in the default,
	// else, when withBad, the error's (which for some errors is a count or
	// a type's name, not the value)
	subject := func(withBad bool) string {
		switch {
		case known:
			return base + " " + show(value)
		case withBad && e.BadValue != nil:
			return base + " " + show(e.BadValue)
		}
		return base
	}
	count := fmt.Sprint(e.BadValue)
	length := func() string {
		s, ok := value.(string)
		if !known {
			s, ok = e.BadValue.(string)
		}
		if !ok {
			return ""
		}
		return fmt.Sprintf(" is %d characters long;", utf8.RuneCountInString(s))
	}
	switch e.Type {
	case field.ErrorTypeRequired:
		if below == "" {
			return "", false
		}
		name := below[strings.LastIndexAny(below, ".[")+1:]
		name = strings.TrimSuffix(name, "]")
		parent := "the default"
		if i := strings.LastIndexAny(below, ".["); i > 0 {
			parent = "the default's " + strings.TrimPrefix(below[:i], ".")
		}
		return fmt.Sprintf("%s leaves out %s, which the schema requires (required)", parent, name), true
	case field.ErrorTypeNotSupported:
		vals := strings.TrimPrefix(detail, "supported values: ")
		return fmt.Sprintf("%s is not one of the values the schema allows, %s (enum)", subject(true), vals), true
	case field.ErrorTypeTooMany:
		m := atMostRx.FindStringSubmatch(detail)
		if m == nil {
			return "", false
		}
		switch value.(type) {
		case map[string]any:
			return fmt.Sprintf("%s has %s properties; the schema allows at most %s (maxProperties)", subject(false), count, m[1]), true
		case []any:
			return fmt.Sprintf("%s has %s items; the schema allows at most %s (maxItems)", subject(false), count, m[1]), true
		}
		return fmt.Sprintf("%s has %s items or properties; the schema allows at most %s (maxItems or maxProperties)", subject(false), count, m[1]), true
	case field.ErrorTypeTooLong:
		m := notMoreRx.FindStringSubmatch(detail)
		if m == nil {
			return "", false
		}
		return fmt.Sprintf("%s%s the schema allows at most %s (maxLength)", subject(false), length(), m[1]), true
	case field.ErrorTypeDuplicate:
		// at the second item: name the list
		list, item := "the default", ""
		if i := strings.LastIndexByte(below, '['); i >= 0 && strings.HasSuffix(below, "]") {
			item = " (item " + below[i+1:len(below)-1] + ")"
			if i > 0 {
				list = "the default's " + strings.TrimPrefix(below[:i], ".")
			}
		}
		return fmt.Sprintf("%s holds %s twice%s; its x-kubernetes-list-type allows each once", list, show(e.BadValue), item), true
	case field.ErrorTypeForbidden:
		return fmt.Sprintf("%s: %s", subject(false), detail), true
	case field.ErrorTypeTypeInvalid:
		m := typeRx.FindStringSubmatch(detail)
		if m == nil {
			return "", false
		}
		if jsonTypes[m[1]] {
			// the error's value is the name of the value's type
			got := jsonType(value)
			if t, ok := e.BadValue.(string); !known && ok && jsonTypes[t] {
				got = article(t)
			}
			return fmt.Sprintf("%s is %s; the schema's type is %s (type)", subject(false), got, m[1]), true
		}
		return fmt.Sprintf("%s is not a valid %s (format)", subject(true), m[1]), true
	case field.ErrorTypeInvalid:
	default:
		return "", false
	}
	for _, r := range []struct {
		rx    *regexp.Regexp
		words func(m []string) string
	}{
		{minPropsRx, func(m []string) string {
			return fmt.Sprintf("%s has %s properties; the schema requires at least %s (minProperties)", subject(false), count, m[1])
		}},
		{maxPropsRx, func(m []string) string {
			return fmt.Sprintf("%s has %s properties; the schema allows at most %s (maxProperties)", subject(false), count, m[1])
		}},
		{minItemsRx, func(m []string) string {
			return fmt.Sprintf("%s has %s items; the schema requires at least %s (minItems)", subject(false), count, m[1])
		}},
		{maxItemsRx, func(m []string) string {
			return fmt.Sprintf("%s has %s items; the schema allows at most %s (maxItems)", subject(false), count, m[1])
		}},
		{minLengthRx, func(m []string) string {
			return fmt.Sprintf("%s%s the schema requires at least %s (minLength)", subject(true), length(), m[1])
		}},
		{maxLengthRx, func(m []string) string {
			return fmt.Sprintf("%s%s the schema allows at most %s (maxLength)", subject(true), length(), m[1])
		}},
		{patternRx, func(m []string) string {
			return fmt.Sprintf("%s does not match the schema's pattern %s (pattern)", subject(true), m[1])
		}},
		{minIncRx, func(m []string) string {
			return fmt.Sprintf("%s is less than the schema's minimum %s (minimum)", subject(true), m[1])
		}},
		{minExcRx, func(m []string) string {
			return fmt.Sprintf("%s is not greater than %s (minimum, exclusiveMinimum)", subject(true), m[1])
		}},
		{maxIncRx, func(m []string) string {
			return fmt.Sprintf("%s is greater than the schema's maximum %s (maximum)", subject(true), m[1])
		}},
		{maxExcRx, func(m []string) string {
			return fmt.Sprintf("%s is not less than %s (maximum, exclusiveMaximum)", subject(true), m[1])
		}},
		{multipleRx, func(m []string) string {
			return fmt.Sprintf("%s is not a multiple of %s (multipleOf)", subject(true), m[1])
		}},
		{uniqueRx, func([]string) string { return fmt.Sprintf("%s holds an item twice (uniqueItems)", subject(false)) }},
	} {
		if m := r.rx.FindStringSubmatch(detail); m != nil {
			return r.words(m), true
		}
	}
	if m := formatRangeRx.FindStringSubmatch(detail); m != nil {
		return formatWords(subject(false), m[2], m[3]), true
	}
	if m := typeRx.FindStringSubmatch(detail); m != nil && !jsonTypes[m[1]] {
		return fmt.Sprintf("%s is not a valid %s (format)", subject(true), m[1]), true
	}
	if detail == "must not have unknown fields" {
		return fmt.Sprintf("%s has fields the schema does not declare, which the apiserver would prune", subject(false)), true
	}
	t, typeName := e.BadValue.(string)
	if _, omitted := e.BadValue.(field.OmitValueType); (omitted || (typeName && jsonTypes[t])) && detail != "" {
		// a CEL rule's message; the error's value is left out, or the
		// schema's type
		if rule, ok := strings.CutPrefix(detail, "failed rule: "); ok {
			return fmt.Sprintf("%s fails the schema's validation rule %s (x-kubernetes-validations)", subject(false), rule), true
		}
		return fmt.Sprintf("%s fails a validation rule of the schema: %s (x-kubernetes-validations)", subject(false), detail), true
	}
	return "", false
}

// formatWords is the rule for a number outside its format's range: the
// value, where it is below the default (in, "" for the default itself),
// the format and the range it holds.
func formatWords(subject, format, in string) string {
	if in != "" {
		subject += "'s " + in
		subject = strings.Replace(subject, "the default 's", "the default's", 1)
	}
	ranges := map[string]string{"int32": "-2147483648 to 2147483647", "int64": "-9223372036854775808 to 9223372036854775807"}
	if r, ok := ranges[format]; ok {
		return fmt.Sprintf("%s is outside format %s, %s (format)", subject, format, r)
	}
	return fmt.Sprintf("%s is outside format %s (format)", subject, format)
}

// jsonType names the JSON type of a value, "a string", "an object".
func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case nil:
		return "null"
	}
	return "a value"
}

// article is a type's name with its article: "an integer", "a string".
func article(t string) string {
	if strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}
