package crdcheck

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"strconv"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// decodeCache is the cache of the CRDs decoded from CRD files: the check
// cache (checkcache.Open), so off when CONTROLLER_GEN_DEFAULT_CHECK_CACHE
// is "off". A variable for the tests.
var decodeCache = checkcache.Open

// dataCRDs names the decode cache's entries among the check cache's.
const dataCRDs = "crds"

// decodedCRD is what the decode cache stores of one CRD of a file: its
// document and item (manifest.Object's Doc and Item), and the JSON that
// crdOf decoded it from (decodeCRD).
type decodedCRD struct {
	doc, item int
	json      []byte
}

// readFileCached is readCRDs on the file p, through cache (nil: none).
//
// An entry is keyed by the file's bytes (their SHA-256) and by the code
// (checkcache.DataKey; the check cache's salt names the running code) and
// holds, for each CRD readCRDs returns, its document and item and the JSON
// crdOf decoded it from. readCRDs is a pure function of those bytes and
// of the code, but for the file's name, which the entry leaves out (it
// takes part only in positions and errors), so a hit gives its result:
// each CRD decoded again from that JSON, as crdOf decodes it, at
// FILE:DOC[:ITEM] under this call's name. It skips the YAML's conversion
// to JSON, the search for duplicate fields and the map's round trip.
//
// Only a file read without error is stored (an error is found again on
// every run, by the code of the run), under the digest of the bytes that
// were decoded (a file that changes while it is read is stored under what
// was read). An entry that is missing, does not parse, or whose JSON no
// longer decodes is a miss: the file is read as without a cache.
func readFileCached(cache *checkcache.Cache, t tree, p string) ([]sourcedCRD, error) {
	if cache != nil {
		if out, ok := readFromCache(cache, t, p); ok {
			return out, nil
		}
	}
	f, err := t.fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: Close loses nothing
	if cache == nil {
		return readCRDs(t.name(p), f)
	}
	h := sha256.New()
	out, decoded, err := readCRDsJSON(t.name(p), io.TeeReader(f, h))
	if err != nil {
		return nil, err
	}
	// the rest of the file, if the reader stopped short of its end: the
	// entry is of the whole file
	if _, err := io.Copy(h, f); err == nil {
		cache.Store(cache.DataKey(dataCRDs, h.Sum(nil)), encodeDecoded(decoded))
	}
	return out, nil
}

// readFromCache is the CRDs of the file p as the entry of its bytes holds
// them, or false.
func readFromCache(cache *checkcache.Cache, t tree, p string) ([]sourcedCRD, bool) {
	f, err := t.fsys.Open(p)
	if err != nil {
		return nil, false
	}
	h := sha256.New()
	_, err = io.Copy(h, f)
	_ = f.Close() // read only: Close loses nothing
	if err != nil {
		return nil, false
	}
	value, ok := cache.Load(cache.DataKey(dataCRDs, h.Sum(nil)))
	if !ok {
		return nil, false
	}
	decoded, ok := decodeDecoded(value)
	if !ok {
		return nil, false
	}
	name := t.name(p)
	out := make([]sourcedCRD, len(decoded))
	for i, d := range decoded {
		c, err := decodeCRD(d.json)
		if err != nil {
			return nil, false
		}
		out[i] = sourcedCRD{crd: c, at: manifest.Object{File: name, Doc: d.doc, Item: d.item}.Source()}
	}
	return out, true
}

// encodeDecoded is the value of an entry: "crds N\n", then for each CRD
// "DOC ITEM LEN\n", its JSON (LEN bytes) and "\n".
func encodeDecoded(decoded []decodedCRD) []byte {
	n := 0
	for _, d := range decoded {
		n += len(d.json) + 32
	}
	b := make([]byte, 0, n+16)
	b = fmt.Appendf(b, "%s %d\n", dataCRDs, len(decoded))
	for _, d := range decoded {
		b = fmt.Appendf(b, "%d %d %d\n", d.doc, d.item, len(d.json))
		b = append(b, d.json...)
		b = append(b, '\n')
	}
	return b
}

// decodeDecoded parses encodeDecoded's value, or returns false.
func decodeDecoded(b []byte) ([]decodedCRD, bool) {
	line := func() ([]string, bool) {
		l, rest, ok := bytes.Cut(b, []byte("\n"))
		b = rest
		return bytesFields(l), ok
	}
	head, ok := line()
	if !ok || len(head) != 2 || head[0] != dataCRDs {
		return nil, false
	}
	n, err := strconv.Atoi(head[1])
	if err != nil || n < 0 || n > len(b) {
		return nil, false
	}
	out := make([]decodedCRD, 0, n)
	for range n {
		f, ok := line()
		if !ok || len(f) != 3 {
			return nil, false
		}
		doc, err1 := strconv.Atoi(f[0])
		item, err2 := strconv.Atoi(f[1])
		size, err3 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || err3 != nil || doc < 1 || item < 0 || size < 0 || size >= len(b) || b[size] != '\n' {
			return nil, false
		}
		out = append(out, decodedCRD{doc: doc, item: item, json: b[:size]})
		b = b[size+1:]
	}
	if len(b) != 0 {
		return nil, false
	}
	return out, true
}

// bytesFields is l split at single spaces.
func bytesFields(l []byte) []string {
	var out []string
	for f := range bytes.SplitSeq(l, []byte(" ")) {
		out = append(out, string(f))
	}
	return out
}
