// Package manifest reads objects from files and streams as kubectl reads
// them with -f (k8s.io/cli-runtime pkg/resource: FileVisitor,
// StreamVisitor, FlattenListVisitor), one object at a time:
//
//   - a UTF-8 or UTF-16 byte order mark is honoured (FileVisitor's
//     unicode.BOMOverride);
//   - the stream is YAML documents or JSON values, split by
//     k8s.io/apimachinery's yaml.NewYAMLOrJSONDecoder, as StreamVisitor
//     splits it;
//   - a document that is empty once trimmed, or null (a file of only
//     `---`, a trailing `---`, a document of only comments), is skipped,
//     as StreamVisitor skips it. Documents are numbered among the others;
//   - each document is decoded by unstructured.UnstructuredJSONScheme, the
//     decoder of kubectl's unstructured builder: one with a non-null
//     `items` field is a list (a v1 List, as `kubectl get -o yaml` writes,
//     or a <Kind>List), whose items are read in its place, and an item
//     without apiVersion and kind takes the list's, with the List suffix
//     trimmed from the kind (unstructuredJSONScheme.decodeToList);
//   - numbers are int64 when they are integers that fit, else float64, as
//     the apiserver decodes them;
//   - a field given twice in one object keeps its last value, as kubectl's
//     decoders keep it, and is listed in Object.Duplicates: the apiserver
//     reports it under fieldValidation (see Object.Duplicates);
//   - a document that is not a List and whose content passes twice the
//     apiserver's request body limit is refused as it is read, before it
//     is decoded (TooLargeError, Object.TooLarge): its bytes are counted,
//     not kept, whatever its size. So is a YAML document in block style
//     (counted line by line), in flow style and a JSON value (followed by
//     flowScan, which finds whether it has a top-level items key, without
//     holding lines: a document of one line is read in parts).
//
// Reader.Next returns one object at a time, and All ranges over them.
//
// # Lists, item by item
//
// `kubectl get -A -o yaml` prints a whole cluster as ONE List document,
// tens of thousands of items, keys sorted (items before kind). Decoded
// whole, such a document costs its parsed YAML tree, its JSON, and every
// item's map at once. Reader streams a List instead, with the same result
// as the whole-document decode (decodeWhole, kept as the fallback and as
// the tests' oracle):
//
//   - YAML streams are split into documents here, line by line as
//     utilyaml.YAMLReader splits them. Each line goes to a spill (memory up
//     to 4 MiB, then an unlinked temporary file in TMPDIR) and to a
//     scanner that recognises a List in block style: `items:` at column 0
//     with nothing after it but a comment, then `- ` entries at one column
//     (0, as kubectl prints them, or indented), the List's other fields
//     before or after. Each item ends at the next entry or at the next
//     line at column 0; it is then a YAML document of its own (its dash
//     made a space, every line where it was), converted to JSON as the
//     decoder converts the document (sigs.k8s.io/yaml), checked to decode
//     as unstructuredJSONScheme.decodeToList decodes an item, searched for
//     duplicate fields (go-yaml v3, within the limit of 100 per
//     document), and its JSON appended to a second spill, one item a line.
//     The List's own fields are decoded as a document whose items are [].
//     This is the first pass over the document, needed because kind and
//     apiVersion, which items without them take, may come after the items,
//     and because kubectl fails the whole List for one bad item: no item
//     is returned before all are known to decode. The second pass reads the
//     items' JSON back one at a time.
//   - JSON streams are split here value by value (splitJSON: brackets and
//     strings followed byte by byte), each value's compact JSON to a
//     spill. A value with a top-level items key is read as a List with
//     encoding/json's Decoder: the List's tokens, its items decoded one at
//     a time (Decode per element), each checked as above, its duplicate
//     fields found as the apiserver finds them (sigs.k8s.io/json), and its
//     JSON, compacted, appended to a spill. Any other value, and a List the
//     scanner gives up on, is decoded whole. At the first value that is not
//     JSON, utilyaml.YAMLOrJSONDecoder takes over: before two values, it
//     reads the stream again from its start (kept in a spill) and skips the
//     values already read, so that it is where and as it would have been
//     (it may still fall back to YAML); after two, it gives its error for
//     that value. From then on, it holds each document's bytes, and the
//     items of a List among them are walked with the Decoder's tokens and
//     decoded one at a time.
//   - Either way, memory is one item and the List's own fields, whatever
//     the number of items; disk is the document and its items' JSON
//     (beyond 4 MiB each), for the time the List is read; without a
//     temporary file, or when writing it fails (a full TMPDIR), the spills
//     stay in (or come back to) memory.
//
// The scanner gives up, and the document is decoded whole, whenever
// streaming could differ: items in flow style (`items: [...]`), an empty
// or null items, an item that is not a mapping in block style (null, a
// scalar, `{...}`), anchors, aliases, merge keys, tags, complex keys, a line
// that starts with an indicator at column 0 (directives, `...`), a tab in
// indentation, line breaks other than \n, a line less indented than its
// item's content, items or a spelling of it given twice, duplicate fields
// among the List's own, an item nested deeper than 1000 levels, an item
// that does not parse, convert or decode on its own (the whole decode then
// gives kubectl's error), and Lists whose own fields exceed 1 MiB.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
	goyaml "sigs.k8s.io/yaml/goyaml.v3"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/quote"
)

