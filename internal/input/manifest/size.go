package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// MaxRequestBodyBytes is the apiserver's limit on a request body
// (k8s.io/apiserver pkg/server/config.go: MaxRequestBodyBytes, 3 MiB), as
// pipeline.DefaultMaxRequestBodyBytes.
const MaxRequestBodyBytes = 3 * 1024 * 1024

// contentFactor bounds how much larger a YAML document's content (see
// docSize) can be than the JSON body kubectl sends for it: a mapping entry
// `key: value` is smaller than its JSON `"key":"value",`, a block scalar's
// line smaller than its JSON with `\n`, and a list item `- 0` at most 1.5
// times its `0,`. Only trailing comments, keys given twice and escapes
// that decode shorter make the content larger.
const contentFactor = 2

// TooLargeError is a document that the apiserver would refuse as too large
// (413) whatever it holds, found so while it is read, before it is decoded:
// its content (indentation, blank lines and comment lines aside) passed
// contentFactor times the request body limit. Its bytes are not kept.
type TooLargeError struct {
	// Bytes is the document's size, and Content its content.
	Bytes, Content int64
	// Limit is the request body limit.
	Limit int64
	// APIVersion, Kind, Namespace, Name and GenerateName are what the
	// document's top lines say, where they say it (empty otherwise).
	APIVersion, Kind, Namespace, Name, GenerateName string
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("Request entity too large: limit is %d (the document has %d bytes, %d of them content, more than %d times the limit: not decoded); an object must be under the limit as compact JSON: split its data among several objects",
		e.Limit, e.Bytes, e.Content, contentFactor)
}

// Object names the document as its top lines do: "Kind namespace/name",
// or what of it is known.
func (e *TooLargeError) Object() string {
	name := ""
	if e.Name != "" || e.GenerateName != "" {
		name = ObjectName(e.Namespace, e.Name, e.GenerateName)
	}
	return strings.TrimSpace(e.Kind + " " + name)
}

// docSize counts the content of a YAML document line by line, and notes
// its apiVersion, kind and metadata's name and namespace as its block-style
// top level gives them, or as a flowScan finds them in a document in flow
// style.
type docSize struct {
	bytes, content int64
	// list: the document may be a List (a top-level items key): its size
	// is not judged here, as its items are requests of their own.
	list       bool
	started    bool
	inMetadata bool
	// skipLine: the rest of the line is not content (a comment line)
	skipLine bool
	// flow follows a document in flow style ({...}, [...])
	flow *flowScan
	info TooLargeError
}

// add counts part, a line or part of one (start: its first part; the last
// part ends with its "\n").
func (d *docSize) add(part []byte, start bool) {
	d.bytes += int64(len(part))
	if d.flow != nil {
		d.flow.feed(part, nil)
	}
	if !start {
		if !d.skipLine {
			d.content += int64(len(bytes.TrimRight(part, "\n")))
		}
		return
	}
	trimmed := bytes.TrimLeft(part, " ")
	body := bytes.TrimRight(trimmed, " \n")
	// a blank or comment line, or the document's first separator (a
	// document starts on the line after it)
	d.skipLine = len(body) == 0 || body[0] == '#' || bytes.HasPrefix(part, []byte("---"))
	if d.skipLine {
		return
	}
	d.content += int64(len(body))
	indent := len(part) - len(trimmed)
	if !d.started {
		d.started = true
		if body[0] == '{' || body[0] == '[' {
			d.flow = &flowScan{yaml: true, space: true}
			d.flow.feed(trimmed, nil)
		}
	}
	if d.list || d.flow != nil {
		return
	}
	if indent == 0 {
		d.inMetadata = bytes.HasPrefix(body, []byte("metadata:"))
		switch {
		case bytes.HasPrefix(body, []byte("items:")):
			d.list = true
		case bytes.HasPrefix(body, []byte("kind:")):
			d.info.Kind = scalar(body[len("kind:"):])
		case bytes.HasPrefix(body, []byte("apiVersion:")):
			d.info.APIVersion = scalar(body[len("apiVersion:"):])
		}
		return
	}
	if d.inMetadata && indent == 2 {
		switch {
		case bytes.HasPrefix(body, []byte("name:")):
			d.info.Name = scalar(body[len("name:"):])
		case bytes.HasPrefix(body, []byte("namespace:")):
			d.info.Namespace = scalar(body[len("namespace:"):])
		case bytes.HasPrefix(body, []byte("generateName:")):
			d.info.GenerateName = scalar(body[len("generateName:"):])
		}
	}
}

// scalar is a plain or quoted scalar as written, short, or "".
func scalar(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	s = strings.Trim(s, `"'`)
	if len(s) > 253 || strings.ContainsAny(s, "{}[]&*!|>%@`") {
		return ""
	}
	return s
}

