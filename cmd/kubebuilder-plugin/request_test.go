package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// decodeWhole is what the plugin did before readRequest: encoding/json's
// Decoder on the whole request.
func decodeWhole(data []byte) (PluginRequest, error) {
	var req PluginRequest
	err := json.NewDecoder(bytes.NewReader(data)).Decode(&req)
	return req, err
}

// withoutUnread is req with only the universe's files that the plugin reads.
func withoutUnread(req PluginRequest) PluginRequest {
	if req.Universe == nil {
		return req
	}
	u := map[string]string{}
	for name, content := range req.Universe {
		if pluginReads(name) {
			u[name] = content
		}
	}
	req.Universe = u
	return req
}

// checkAsEncodingJSON: readRequest refuses what encoding/json's Decoder
// refuses, and otherwise gives its request without the files not read.
func checkAsEncodingJSON(t *testing.T, data []byte) {
	want, werr := decodeWhole(data)
	got, gerr := readRequest(bytes.NewReader(data))
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: encoding/json: %v; readRequest: %v", data, werr, gerr)
	}
	if werr != nil {
		return
	}
	if want = withoutUnread(want); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nreadRequest  %#v\nencoding/json %#v", data, got, want)
	}
}

var requestSeeds = []string{
	`{"apiVersion":"v1alpha1","command":"init","args":["--domain","x.io"],"universe":{"Makefile":"all:\n","bin/kubectl":"\u007fELF\ufffd\u0000","go.mod":"module x\n","api/v1/a_types.go":"package v1\n","README.md":"# x"},"pluginChain":["go.kubebuilder.io/v4"],"config":{"version":"3","layout":["a"]}}`,
	`{}`, `null`, `[]`, `5`, `"x"`, ``, ` `, `{`, `{"universe"`, `{"universe":`, `{"universe":{`,
	`{"universe":{"a.txt":"x\"y\\z\/\b\f\n\r\t\u00e9"}}`,
	`{"universe":{"a.txt":"\x01"}}`, `{"universe":{"a.txt":"\q"}}`, `{"universe":{"a.txt":"\u00g0"}}`,
	`{"universe":{"a.txt":"\u12`, `{"universe":{"a.txt":5}}`, `{"universe":{"a.go":5}}`, `{"universe":{"a.txt":null}}`,
	`{"universe":{"a.go":null}}`, `{"universe":{"a.txt":"x",}}`, `{"universe":{"a.txt":"x" "b":"y"}}`,
	`{"universe":{"a.go":"1","a.go":"2"}}`, `{"universe":{"a.go":"1"},"universe":{"b.go":"2"}}`,
	`{"universe":{"a.go":"1"},"UNIVERSE":null,"Universe":{"c.go":"3"}}`, `{"univ\u0065rse":{"a.go":"x"}}`,
	`{"universe":null}`, `{"universe":[]}`, `{"universe":"x"}`, `{"universe":{}}`, `{"universe":{} }trailing`,
	`{"args":[1,2]}`, `{"args":["a"] "command":"x"}`, `{"args":["a"],}`, `{"command":tru}`, `{"config":{"a":[{"b":[]}]}}`,
	`{"config":{"a":[}]}}`, `{"config":{"a" 1}}`, `{"config":1e5}`, `{"command":"x"}{"command":"y"}`,
	"{\"universe\":{\"a.go\":\"\xff\xfe\"},\"\xffkey\":1}", `{"universe":{"\ud800.go":"x"}}`, `{"command":-}`,
	` { "universe" : { "Makefile" : "m" , "x" : "y" } , "command" : "init" } `, `{"a":1`, `{"a":[1,`,
}

func TestReadRequestAsEncodingJSON(t *testing.T) {
	for _, s := range requestSeeds {
		checkAsEncodingJSON(t, []byte(s))
	}
	// A string longer than the reader's buffer, with escapes across its
	// chunks.
	long := strings.Repeat(`abc\"\u00e9\\`, 20000)
	checkAsEncodingJSON(t, []byte(`{"universe":{"bin/x":"`+long+`","x.go":"`+long+`"}}`))
	checkAsEncodingJSON(t, []byte(`{"universe":{"bin/x":"`+long+`\u00`))
	checkAsEncodingJSON(t, []byte(`{"universe":{"bin/x":"`+long+"\x1f"+`"}}`))
}

func FuzzReadRequest(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkAsEncodingJSON)
}

// TestReadRequestErrors: where the request is not JSON, readRequest says
// why and where, in encoding/json's words and offsets.
func TestReadRequestErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"universe":{"a.txt":"\q"}}`:     `invalid character 'q' in string escape code at offset 24`,
		`{"universe":{"a.txt":"x" "b"}}`:  `invalid character '"' after object key:value pair at offset 26`,
		`{"universe" 1}`:                  `invalid character '1' after object key at offset 13`,
		`{"universe":{"a":"x"}`:           io.ErrUnexpectedEOF.Error(),
		"{\"universe\":{\"a\":\"\t\"}}":   `invalid character '\t' in string literal at offset 19`,
		`{"universe":{"a":"\u12x4"}}`:     `invalid character 'x' in \u hexadecimal character escape at offset 23`,
		`{"universe":{"a":"x"},"args":5}`: `json: cannot unmarshal number into Go struct field PluginRequest.args of type []string`,
	} {
		_, err := readRequest(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
	if _, err := readRequest(strings.NewReader(`{"a":1`)); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a request cut short: %v", err)
	}
}

// TestRequestHoldsWhatThePluginReads: the plugin answers each command the
// same from the universe that readRequest keeps as from the whole one, so
// pluginReads names every file it reads.
func TestRequestHoldsWhatThePluginReads(t *testing.T) {
	u := webhookUniverse(t)
	u["bin/k8s/1.37.1-linux-amd64/etcd"] = "\x7fELF\x02\x01\x01\x00\xff\xfe\x00binary"
	u["config/samples/ship_v1_frigate.yaml"] = "apiVersion: ship.example.com/v1\nkind: Frigate\n"
	for _, req := range []PluginRequest{
		request(t, "init", nil, u),
		request(t, "edit", []string{pinned, "v0.2.0"}, u),
		request(t, "create webhook", webhookArgs, u),
		request(t, "flags", []string{"--init"}, u),
	} {
		var wholeLog, keptLog bytes.Buffer
		whole := plugin{}.handle(req, &wholeLog)
		kept := plugin{}.handle(withoutUnread(req), &keptLog)
		if !reflect.DeepEqual(whole, kept) || wholeLog.String() != keptLog.String() {
			t.Errorf("%s: the whole universe gives\n%+v\n%s\nthe kept files\n%+v\n%s", req.Command, whole, wholeLog.String(), kept, keptLog.String())
		}
		if len(withoutUnread(req).Universe) >= len(req.Universe)-2 {
			t.Errorf("%s: the binary and the sample were kept", req.Command)
		}
	}
}

// BenchmarkReadRequest: a request whose universe holds a 32 MiB binary, as
// envtest's in bin/k8s, decoded whole by encoding/json and by readRequest
// (-benchmem: B/op).
func BenchmarkReadRequest(b *testing.B) {
	bin := make([]byte, 32<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range bin {
		bin[i] = byte(r.UintN(256))
	}
	data, err := json.Marshal(PluginRequest{APIVersion: protocolVersion, Command: commandCreateWebhook,
		Universe: map[string]string{"bin/k8s/etcd": string(bin), "Makefile": "all:\n", "go.mod": "module x\n"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := decodeWhole(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("readRequest", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := readRequest(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
