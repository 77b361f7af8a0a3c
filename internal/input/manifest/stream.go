package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
	goyaml "sigs.k8s.io/yaml/goyaml.v3"
)

const (
	// maxHeader is the size of a List's own fields (all but its items)
	// beyond which it is decoded whole.
	maxHeader = 1 << 20
	// maxItemDepth is the nesting of an item beyond which its List is
	// decoded whole: nested in the List, the item is 2 levels deeper, and
	// the decoders' limits (10000) would apply to the whole document only.
	maxItemDepth = 1000
)

// listStream hands out the items of a List, validated beforehand.
type listStream interface {
	// next returns the next item and its duplicate fields, or ok false
	// after the last one.
	next() (obj map[string]any, dups []string, ok bool, err error)
	close()
}

// listKinds are what the items of a List without apiVersion and kind take
// (unstructuredJSONScheme.decodeToList).
type listKinds struct{ apiVersion, itemKind string }

// decodeItem decodes one item of a List as unstructuredJSONScheme.decodeToList
// decodes it (decodeToUnstructured, then the list's apiVersion and kind for
// an item with neither).
func (k listKinds) decodeItem(js []byte) (map[string]any, error) {
	m := make(map[string]any)
	if err := utiljson.Unmarshal(js, &m); err != nil {
		return nil, err
	}
	u := unstructured.Unstructured{Object: m}
	if len(u.GetKind()) == 0 && len(u.GetAPIVersion()) == 0 {
		u.SetKind(k.itemKind)
		u.SetAPIVersion(k.apiVersion)
	}
	return u.Object, nil
}

// listHeader decodes the List's own fields, a document whose items are [],
// as decodeWhole decodes the List. It fails when the List would not decode
// whole, or when its own fields have duplicates (they count before the
// items' in the apiserver's limit of 100) or another spelling of items.
func listHeader(raw, yamlDoc []byte) (listKinds, string) {
	_, list, err := decode(raw)
	if err != nil || list == nil {
		return listKinds{}, "the List's own fields do not decode"
	}
	for k := range list.Object {
		if strings.EqualFold(k, "items") {
			return listKinds{}, "a field " + k
		}
	}
	if yamlDoc != nil {
		var n goyaml.Node
		if err := goyaml.Unmarshal(yamlDoc, &n); err != nil {
			return listKinds{}, "the List's own fields do not parse"
		}
		if dups, plain, _ := nodeDuplicates(&n, "", maxDuplicates); len(dups) > 0 || !plain {
			return listKinds{}, "the List's own fields have duplicates, anchors, aliases, tags or complex keys"
		}
	} else if len(jsonDuplicates(raw)) > 0 {
		return listKinds{}, "the List's own fields have duplicates"
	}
	return listKinds{apiVersion: list.GetAPIVersion(), itemKind: strings.TrimSuffix(list.GetKind(), "List")}, ""
}

