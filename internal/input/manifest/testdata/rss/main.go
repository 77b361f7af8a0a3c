// Command rss writes a List as kubectl get -A -o yaml (or -o json) writes
// it, or reads one with internal/input/manifest, to measure the reader's peak
// memory (see docs/normalize.md):
//
//	go build -o /tmp/rss ./internal/input/manifest/testdata/rss
//	/tmp/rss gen yaml 40000 > /tmp/list.yaml
//	/usr/bin/time -f %M /tmp/rss read /tmp/list.yaml
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

func main() {
	switch {
	case len(os.Args) == 4 && os.Args[1] == "gen":
		n, err := strconv.Atoi(os.Args[3])
		if err != nil {
			fail(err)
		}
		w := bufio.NewWriter(os.Stdout)
		if os.Args[2] == "json" {
			writeJSON(w, n)
		} else {
			writeYAML(w, n)
		}
		if err := w.Flush(); err != nil {
			fail(err)
		}
	case len(os.Args) == 3 && os.Args[1] == "read":
		f, err := os.Open(os.Args[2])
		if err != nil {
			fail(err)
		}
		n, fields := 0, 0
		for o, err := range manifest.All(os.Args[2], f) {
			if err != nil {
				fail(err)
			}
			n++
			fields += len(o.Object)
		}
		fmt.Println(n, "objects,", fields, "top-level fields")
	default:
		fail(fmt.Errorf("usage: rss gen yaml|json N | rss read FILE"))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// writeYAML writes n ConfigMap-like objects of about 1.5 KB, keys sorted,
// items at column 0, as kubectl prints them.
func writeYAML(w *bufio.Writer, n int) {
	w.WriteString("apiVersion: v1\nitems:\n")
	for i := range n {
		fmt.Fprintf(w, `- apiVersion: example.com/v1
  kind: Widget
  metadata:
    annotations:
      example.com/note: "object %[1]d, with a note: quoted"
    creationTimestamp: "2024-01-01T00:00:00Z"
    labels:
      app: web
      tier: backend
    managedFields:
    - apiVersion: example.com/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:replicas: {}
          f:template:
            f:metadata:
              f:labels:
                f:app: {}
      manager: kubectl
      operation: Update
      time: "2024-01-01T00:00:00Z"
    name: widget-%[1]d
    namespace: ns-%[2]d
    resourceVersion: "%[1]d"
    uid: 0000-%[1]d
  spec:
    config: |
      line one of %[1]d
      line two
    ports:
    - name: http
      port: 8080
    - name: metrics
      port: 9090
    replicas: 3
    seed: %[1]d
  status:
    conditions:
    - lastTransitionTime: "2024-01-01T00:00:00Z"
      message: all good
      reason: Ready
      status: "True"
      type: Ready
`, i, i%50)
	}
	w.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
}

func writeJSON(w *bufio.Writer, n int) {
	w.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
	for i := range n {
		if i > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, `        {"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"annotations": {"example.com/note": "object %[1]d"}, "labels": {"app": "web", "tier": "backend"},
                "managedFields": [{"apiVersion": "example.com/v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}, "manager": "kubectl", "operation": "Update"}],
                "name": "widget-%[1]d", "namespace": "ns-%[2]d", "resourceVersion": "%[1]d", "uid": "0000-%[1]d"},
            "spec": {"config": "line one of %[1]d\nline two\n", "ports": [{"name": "http", "port": 8080}, {"name": "metrics", "port": 9090}], "replicas": 3, "seed": %[1]d},
            "status": {"conditions": [{"message": "all good", "reason": "Ready", "status": "True", "type": "Ready"}]}}`, i, i%50)
	}
	w.WriteString("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\"resourceVersion\": \"\"}\n}\n")
}