// tooLarge is the rule that refuses a document unread: it is not a List
// (no top-level items key so far; in flow style, none that flowScan may
// have missed) and its content is over contentFactor times limit.
func (d *docSize) tooLarge(limit int64) bool {
	list := d.list
	if d.flow != nil {
		list = d.flow.items || d.flow.unsure
	}
	return limit > 0 && !list && d.content > contentFactor*limit
}

// err is the document's TooLargeError.
func (d *docSize) err(limit int64) *TooLargeError {
	e := d.info
	if d.flow != nil {
		e = d.flow.info
	}
	e.Bytes, e.Content, e.Limit = d.bytes, d.content, limit
	return &e
}

// object is what the document's top lines say of it, as an object.
func (e *TooLargeError) object() map[string]any {
	obj := map[string]any{}
	meta := map[string]any{}
	for k, v := range map[string]string{"apiVersion": e.APIVersion, "kind": e.Kind} {
		if v != "" {
			obj[k] = v
		}
	}
	for k, v := range map[string]string{"name": e.Name, "namespace": e.Namespace, "generateName": e.GenerateName} {
		if v != "" {
			meta[k] = v
		}
	}
	if len(meta) > 0 {
		obj["metadata"] = meta
	}
	return obj
}

// maxFlowDepth is the nesting beyond which encoding/json refuses a value
// (its maxNestingDepth).
const maxFlowDepth = 10000

// maxToken is the length of the scalars flowScan keeps: the longest name
// (253) and its quotes.
const maxToken = 256

// flowScan follows a JSON value, or a YAML node in flow style
// (`{kind: Widget, spec: {...}}`), byte by byte, holding only its nesting
// and the short scalars that name it: it counts its bytes and its content
// (every byte of its strings, and the bytes outside them that are not
// white space: the size of its compact JSON), finds whether its top level
// has an items key (a List, whose items are requests of their own), and the
// apiVersion, kind and metadata's name and namespace its top level gives.
// Of JSON it finds where the value ends, and the errors of brackets,
// strings and characters that end a JSON decoder's reading (bad); the rest
// of JSON's grammar is left to the decoder. Of YAML it reads quoted and
// plain scalars and comments; what it cannot follow (more after the node,
// brackets that do not match) makes it unsure, and an unsure document is
// not judged.
type flowScan struct {
	yaml           bool
	bytes, content int64
	open           []byte // the brackets open
	isKey          bool   // the next scalar is a key
	quote          byte   // the quote of the string being read, or 0
	escaped        bool   // after a \ in a double-quoted string
	endQuote       bool   // YAML: after a ' in a single-quoted string (its end, or '')
	comment        bool   // YAML: in a comment
	space          bool   // YAML: after white space (a # then starts a comment)
	plain          bool   // in a plain scalar (YAML) or a literal (JSON)
	tok            []byte // the scalar being read, up to maxToken bytes
	tokLong        bool
	key1, key2     string // the current keys at depth 1 and 2
	items          bool   // the top level has an items key
	ended          bool   // the value ended
	bad, unsure    bool
	// refused: found too large (tooLarge) while it was read
	refused bool
	info    TooLargeError
}

// isJSONSpace is JSON's white space.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isLiteral: a byte of a JSON number, true, false or null.
func isLiteral(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// feed follows b, the next bytes, and returns how many of them the value
// holds: len(b) until a JSON value ends (or is found bad), then the bytes
// up to its end. keep, if not nil, gets the bytes of its compact JSON.
func (s *flowScan) feed(b []byte, keep *[]byte) int {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if s.ended && !s.yaml || s.bad {
			return i
		}
		if s.endQuote { // YAML: '' is a quote in the string, else its end
			s.endQuote = false
			if c == '\'' {
				s.quote = c
				s.take(c, keep)
				continue
			}
			s.endScalar()
		}
		switch {
		case s.comment:
			s.bytes++
			s.comment = c != '\n'
			continue
		case s.quote != 0:
			s.stringByte(c, keep)
			continue
		case s.plain && s.endsPlain(c):
			s.endScalar()
			if s.ended && !s.yaml {
				return i // the literal ends before c
			}
		case s.plain:
			s.take(c, keep)
			continue
		}
		s.bytes++
		if isJSONSpace(c) {
			s.space = true
			continue
		}
		if s.yaml && c == '#' && s.space {
			s.comment = true
			continue
		}
		s.space = false
		if s.ended { // YAML: more after the node
			s.unsure = true
			continue
		}
		s.content++
		if keep != nil {
			*keep = append(*keep, c)
		}
		s.structural(c)
	}
	return len(b)
}

// take adds c, a byte of a scalar, to the value.
func (s *flowScan) take(c byte, keep *[]byte) {
	s.bytes++
	s.content++
	if keep != nil {
		*keep = append(*keep, c)
	}
	if len(s.tok) < maxToken {
		s.tok = append(s.tok, c)
	} else {
		s.tokLong = true
	}
}