// jsonDepth is the deepest nesting of arrays and objects in valid JSON.
func jsonDepth(js []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range js {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// itemDups are the duplicate fields of a List's items, by item (1-based),
// within the limit of maxDuplicates for the whole document.
type itemDups struct {
	byItem map[int][]string
	n      int
}

func (d *itemDups) add(item int, paths []string) {
	paths = paths[:min(len(paths), maxDuplicates-d.n)]
	if len(paths) == 0 {
		return
	}
	if d.byItem == nil {
		d.byItem = map[int][]string{}
	}
	d.byItem[item] = paths
	d.n += len(paths)
}

// --- JSON ---

// jsonList streams the items of a JSON List held in memory (the decoder
// of JSON streams holds the document): a first pass over the tokens checks
// every item as decodeWhole would decode it and finds the List's own
// fields wherever they are; the second decodes one item at a time.
type jsonList struct {
	kinds listKinds
	dups  itemDups
	dec   *json.Decoder
	n     int
}

// scanJSONList reads from dec a List, the object that starts at dec's
// next token: it checks every item as decodeWhole would decode it, finds
// the List's own fields wherever they are, and hands each item to each. It
// returns why not when the List would not read the same item by item (or
// is not a List).
func scanJSONList(dec *json.Decoder, each func(item json.RawMessage)) (kinds listKinds, dups itemDups, why string) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return kinds, dups, "not an object"
	}
	header := []byte{'{'}
	seen := map[string]bool{}
	n := 0
	hasItems := false
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return kinds, dups, "a key does not decode"
		}
		if seen[key] {
			return kinds, dups, "a field given twice: " + key
		}
		seen[key] = true
		if key != "items" {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return kinds, dups, "a value does not decode"
			}
			if len(header)+len(v) > maxHeader {
				return kinds, dups, "the List's own fields are too large"
			}
			k, _ := json.Marshal(key)
			header = append(append(append(append(header, k...), ':'), v...), ',')
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return kinds, dups, "items is not an array"
		}
		hasItems = true
		for dec.More() {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return kinds, dups, "an item does not decode"
			}
			n++
			if jsonDepth(v) > maxItemDepth {
				return kinds, dups, "an item is nested too deep"
			}
			if _, err := (listKinds{}).decodeItem(v); err != nil {
				return kinds, dups, "an item does not decode"
			}
			dups.add(n, jsonDuplicates(v))
			each(v)
		}
		if t, err := dec.Token(); err != nil || t != json.Delim(']') {
			return kinds, dups, "items does not end"
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return kinds, dups, "the List does not end"
	}
	if !hasItems || n == 0 {
		return kinds, dups, "no items"
	}
	header = append(header, `"items":[]}`...)
	kinds, why = listHeader(header, nil)
	return kinds, dups, why
}

// newJSONList returns the stream of the items of raw, a document held in
// memory, or why it cannot stream them exactly.
func newJSONList(raw []byte) (*jsonList, string) {
	kinds, dups, why := scanJSONList(json.NewDecoder(bytes.NewReader(raw)), func(json.RawMessage) {})
	if why != "" {
		return nil, why
	}
	l := &jsonList{kinds: kinds, dups: dups}
	// the second pass: up to the first item, over what the first pass
	// decoded whole, so that no read fails
	l.dec = json.NewDecoder(bytes.NewReader(raw))
	_, _ = l.dec.Token() // {
	for {
		t, _ := l.dec.Token()
		if t == "items" {
			_, _ = l.dec.Token() // [
			break
		}
		var v json.RawMessage
		_ = l.dec.Decode(&v)
	}
	return l, ""
}

// readJSONList reads a List from dec, the decoder of a JSON stream, and
// returns the stream of its items, whose JSON goes meanwhile to a spill
// (compact, one a line; opts are the spill's), or why it cannot stream
// them exactly (dec is then somewhere in the document).
func readJSONList(dec *json.Decoder, opts *spillOptions) (listStream, string) {
	items := &spill{opts: opts}
	var buf bytes.Buffer
	kinds, dups, why := scanJSONList(dec, func(v json.RawMessage) {
		buf.Reset()
		_ = json.Compact(&buf, v) // valid JSON: Decode read it
		buf.WriteByte('\n')
		items.Write(buf.Bytes())
	})
	if why != "" {
		items.close()
		return nil, why
	}
	r, err := items.reader()
	if err != nil {
		items.close()
		return nil, err.Error()
	}
	return &jsonItems{kinds: kinds, dups: dups, r: bufio.NewReaderSize(r, 64<<10), spill: items}, ""
}

func (l *jsonList) next() (map[string]any, []string, bool, error) {
	if !l.dec.More() {
		return nil, nil, false, nil
	}
	var v json.RawMessage
	if err := l.dec.Decode(&v); err != nil {
		return nil, nil, false, err
	}
	l.n++
	obj, err := l.kinds.decodeItem(v)
	return obj, l.dups.byItem[l.n], err == nil, err
}