// Object is one object of the input.
type Object struct {
	// File is the file's name as given (- for standard input).
	File string
	// Doc is the 1-based index of the document among the file's documents
	// that are neither empty nor null.
	Doc int
	// Item is the 1-based index of the object in its List; 0 when the
	// document is the object.
	Item int
	// Object is the decoded object.
	Object map[string]any
	// Duplicates are the fields that the object gives more than once, by
	// their paths as the apiserver's strict decoding names them
	// (sigs.k8s.io/json's UnmarshalStrict: "spec.seed", "spec.ports[0].name"),
	// in the order of their second occurrence. Object holds the last value.
	// The apiserver reports each as `duplicate field "spec.seed"`: an error
	// under fieldValidation=Strict, a warning under Warn. For an item of a
	// List, the paths are the item's own.
	Duplicates []string
	// TooLarge is set for a document refused unread, as the apiserver
	// refuses it (413) whatever it holds (TooLargeError): Object then holds
	// only the apiVersion, kind, name and namespace its top lines give.
	TooLarge *TooLargeError
}

// Source is FILE:DOC, or FILE:DOC:ITEM for an item of a List.
func (o Object) Source() string { return source(o.File, o.Doc, o.Item) }

func source(file string, doc, item int) string {
	s := file + ":" + strconv.Itoa(doc)
	if item > 0 {
		s += ":" + strconv.Itoa(item)
	}
	return s
}

// Error is why a document (or an item of a List) cannot be read. Reading
// stops at the first one: the stream cannot be split past a syntax error.
type Error struct {
	File string
	Doc  int // the document's index, as Object.Doc
	Item int // the item's index in its List, or 0
	Err  error
}

