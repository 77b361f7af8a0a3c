package manifest

import (
	"bytes"
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
	// APIVersion, Kind, Namespace and Name are what the document's top
	// lines say, where they say it (empty otherwise).
	APIVersion, Kind, Namespace, Name string
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("Request entity too large: limit is %d (the document has %d bytes, %d of them content, more than %d times the limit: not decoded)",
		e.Limit, e.Bytes, e.Content, contentFactor)
}

// Object names the document as its top lines do: "Kind namespace/name",
// or what of it is known.
func (e *TooLargeError) Object() string {
	name := e.Name
	if e.Namespace != "" && name != "" {
		name = e.Namespace + "/" + name
	}
	return strings.TrimSpace(e.Kind + " " + name)
}

// docSize counts the content of a YAML document line by line, and notes
// its apiVersion, kind and metadata's name and namespace as its block-style
// top level gives them.
type docSize struct {
	bytes, content int64
	// list: the document may be a List (a top-level items key) or is in
	// flow style ({...}, [...]): its size is not judged here, as its items
	// are requests of their own.
	list       bool
	started    bool
	inMetadata bool
	info       TooLargeError
}

// add counts one line, with its "\n".
func (d *docSize) add(line []byte) {
	d.bytes += int64(len(line))
	trimmed := bytes.TrimLeft(line, " ")
	body := bytes.TrimRight(trimmed, " \n")
	if len(body) == 0 || body[0] == '#' {
		return
	}
	d.content += int64(len(body))
	indent := len(line) - len(trimmed)
	if !d.started {
		d.started = true
		if body[0] == '{' || body[0] == '[' {
			d.list = true
		}
	}
	if d.list {
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
// (or in flow style) and its content is over contentFactor times limit.
func (d *docSize) tooLarge(limit int64) bool {
	return limit > 0 && !d.list && d.content > contentFactor*limit
}

// err is the document's TooLargeError.
func (d *docSize) err(limit int64) *TooLargeError {
	e := d.info
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
	for k, v := range map[string]string{"name": e.Name, "namespace": e.Namespace} {
		if v != "" {
			meta[k] = v
		}
	}
	if len(meta) > 0 {
		obj["metadata"] = meta
	}
	return obj
}