func (l *jsonList) close() {}

// --- YAML ---

// yamlLines splits a YAML stream into documents line by line, as
// utilyaml.YAMLReader splits it (LineReader: lines without their line
// break, then "\n"; a line that starts with "---" ends a document, and
// only a comment may follow it), but hands each line to a consumer instead
// of holding the document: a line longer than the reader's buffer in parts,
// so that a document of one line is not held either.
type yamlLines struct {
	r    *bufio.Reader
	line []byte
	// inLine: the last part did not end its line
	inLine bool
}

// readPart returns the next line with its "\n", or the next part of it
// when it is longer than the reader's buffer (the last part has the "\n");
// start tells whether the part starts its line. A line that starts with
// "---" is returned whole, as LineReader.Read returns every line.
func (y *yamlLines) readPart() (part []byte, start bool, err error) {
	start = !y.inLine
	l, isPrefix, err := y.r.ReadLine()
	y.line = append(y.line[:0], l...)
	if isPrefix && (!start || !bytes.HasPrefix(l, []byte("---"))) {
		y.inLine = true
		return y.line, start, nil
	}
	for isPrefix {
		l, isPrefix, err = y.r.ReadLine()
		y.line = append(y.line, l...)
	}
	y.inLine = false
	y.line = append(y.line, '\n')
	return y.line, start, err
}

// document hands the lines of the next document to each, in parts (start:
// the part starts its line; a nil part drops the line started), and
// returns io.EOF when there is none, or YAMLReader's error.
func (y *yamlLines) document(each func(part []byte, start bool)) error {
	empty := true
	for {
		line, start, err := y.readPart()
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if !start {
			// the rest of a line that started this document
			if errors.Is(err, io.EOF) {
				// the line ended at the end of the stream, at a multiple
				// of the buffer: LineReader returns it with io.EOF, and
				// YAMLReader drops it
				each(nil, false)
				return nil
			}
			each(line, false)
			continue
		}
		if bytes.HasPrefix(line, []byte("---")) {
			if trimmed := bytes.TrimSpace(line[3:]); len(trimmed) > 0 && trimmed[0] != '#' {
				// YAMLReader's own error, for the same line
				_, err := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(line))).Read()
				return err
			}
			if !empty {
				return nil
			}
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
		}
		if errors.Is(err, io.EOF) {
			if !empty {
				return nil
			}
			return io.EOF
		}
		each(line, true)
		empty = false
	}
}

// yamlList finds, in the lines of one YAML document, a List in block style
// (`items:` at column 0, then `- ` entries at one column, as kubectl and
// most tools print it), and converts each item on its own, as soon as it
// ends, to the JSON that decodeWhole would find for it, checking that it
// decodes. The JSON goes to a spill, one item a line; the List's own
// fields, wherever they are, are kept apart. Anything else, or anything
// that might read differently on its own than in the document, gives up.
type yamlList struct {
	state          int
	why            string // why it gave up
	prefix, suffix bytes.Buffer
	col            int // the column of the items' dashes
	content        int // the column of the current item's content, or -1
	item           bytes.Buffer
	line           bytes.Buffer // a line read in parts
	n              int
	dups           itemDups
	items          spill
}

const (
	inHeader = iota
	atItems
	inItems
	inSuffix
	gaveUp
)

func (l *yamlList) giveUp(why string) {
	l.state, l.why = gaveUp, why
	l.items.close()
	l.item = bytes.Buffer{}
	l.line = bytes.Buffer{}
	l.prefix = bytes.Buffer{}
	l.suffix = bytes.Buffer{}
}

