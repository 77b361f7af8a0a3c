package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// pluginReads reports whether the plugin reads the universe's file name:
// the Makefile and the go command's files. Every other file of the
// universe is skipped as it streams by, never decoded or held.
func pluginReads(name string) bool {
	return name == "Makefile" || goCommandFile(name)
}

// goCommandFile reports whether the go command reads name: Go source and
// the module files (lintOmitempty's overlay).
func goCommandFile(name string) bool {
	switch path.Base(name) {
	case "go.mod", "go.sum", "go.work", "go.work.sum":
		return true
	}
	return strings.HasSuffix(name, ".go")
}

// readRequest decodes the PluginRequest on r as encoding/json's Decoder
// does, but for the universe's files the plugin does not read (pluginReads),
// which it leaves out. kubebuilder sends every file under the project
// directory, the envtest binaries in bin/ among them: decoded whole, a
// project with envtest's 317 MB of binaries made a 1.2 GB request that
// took 3.5 GB of memory; read as a stream it takes what the kept files
// take.
//
// The universe's members are read one at a time; everything else (and each
// kept member) is cut out as raw JSON and given to encoding/json, so that
// key matching, duplicates and errors are encoding/json's own.
func readRequest(r io.Reader) (PluginRequest, error) {
	s := &jsonStream{r: bufio.NewReaderSize(r, 1<<16)}
	var req PluginRequest
	c, err := s.peek()
	if err != nil {
		return req, err
	}
	if c != '{' {
		// Not an object, and no universe: encoding/json decides (null is
		// an empty request).
		return req, json.NewDecoder(s.r).Decode(&req)
	}
	rest := bytes.NewBufferString("{")
	err = s.members(func(key []byte) error {
		if isUniverse(key) {
			return s.universe(&req.Universe)
		}
		if rest.Len() > 1 {
			rest.WriteByte(',')
		}
		rest.Write(key)
		rest.WriteByte(':')
		return s.value(rest)
	})
	if err != nil {
		return req, err
	}
	rest.WriteByte('}')
	return req, json.Unmarshal(rest.Bytes(), &req)
}

// isUniverse reports whether encoding/json decodes the member named by the
// JSON string key into PluginRequest.Universe (it matches names without
// regard to case).
func isUniverse(key []byte) bool {
	var probe struct {
		Universe map[string]string `json:"universe"`
	}
	doc := append(append([]byte("{"), key...), []byte(":{}}")...)
	return json.Unmarshal(doc, &probe) == nil && probe.Universe != nil
}

// universe decodes the universe's object into *u as encoding/json would
// (null clears it, a second universe adds to the first), keeping only the
// members the plugin reads.
func (s *jsonStream) universe(u *map[string]string) error {
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c != '{' {
		var raw bytes.Buffer
		if err := s.value(&raw); err != nil {
			return err
		}
		return json.Unmarshal(raw.Bytes(), u)
	}
	if *u == nil {
		*u = map[string]string{}
	}
	return s.members(func(key []byte) error {
		var name string
		if err := json.Unmarshal(key, &name); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == '"' && !pluginReads(name) {
			return s.str(nil) // skipped, not decoded
		}
		var raw bytes.Buffer
		if err := s.value(&raw); err != nil {
			return err
		}
		var content string
		if err := json.Unmarshal(raw.Bytes(), &content); err != nil {
			return err
		}
		if pluginReads(name) {
			(*u)[name] = content
		}
		return nil
	})
}

// members reads an object, whose '{' is next, calling member after each
// key and its colon to read the value.
func (s *jsonStream) members(member func(key []byte) error) error {
	if _, err := s.next(); err != nil {
		return err
	}
	for first := true; ; first = false {
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == '}' && first {
			s.skip()
			return nil
		}
		var key bytes.Buffer
		if err := s.str(&key); err != nil {
			return err
		}
		if err := s.colon(); err != nil {
			return err
		}
		if err := member(key.Bytes()); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return err
		}
		if c == '}' {
			return nil
		}
		if c != ',' {
			return s.syntax(c, "after object key:value pair")
		}
	}
}

// jsonStream cuts JSON values out of a stream without decoding them.
type jsonStream struct {
	r   *bufio.Reader
	off int64 // bytes read
}

// syntax is the error for the unexpected byte c just read, worded as
// encoding/json's, with its offset: the bytes read, c included.
func (s *jsonStream) syntax(c byte, where string) error {
	return fmt.Errorf("invalid character %q %s at offset %d", c, where, s.off)
}

