package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
)

// benchList is a List of n objects as kubectl get -A -o yaml (or -o json)
// prints it: keys sorted, items at column 0.
func benchList(n int, asJSON bool) []byte {
	var b bytes.Buffer
	if asJSON {
		b.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"labels": {"app": "web"}, "name": "w%[1]d", "namespace": "ns"},
            "spec": {"config": "line one\nline two\n", "ports": [{"name": "http", "port": 8080}], "replicas": 3, "seed": %[1]d}}`, i)
		}
		b.WriteString("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\"resourceVersion\": \"\"}\n}\n")
		return b.Bytes()
	}
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "- apiVersion: example.com/v1\n  kind: Widget\n  metadata:\n    labels:\n      app: web\n    name: w%d\n    namespace: ns\n"+
			"  spec:\n    config: |\n      line one\n      line two\n    ports:\n    - name: http\n      port: 8080\n    replicas: 3\n    seed: %d\n", i, i)
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.Bytes()
}

// BenchmarkListItems reads a List of 1,000 and 10,000 items streamed and
// whole (the reader before streaming): time and allocations per List.
func BenchmarkListItems(b *testing.B) {
	for _, format := range []string{"yaml", "json"} {
		for _, n := range []int{1000, 10000} {
			in := benchList(n, format == "json")
			for _, way := range []string{"streamed", "whole"} {
				b.Run(fmt.Sprintf("%s/%d/%s", format, n, way), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(in)))
					for b.Loop() {
						var r *Reader
						if way == "whole" {
							r = newOracle("f", bytes.NewReader(in))
						} else {
							r = NewReader("f", bytes.NewReader(in))
						}
						got := 0
						for {
							_, err := r.Next()
							if errors.Is(err, io.EOF) {
								break
							}
							if err != nil {
								b.Fatal(err)
							}
							got++
						}
						if got != n || (way == "streamed") != (r.streamed == 1) {
							b.Fatalf("%d objects, %d streamed", got, r.streamed)
						}
					}
				})
			}
		}
	}
}