func (e *Error) Error() string { return source(e.File, e.Doc, e.Item) + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Reader reads the objects of one file or stream.
type Reader struct {
	file string
	doc  int
	err  error
	item int
	// list streams the items of the current List (see the package doc).
	list listStream
	// pending are the items of the current List not yet returned, and
	// their duplicate fields, when the List is decoded whole.
	pending     []unstructured.Unstructured
	pendingDups [][]string
	// oracle: no List is streamed (the tests' reference).
	oracle bool
	// streamed and whole count the Lists read each way (for tests).
	streamed, whole int

	// A YAML stream is split here, line by line (yamlLines), into raw (the
	// document, for decodeWhole) and yamlList (its items, converted).
	lines *yamlLines
	raw   spill

	// A JSON stream is split by utilyaml.YAMLOrJSONDecoder, which holds
	// each document: read holds what the decoder has read of the input and
	// docs has not split yet; docs splits it into YAML documents as the
	// decoder splits the input, one per Decode, so that the YAML of a
	// document is at hand (the decoder converts it to JSON, which holds one
	// value per field), when the decoder falls back to YAML.
	dec  *utilyaml.YAMLOrJSONDecoder
	read *bytes.Buffer
	docs *utilyaml.YAMLReader
	// json: the input is a stream of JSON values (no YAML documents to
	// split); unknown until the first document.
	json, modeKnown bool

	// A JSON stream is split here (splitJSON), value by value, from br,
	// while its values are JSON: values counts them. At the first that is
	// not, dec takes over, reading again what seen holds (the stream from
	// its start while values < 2, which the decoder's fallback to YAML
	// depends on; else the value that is not JSON), then br.
	splitting bool
	br        *bufio.Reader
	seen      spill
	values    int

	// limit is the request body limit a YAML document is refused over
	// (TooLargeError), 0 for none; tooLarge is the document just refused.
	limit    int64
	tooLarge *TooLargeError

	// spillOpts are the options of every spill of the reader (raw, seen,
	// the documents and Lists it splits): the defaults, unless a test sets
	// them on its own reader before the first Next.
	spillOpts spillOptions
}

// NewReader reads the objects of r, named file in errors and sources.
func NewReader(file string, r io.Reader) *Reader {
	r = transform.NewReader(r, unicode.BOMOverride(unicode.UTF8.NewDecoder()))
	// the guess of utilyaml.NewYAMLOrJSONDecoder (GuessJSONStream), which
	// sees the same bytes
	br := bufio.NewReaderSize(r, 4096)
	peek, _ := br.Peek(4096)
	rd := &Reader{file: file, limit: MaxRequestBodyBytes}
	rd.raw.opts, rd.seen.opts = &rd.spillOpts, &rd.spillOpts
	if !utilyaml.IsJSONBuffer(peek) {
		rd.lines = &yamlLines{r: br}
		return rd
	}
	rd.modeKnown = true
	rd.json = bytes.HasPrefix(bytes.TrimLeft(peek, " \t\r\n"), []byte("{"))
	if rd.json {
		// split here while its values are JSON, the input kept in a
		// spill for the decoder, should it have to take over
		rd.br, rd.splitting = br, true
		return rd
	}
	rd.read = &bytes.Buffer{}
	rd.dec = utilyaml.NewYAMLOrJSONDecoder(io.TeeReader(br, rd.read), 4096)
	rd.docs = utilyaml.NewYAMLReader(bufio.NewReader(rd.read))
	return rd
}

// Next returns the next object, io.EOF after the last one, or an *Error
// (after which it returns that error again).
func (r *Reader) Next() (Object, error) {
	if r.err != nil {
		return Object{}, r.err
	}
	for {
		if r.list != nil {
			obj, dups, ok, err := r.list.next()
			if err != nil {
				r.list.close()
				r.list = nil
				r.err = &Error{File: r.file, Doc: r.doc, Item: r.item + 1, Err: err}
				return Object{}, r.err
			}
			if ok {
				r.item++
				return Object{File: r.file, Doc: r.doc, Item: r.item, Object: obj, Duplicates: dups}, nil
			}
			r.list.close()
			r.list = nil
		}
		if len(r.pending) > 0 {
			u := r.pending[0]
			r.pending[0] = unstructured.Unstructured{} // let it go once returned
			r.pending = r.pending[1:]
			dups := r.pendingDups[0]
			r.pendingDups = r.pendingDups[1:]
			r.item++
			return Object{File: r.file, Doc: r.doc, Item: r.item, Object: u.Object, Duplicates: dups}, nil
		}
		r.item = 0
		var raw, yamlDoc []byte
		var err error
		switch {
		case r.lines != nil:
			raw, yamlDoc, err = r.nextYAMLDocument()
		case r.splitting:
			raw, yamlDoc, err = r.nextJSONDocument()
		default:
			raw, yamlDoc, err = r.nextDocument()
		}
		if err != nil {
			r.err = err
			return Object{}, err
		}
		if e := r.tooLarge; e != nil {
			r.tooLarge = nil
			return Object{File: r.file, Doc: r.doc, Object: e.object(), TooLarge: e}, nil
		}
		if raw == nil { // a List, streamed
			continue
		}
		if yamlDoc == nil && raw[0] == '{' && !r.oracle {
			if l, _ := newJSONList(raw); l != nil {
				r.list = l
				r.streamed++
				continue
			}
		}
		obj, dups, list, err := decodeWhole(raw, yamlDoc)
		if err != nil {
			r.err = &Error{File: r.file, Doc: r.doc, Err: err}
			return Object{}, r.err
		}
		if list == nil {
			return Object{File: r.file, Doc: r.doc, Object: obj, Duplicates: dups}, nil
		}
		r.whole++
		r.pending = list.Items
		r.pendingDups = itemDuplicates(dups, len(list.Items))
	}
}

// nextYAMLDocument reads the next document of a YAML stream that is
// neither empty nor null. It returns its JSON and YAML, or nil and nil
// when it is a List whose items r.list streams.
func (r *Reader) nextYAMLDocument() (raw, yamlDoc []byte, err error) {
	for {
		r.raw.close()
		var l *yamlList
		if !r.oracle {
			l = &yamlList{items: spill{opts: &r.spillOpts}}
		}
		var size docSize
		refused := false
		// the document's bytes before its last line started, and whether
		// that line was dropped
		var lineStart int64
		cut := false
		// the last line's length and whether it holds more than blanks
		lineLen, lineText := 0, false
		err := r.lines.document(func(line []byte, start bool) {
			if line == nil {
				cut = true
				if l != nil {
					l.feedPart(nil, false)
				}
				return
			}
			if start {
				lineStart = r.raw.Len()
				lineLen, lineText = 0, false
			}
			lineLen += len(line)
			lineText = lineText || len(bytes.TrimSpace(line)) > 0
			size.add(line, start)
			if refused {
				return // counted, not kept
			}
			if size.tooLarge(r.limit) {
				refused = true
				r.raw.close()
				if l != nil {
					l.giveUp("the document is too large")
					l = nil
				}
				return
			}
			r.raw.Write(line)
			if l != nil {
				l.feedPart(line, start)
			}
		})
		if refused && err == nil {
			r.doc++
			r.tooLarge = size.err(r.limit)
			return nil, nil, nil
		}
		if errors.Is(err, io.EOF) {
			r.raw.close()
			return nil, nil, io.EOF
		}
		if err == nil && cut && lineText {
			err = &LastLineError{Len: lineLen}
		}
		if err != nil {
			r.raw.close()
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
		if l != nil {
			if items, _ := l.end(); items != nil {
				r.raw.close()
				r.doc++
				r.list = items
				r.streamed++
				return nil, nil, nil
			}
			l.items.close()
		}
		yamlDoc, err := r.raw.bytes()
		r.raw.close()
		if err != nil {
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
		if cut {
			yamlDoc = yamlDoc[:lineStart] // a line of blanks
		}
		// the document as the decoder of YAML streams decodes it
		// (YAMLToJSONDecoder.Decode, whose YAMLSyntaxError says the same;
		// splitting the document again would not give the same bytes: a
		// line ending in \r loses it)
		raw, err := yamlToRaw(yamlDoc)
		if err != nil {
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		r.doc++
		return raw, yamlDoc, nil
	}
}

// yamlToRaw is the Raw of the runtime.RawExtension that yaml.Unmarshal
// decodes doc into, with its error. yaml.Unmarshal converts doc with
// yaml.YAMLToJSON's conversion (a json.Unmarshaler target, such as
// *RawExtension, takes no part in it) and wraps its error so; then it
// decodes that JSON, valid since json.Marshal wrote it, with a
// json.Decoder, into Raw: a copy of it, none for null. The only error of
// that step is encoding/json's nesting limit (10000), so a document that
// nests deeper goes through yaml.Unmarshal itself, for its error; the
// others skip the second reading of their JSON.
func yamlToRaw(doc []byte) ([]byte, error) {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("error converting YAML to JSON: %w", err)
	}
	if jsonDepth(j) < 10000 {
		if bytes.Equal(j, []byte("null")) {
			return nil, nil
		}
		return j, nil
	}
	var ext runtime.RawExtension
	if err := yaml.Unmarshal(doc, &ext); err != nil {
		return nil, err
	}
	return ext.Raw, nil
}

// nextJSONDocument reads the next document of a JSON stream that is
// neither empty nor null, split here (splitJSON), and returns its JSON, or
// nil when it is a List whose items r.list streams or a document refused
// as too large (r.tooLarge). At the first value that is not JSON, the
// decoder of JSON streams takes over (handOver): from then on it splits
// the stream.
func (r *Reader) nextJSONDocument() (raw, yamlDoc []byte, err error) {
	for {
		if r.values >= 2 {
			// the decoder no longer falls back to YAML: seen holds the
			// current value only
			r.seen.close()
		}
		var s flowScan
		doc := spill{opts: &r.spillOpts}
		ok, err := r.splitJSON(&s, &doc)
		if errors.Is(err, io.EOF) {
			r.seen.close()
			return nil, nil, io.EOF
		}
		if err != nil {
			doc.close()
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
		if !ok {
			doc.close()
			return r.handOver()
		}
		if s.refused {
			r.values++
			r.doc++
			r.tooLarge = s.err(r.limit)
			return nil, nil, nil
		}
		if s.items && !r.oracle {
			if items, _ := doc.readList(); items != nil {
				doc.close()
				r.values++
				r.doc++
				r.list = items
				r.streamed++
				return nil, nil, nil
			}
		}
		raw, err := doc.bytes()
		doc.close()
		if err != nil {
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
		if !json.Valid(raw) {
			return r.handOver()
		}
		r.values++
		if bytes.Equal(raw, []byte("null")) {
			continue
		}
		r.doc++
		return raw, nil, nil
	}
}

// readList reads the List that the spill holds (compact JSON) item by
// item, or returns nil when it cannot stream it exactly.
func (s *spill) readList() (listStream, string) {
	rd, err := s.reader()
	if err != nil {
		return nil, err.Error()
	}
	return readJSONList(json.NewDecoder(rd), s.opts)
}

// splitJSON reads the next value of a JSON stream from r.br, white space
// before it included, into r.seen, follows it with s, and keeps its
// compact JSON in doc until s finds it too large. It returns io.EOF at the
// end of the stream, and false when the value is not JSON (r.br is then
// where s stopped).
func (r *Reader) splitJSON(s *flowScan, doc *spill) (ok bool, err error) {
	started := false
	var keep []byte
	for {
		buf, err := r.br.Peek(1)
		if len(buf) == 0 {
			switch {
			case errors.Is(err, io.EOF) && !started:
				return false, io.EOF
			case errors.Is(err, io.EOF):
				s.finish()
				return s.ended, nil
			}
			return false, err
		}
		buf, _ = r.br.Peek(r.br.Buffered())
		n := 0
		if !started {
			for n < len(buf) && isJSONSpace(buf[n]) {
				n++
			}
			started = n < len(buf)
		}
		if started {
			keep = keep[:0]
			var kept *[]byte
			if !s.refused {
				kept = &keep
			}
			n += s.feed(buf[n:], kept)
			if !s.refused && s.tooLarge(r.limit) {
				s.refused = true
				doc.close() // counted, not kept
				kept = nil
			}
			if kept != nil {
				doc.Write(keep)
			}
		}
		r.seen.Write(buf[:n])
		_, _ = r.br.Discard(n) // n bytes of the peeked buffer: cannot fail
		if s.bad {
			return false, nil
		}
		if s.ended {
			return true, nil
		}
	}
}

// handOver hands the stream to the decoder of JSON streams at a value
// that is not JSON, where and as the decoder would have been: after two
// values it returns the decoder's error for that value; before, it reads
// the stream again from its start, the values already read skipped (the
// decoder may still fall back to YAML).
func (r *Reader) handOver() (raw, yamlDoc []byte, err error) {
	r.splitting = false
	seen, err := r.seen.reader()
	if err != nil {
		return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
	}
	in := io.MultiReader(seen, r.br)
	if r.values >= 2 {
		var ext runtime.RawExtension
		err := json.NewDecoder(in).Decode(&ext)
		if err == nil {
			err = errors.New("a value that is not JSON") // splitJSON's errors are the decoder's
		}
		return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
	}
	r.dec = utilyaml.NewYAMLOrJSONDecoder(in, 4096)
	for range r.values {
		var ext runtime.RawExtension
		if err := r.dec.Decode(&ext); err != nil {
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
	}
	return r.nextDocument()
}

// nextDocument returns the JSON of the next document of a JSON stream that
// is neither empty nor null (StreamVisitor.Visit), and its YAML when the
// decoder has fallen back to YAML.
func (r *Reader) nextDocument() (raw, yamlDoc []byte, err error) {
	for {
		var ext runtime.RawExtension
		if err := r.dec.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, nil, io.EOF
			}
			return nil, nil, &Error{File: r.file, Doc: r.doc + 1, Err: err}
		}
		yamlDoc = r.yamlDocument()
		// RawExtension already leaves a null document empty; the null
		// check is StreamVisitor's, kept as it is
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		r.doc++
		return raw, yamlDoc, nil
	}
}

// decodeWhole decodes one document whole, as kubectl does, and finds its
// duplicate fields: the object, or the List (its items in list.Items, the
// duplicates under items[i]). It is the path of every document that is not
// a List streamed, and the oracle of the tests that streaming returns the
// same.
func decodeWhole(raw, yamlDoc []byte) (obj map[string]any, dups []string, list *unstructured.UnstructuredList, err error) {
	obj, list, err = decode(raw)
	if err != nil {
		return nil, nil, nil, err
	}
	dups, err = duplicates(raw, yamlDoc)
	if err != nil {
		return nil, nil, nil, err
	}
	return obj, dups, list, nil
}

// yamlDocument returns the YAML document that the decoder has just
// decoded, or nil for a JSON stream. The decoder has read the whole
// document (up to the next separator, or the end) before it returns it, so
// read holds it: docs splits it where the decoder's own YAMLReader did.
func (r *Reader) yamlDocument() []byte {
	if !r.modeKnown {
		r.modeKnown = true
		// NewYAMLOrJSONDecoder reads a JSON stream when the input starts
		// with "{" after white space (GuessJSONStream)
		r.json = bytes.HasPrefix(bytes.TrimLeft(r.read.Bytes(), " \t\r\n"), []byte("{"))
	}
	if r.json {
		if r.read != nil {
			r.read.Reset()
		}
		return nil
	}
	doc, err := r.docs.Read()
	if err != nil {
		return nil
	}
	return doc
}

// maxDuplicates is the number of duplicate fields the apiserver's strict
// decoding reports at most (sigs.k8s.io/json keeps the first 100).
const maxDuplicates = 100

// duplicates are the fields that a document gives twice: in its JSON, as
// the apiserver finds them (kjson.UnmarshalStrict with
// DisallowDuplicateFields), else in its YAML, which the decoder's
// conversion to JSON has already reduced to the last value of each field.
// The error is a YAML mapping whose keys collide (KeyCollisionError).
func duplicates(raw, yamlDoc []byte) ([]string, error) {
	if yamlDoc == nil {
		return jsonDuplicates(raw), nil
	}
	var n goyaml.Node
	if err := goyaml.Unmarshal(yamlDoc, &n); err != nil {
		return nil, nil
	}
	paths, _, collision := nodeDuplicates(&n, "", maxDuplicates)
	if collision != nil {
		return paths, collision
	}
	return paths, nil
}

// jsonDuplicates are the fields that a JSON document gives twice.
func jsonDuplicates(raw []byte) []string {
	var v any
	strictErrs, err := kjson.UnmarshalStrict(raw, &v, kjson.DisallowDuplicateFields)
	if err != nil {
		return nil
	}
	var paths []string
	for _, e := range strictErrs {
		if fe, ok := e.(interface{ FieldPath() string }); ok {
			paths = append(paths, fe.FieldPath())
		}
	}
	return paths
}

// nodeDuplicates are the duplicate fields of a YAML node at path root, at
// most limit, and plain: whether it has no anchor, alias, explicit tag, merge key
// (<<) or key that is not a scalar, whose reading on their own might
// differ from their reading in a larger document. Keys are compared as
// the JSON keys they become (jsonKey); the first two keys that become one
// JSON key as different values are the collision, and make it not plain.
func nodeDuplicates(n *goyaml.Node, root string, limit int) (paths []string, plain bool, collision *KeyCollisionError) {
	plain = true
	seen := map[string]bool{}
	var walk func(n *goyaml.Node, path string)
	walk = func(n *goyaml.Node, path string) {
		if n.Anchor != "" || n.Alias != nil || n.Style&goyaml.TaggedStyle != 0 {
			plain = false
		}
		switch n.Kind {
		case goyaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case goyaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, path+"["+strconv.Itoa(i)+"]")
			}
		case goyaml.MappingNode:
			keys := map[string]*goyaml.Node{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Kind != goyaml.ScalarNode {
					plain = false
					continue
				}
				if k.Value == "<<" || k.Anchor != "" || k.Style&goyaml.TaggedStyle != 0 {
					plain = false
				}
				key, read, ok := jsonKey(k)
				if !ok {
					key = k.Value
				}
				p := key
				if path != "" {
					p = path + "." + key
				}
				if first, dup := keys[key]; dup {
					if _, firstRead, _ := jsonKey(first); ok && !sameRead(firstRead, read) && collision == nil {
						plain = false
						collision = &KeyCollisionError{Path: path, First: written(first), Then: written(k), Key: key}
					}
					if !seen[p] && len(paths) < limit {
						seen[p] = true
						paths = append(paths, p)
					}
				} else {
					keys[key] = k
				}
				walk(v, p)
			}
		case goyaml.AliasNode:
			plain = false
		}
		// an alias is walked where its anchor is (an alias bomb is not
		// expanded)
	}
	walk(n, root)
	return paths, plain, collision
}

// sameRead reports whether go-yaml v2 reads two keys as one map key: equal
// values of one type (NaN is no map key's equal).
func sameRead(a, b any) bool { return a == b }

// itemDuplicates gives each of n List items its own duplicate fields, the
// paths under items[i] without that prefix: the apiserver receives each
// item as a request of its own. The List's own fields are nobody's.
func itemDuplicates(dups []string, n int) [][]string {
	out := make([][]string, n)
	for _, d := range dups {
		rest, ok := strings.CutPrefix(d, "items[")
		if !ok {
			continue
		}
		end := strings.Index(rest, "]")
		i, err := strconv.Atoi(rest[:max(end, 0)])
		if end < 0 || err != nil || i < 0 || i >= n || !strings.HasPrefix(rest[end+1:], ".") {
			continue
		}
		out[i] = append(out[i], rest[end+2:])
	}
	return out
}

// LastLineError is a stream whose last line has no line break after it
// and a length that is a multiple of 4,096 bytes: kubectl's YAML reader
// (k8s.io/apimachinery/pkg/util/yaml's LineReader, on a 4,096-byte
// bufio.Reader) gets that line with io.EOF, and YAMLReader drops it
// without a word. Rather than read the object kubectl would send without
// it, the document is refused.
type LastLineError struct{ Len int }

func (e *LastLineError) Error() string {
	return fmt.Sprintf("the last line (%d bytes) has no line break after it, and kubectl's YAML reader drops such a line "+
		"when its length is a multiple of 4,096 bytes: end the file with a line break", e.Len)
}

// ErrNotAnObject is a document or List item that is not a JSON object.
var ErrNotAnObject = errors.New("not an object")

// decode decodes one document as kubectl's unstructured builder does: with
// unstructured.UnstructuredJSONScheme, into an object or, when it has
// items, a list. A document without kind is returned as an object (the
// caller finds no CRD for it); kubectl refuses it as well.
func decode(raw []byte) (map[string]any, *unstructured.UnstructuredList, error) {
	if raw[0] != '{' {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotAnObject, describe(raw))
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(raw, nil, nil)
	if err != nil && !runtime.IsMissingKind(err) {
		return nil, nil, err
	}
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return o.Object, nil, nil
	case *unstructured.UnstructuredList:
		return o.Object, o, nil
	}
	// a missing kind: UnstructuredJSONScheme returns no object
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(raw); err != nil && !runtime.IsMissingKind(err) {
		return nil, nil, err
	}
	if items, ok := u.Object["items"]; ok && items != nil {
		return nil, nil, errors.New("a list without kind")
	}
	return u.Object, nil, nil
}

// describe names the JSON type of a value.
func describe(raw []byte) string {
	switch raw[0] {
	case '{':
		return "an object"
	case 'n':
		return "null"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// All ranges over the objects of r, named file; it stops after the first
// error.
func All(file string, r io.Reader) iter.Seq2[Object, error] {
	return func(yield func(Object, error) bool) {
		rd := NewReader(file, r)
		for {
			o, err := rd.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(o, err) || err != nil {
				return
			}
		}
	}
}

// TypeMeta is obj's apiVersion and kind ("" when absent). A value that is
// not a string names no type: kubectl decodes `kind: 5` as no kind at all
// ("Object 'Kind' is missing") and `apiVersion: 5` as no group and no
// version, so the error says what the document holds instead.
func TypeMeta(obj map[string]any) (apiVersion, kind string, err error) {
	if apiVersion, err = typeField(obj, "apiVersion", "group/version, e.g. apiVersion: example.com/v1"); err != nil {
		return "", "", err
	}
	kind, err = typeField(obj, "kind", "the kind's name, e.g. kind: Widget")
	return apiVersion, kind, err
}

// typeField is obj[key] when it is a string or absent; else an error that
// quotes the value as JSON and says what to write.
func typeField(obj map[string]any, key, want string) (string, error) {
	v, ok := obj[key]
	if s, isString := v.(string); isString || !ok {
		return s, nil
	}
	b, _ := json.Marshal(v)
	return "", fmt.Errorf("%s: %s is %s, not a string: write %s", key, quote.Excerpt(string(b)), describe(b), want)
}