// feedPart takes the next part of a line of the document (start: the
// line's first part; the last part ends with its "\n"), and feeds the line
// once whole. A line of the List's own fields longer than maxHeader gives
// up before it is whole (the first line of a document in flow style).
func (l *yamlList) feedPart(part []byte, start bool) {
	if l.state == gaveUp {
		return
	}
	if start && part[len(part)-1] == '\n' {
		l.feed(part)
		return
	}
	if start || part == nil {
		l.line.Reset()
	}
	if part == nil {
		return
	}
	if (l.state == inHeader || l.state == inSuffix) && l.line.Len()+len(part) > maxHeader {
		l.giveUp("the List's own fields are too large")
		return
	}
	l.line.Write(part)
	if part[len(part)-1] == '\n' {
		l.feed(l.line.Bytes())
	}
}

// feed takes the next line of the document, with its "\n".
func (l *yamlList) feed(line []byte) {
	if l.state == gaveUp {
		return
	}
	// YAML breaks lines at \r, NEL, LS and PS as well: the lines here
	// would not be YAML's
	if bytes.IndexByte(line, '\r') >= 0 || bytes.Contains(line, []byte("\u0085")) ||
		bytes.Contains(line, []byte("\u2028")) || bytes.Contains(line, []byte("\u2029")) ||
		bytes.Contains(line, []byte("\ufeff")) {
		l.giveUp("a line break other than \\n, or a byte order mark")
		return
	}
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	if line[indent] == '\t' {
		l.giveUp("a tab in indentation")
		return
	}
	blank := line[indent] == '\n' || line[indent] == '#'
	switch l.state {
	case inHeader:
		if !blank && indent == 0 {
			if isItemsLine(line) {
				if _, err := yaml.YAMLToJSON(l.prefix.Bytes()); err != nil {
					l.giveUp("the fields before items do not parse on their own")
					return
				}
				l.state = atItems
				return
			}
			if !l.keyLine(line) {
				return
			}
		}
		l.header(&l.prefix, line)
	case atItems:
		if blank {
			return
		}
		if !isEntry(line, indent) {
			l.giveUp("items is not a block sequence")
			return
		}
		l.col = indent
		l.startItem(line)
		l.state = inItems
	case inItems:
		switch {
		case blank:
			l.item.Write(line)
		case indent > l.col:
			// the item's lines are where its content starts, or further
			// right: a line between the dash and the content reads
			// differently in the List and on its own
			if l.content < 0 {
				l.content = indent
			} else if indent < l.content {
				l.giveUp("a line less indented than its item")
				return
			}
			l.item.Write(line)
		case indent == l.col && isEntry(line, indent):
			if l.endItem(); l.state != gaveUp {
				l.startItem(line)
			}
		case indent != 0:
			l.giveUp("a line less indented than the items")
		default:
			if l.endItem(); l.state != gaveUp {
				l.state = inSuffix
				l.feed(line)
			}
		}
	case inSuffix:
		if !blank && indent == 0 && !l.keyLine(line) {
			return
		}
		l.header(&l.suffix, line)
	}
}

// isItemsLine: `items:`, then nothing but a comment.
func isItemsLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("items:"))
	if !ok {
		return false
	}
	if rest[0] != ' ' {
		return rest[0] == '\n'
	}
	rest = bytes.TrimLeft(rest, " ")
	return rest[0] == '\n' || rest[0] == '#'
}

// isEntry: a `- ` (or a lone `-`) at the column.
func isEntry(line []byte, col int) bool {
	return line[col] == '-' && (line[col+1] == ' ' || line[col+1] == '\n')
}

// keyLine checks a line at column 0 outside the items: a key of the List,
// not `items` again, nor an indicator (complex keys, directives, document
// markers, flow collections, anchors, tags, block scalars).
func (l *yamlList) keyLine(line []byte) bool {
	if isItemsLine(line) || bytes.HasPrefix(line, []byte("\"items\"")) || bytes.HasPrefix(line, []byte("'items'")) {
		l.giveUp("items given twice")
		return false
	}
	if strings.IndexByte("-?:,[]{}&*!|>%@`.", line[0]) >= 0 {
		l.giveUp("a line that starts with " + string(line[0]))
		return false
	}
	return true
}