// eof turns the end of the input inside a value into an error.
func eof(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func (s *jsonStream) readByte() (byte, error) {
	c, err := s.r.ReadByte()
	if err != nil {
		return 0, eof(err)
	}
	s.off++
	return c, nil
}

// skip consumes the byte that peek, or a Peek of the reader, returned: it
// is buffered, so reading it cannot fail.
func (s *jsonStream) skip() {
	_, _ = s.readByte()
}

// peek returns the next byte that is not white space, unread.
func (s *jsonStream) peek() (byte, error) {
	for {
		b, err := s.r.Peek(1)
		if err != nil {
			return 0, eof(err)
		}
		switch b[0] {
		case ' ', '\t', '\n', '\r':
			s.skip()
		default:
			return b[0], nil
		}
	}
}

// next reads the next byte that is not white space.
func (s *jsonStream) next() (byte, error) {
	if _, err := s.peek(); err != nil {
		return 0, err
	}
	return s.readByte()
}

// colon reads the colon after an object key.
func (s *jsonStream) colon() error {
	c, err := s.next()
	if err == nil && c != ':' {
		err = s.syntax(c, "after object key")
	}
	return err
}

// str reads a JSON string, quotes included, into out (nil: discards it). It
// refuses what encoding/json refuses in a string: a control character and
// an escape other than \" \\ \/ \b \f \n \r \t \uXXXX. A long string is
// scanned in the reader's buffer, a chunk at a time.
func (s *jsonStream) str(out *bytes.Buffer) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c != '"' {
		return s.syntax(c, "looking for beginning of object key string")
	}
	if out != nil {
		out.WriteByte('"')
	}
	for {
		chunk, err := s.r.Peek(max(1, s.r.Buffered()))
		if err != nil {
			return eof(err)
		}
		i := 0
		for i < len(chunk) && chunk[i] != '"' && chunk[i] != '\\' && chunk[i] >= 0x20 {
			i++
		}
		if out != nil {
			out.Write(chunk[:i])
		}
		_, _ = s.r.Discard(i) // of the peeked chunk: buffered, cannot fail
		s.off += int64(i)
		if i == len(chunk) {
			continue
		}
		c, _ := s.readByte()
		if out != nil {
			out.WriteByte(c)
		}
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return s.syntax(c, "in string literal")
		}
		if err := s.escape(out); err != nil {
			return err
		}
	}
}

// escape reads what follows a backslash in a string.
func (s *jsonStream) escape(out *bytes.Buffer) error {
	c, err := s.readByte()
	if err != nil {
		return err
	}
	if out != nil {
		out.WriteByte(c)
	}
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return nil
	case 'u':
		for range 4 {
			h, err := s.readByte()
			if err != nil {
				return err
			}
			if out != nil {
				out.WriteByte(h)
			}
			if !strings.ContainsRune("0123456789abcdefABCDEF", rune(h)) {
				return s.syntax(h, "in \\u hexadecimal character escape")
			}
		}
		return nil
	}
	return s.syntax(c, "in string escape code")
}

// value copies one JSON value to out as it stands, white space included,
// for encoding/json to decode (and to refuse, if it is not valid JSON):
// strings are read by str, objects and arrays to their closing bracket,
// numbers and literals to the next delimiter.
func (s *jsonStream) value(out *bytes.Buffer) error {
	depth := 0
	for {
		c, err := s.peek()
		if err != nil {
			return err
		}
		switch c {
		case '"':
			if err := s.str(out); err != nil {
				return err
			}
		case '{', '[':
			depth++
			s.skip()
			out.WriteByte(c)
		case '}', ']':
			if depth == 0 {
				return nil
			}
			depth--
			s.skip()
			out.WriteByte(c)
		case ',', ':':
			if depth == 0 {
				return nil
			}
			s.skip()
			out.WriteByte(c)
		default:
			// a number or a literal, up to a delimiter
			for !strings.ContainsRune(" \t\n\r,:]}[{\"", rune(c)) {
				s.skip()
				out.WriteByte(c)
				b, err := s.r.Peek(1)
				if err != nil {
					if depth == 0 && errors.Is(err, io.EOF) {
						return nil
					}
					return eof(err)
				}
				c = b[0]
			}
			out.WriteByte(' ')
		}
		if depth == 0 {
			return nil
		}
	}
}