// stringByte follows c in a quoted string.
func (s *flowScan) stringByte(c byte, keep *[]byte) {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\' && s.quote == '"':
		s.escaped = true
	case c == s.quote && c == '\'':
		s.bytes++
		s.content++
		if keep != nil {
			*keep = append(*keep, c)
		}
		s.quote, s.endQuote = 0, true
		return
	case c == s.quote:
		s.bytes++
		s.content++
		if keep != nil {
			*keep = append(*keep, c)
		}
		s.quote = 0
		s.endScalar()
		return
	case c < 0x20 && !s.yaml:
		s.bad = true // a control character: JSON's decoder stops there
		return
	}
	s.take(c, keep)
}

// endsPlain: c ends the plain scalar or literal being read.
func (s *flowScan) endsPlain(c byte) bool {
	if !s.yaml {
		return !isLiteral(c)
	}
	switch c {
	case ',', '[', ']', '{', '}':
		return true
	case ':':
		return s.isKey
	case '#':
		return s.space
	}
	s.space = isJSONSpace(c)
	return false
}

// finish ends the value at the end of its input: a literal at the top
// level ends there.
func (s *flowScan) finish() {
	if s.plain && len(s.open) == 0 {
		s.endScalar()
	}
}

// structural follows c, a byte outside strings that is not white space.
func (s *flowScan) structural(c byte) {
	switch c {
	case '{', '[':
		if len(s.open) >= maxFlowDepth {
			s.bad, s.unsure = !s.yaml, true
			return
		}
		s.open = append(s.open, c)
		s.isKey = c == '{'
	case '}', ']':
		if len(s.open) == 0 || s.open[len(s.open)-1] != c-2 { // '{'+2 is '}', '['+2 is ']'
			s.bad, s.unsure = !s.yaml, true
			return
		}
		s.open = s.open[:len(s.open)-1]
		s.isKey = false
		s.ended = len(s.open) == 0
	case ',':
		s.isKey = len(s.open) > 0 && s.open[len(s.open)-1] == '{'
	case ':':
		s.isKey = false
	case '"', '\'':
		if c == '\'' && !s.yaml {
			s.bad = true
			return
		}
		s.quote = c
		s.tok, s.tokLong = s.tok[:0], false
	default:
		if !s.yaml && !isLiteral(c) {
			s.bad = true
			return
		}
		s.plain = true
		s.tok, s.tokLong = append(s.tok[:0], c), false
	}
}

// endScalar takes the scalar just read as a key or a value of the top
// level or of its metadata.
func (s *flowScan) endScalar() {
	s.plain = false
	depth := len(s.open)
	inMapping := depth > 0 && s.open[depth-1] == '{'
	switch {
	case depth == 0:
		s.ended = true
	case depth == 1 && inMapping && s.isKey:
		s.key1 = s.scalar()
		if s.key1 == "items" || s.yaml && strings.Contains(s.key1, "items") {
			s.items = true
		}
	case depth == 1 && inMapping:
		switch s.key1 {
		case "apiVersion":
			s.info.APIVersion = s.scalar()
		case "kind":
			s.info.Kind = s.scalar()
		case "items":
			v := s.scalar()
			s.items = !(v == "null" || s.yaml && (v == "~" || v == "Null" || v == "NULL"))
		}
	case depth == 2 && inMapping && s.key1 == "metadata" && s.isKey:
		s.key2 = s.scalar()
	case depth == 2 && inMapping && s.key1 == "metadata":
		switch s.key2 {
		case "name":
			s.info.Name = s.scalar()
		case "namespace":
			s.info.Namespace = s.scalar()
		case "generateName":
			s.info.GenerateName = s.scalar()
		}
	}
}

// scalar is the scalar just read, unquoted, or "" when it is too long to
// name anything.
func (s *flowScan) scalar() string {
	if s.tokLong {
		return ""
	}
	v := strings.TrimSpace(string(s.tok))
	if strings.IndexByte(v, '\\') >= 0 {
		var u string
		if json.Unmarshal([]byte(`"`+v+`"`), &u) == nil {
			v = u
		}
	}
	if len(v) > 253 || strings.ContainsAny(v, "{}[]&*!|>%@`\n") {
		return ""
	}
	return v
}

// tooLarge is the rule that refuses a JSON value unread: it is not a List
// (no top-level items key so far) and its content is over contentFactor
// times limit.
func (s *flowScan) tooLarge(limit int64) bool {
	return limit > 0 && !s.items && s.content > contentFactor*limit
}

// err is the value's TooLargeError.
func (s *flowScan) err(limit int64) *TooLargeError {
	e := s.info
	e.Bytes, e.Content, e.Limit = s.bytes, s.content, limit
	return &e
}