func (l *yamlList) header(b *bytes.Buffer, line []byte) {
	if l.prefix.Len()+l.suffix.Len()+len(line) > maxHeader {
		l.giveUp("the List's own fields are too large")
		return
	}
	b.Write(line)
}

// startItem starts an item with its first line, the dash made a space:
// the item is then a document of its own, its lines where they were.
func (l *yamlList) startItem(line []byte) {
	l.item.Reset()
	l.content = -1
	if rest := bytes.TrimLeft(line[l.col+1:], " "); rest[0] != '\n' && rest[0] != '#' {
		l.content = len(line) - len(rest)
	}
	l.item.Write(line[:l.col])
	l.item.WriteByte(' ')
	l.item.Write(line[l.col+1:])
}

func (l *yamlList) endItem() {
	l.n++
	text := l.item.Bytes()
	js, err := yaml.YAMLToJSON(text)
	if err != nil {
		l.giveUp("an item does not convert on its own")
		return
	}
	if jsonDepth(js) > maxItemDepth {
		l.giveUp("an item is nested too deep")
		return
	}
	if _, err := (listKinds{}).decodeItem(js); err != nil {
		l.giveUp("an item does not decode")
		return
	}
	var n goyaml.Node
	if err := goyaml.Unmarshal(text, &n); err != nil {
		l.giveUp("an item does not parse on its own")
		return
	}
	// a block mapping: a flow collection or a scalar ends differently on
	// its own than in a sequence
	if len(n.Content) != 1 || n.Content[0].Kind != goyaml.MappingNode || n.Content[0].Style&goyaml.FlowStyle != 0 {
		l.giveUp("an item that is not a mapping in block style")
		return
	}
	// the item's paths as the List's, less their prefix, as
	// itemDuplicates makes them (an empty key leaves a dot)
	dups, plain, _ := nodeDuplicates(&n, "items[0]", maxDuplicates-l.dups.n)
	if !plain {
		l.giveUp("an item has anchors, aliases, tags, merge or complex keys")
		return
	}
	for i, d := range dups {
		dups[i] = strings.TrimPrefix(d, "items[0].")
	}
	l.dups.add(l.n, dups)
	l.items.Write(js)
	l.items.Write([]byte{'\n'})
}

// end ends the document: it returns the stream of its items, or why it
// has none.
func (l *yamlList) end() (listStream, string) {
	switch l.state {
	case gaveUp:
		return nil, l.why
	case inHeader, atItems:
		return nil, "no items in block style"
	case inItems:
		l.endItem()
		if l.state == gaveUp {
			return nil, l.why
		}
	}
	doc := append(append(l.prefix.Bytes(), "items: []\n"...), l.suffix.Bytes()...)
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, "the List's own fields do not parse"
	}
	kinds, why := listHeader(bytes.TrimSpace(js), doc)
	if why != "" {
		return nil, why
	}
	r, err := l.items.reader()
	if err != nil {
		return nil, err.Error()
	}
	return &jsonItems{kinds: kinds, dups: l.dups, r: bufio.NewReaderSize(r, 64<<10), spill: &l.items}, ""
}

// jsonItems hands out the items that yamlList converted, or that
// readJSONList read, from their spill.
type jsonItems struct {
	kinds listKinds
	dups  itemDups
	r     *bufio.Reader
	spill *spill
	n     int
	line  []byte
}

func (y *jsonItems) next() (map[string]any, []string, bool, error) {
	y.line = y.line[:0]
	for {
		b, err := y.r.ReadSlice('\n')
		y.line = append(y.line, b...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) && len(y.line) == 0 {
			return nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
		break
	}
	y.n++
	obj, err := y.kinds.decodeItem(y.line)
	return obj, y.dups.byItem[y.n], err == nil, err
}

func (y *jsonItems) close() { y.spill.close() }
