package main

import "testing"

func TestParseFindings(t *testing.T) {
	stderr := `/m/sigs.k8s.io/gateway-api@v1.6.3/apis/v1/gateway_types.go:37:6: error: Gateway: CRD gateways.gateway.networking.k8s.io: metadata.annotations[api-approved.kubernetes.io]: Required value [apiserver]
/m/sigs.k8s.io/gateway-api@v1.6.3/apis/v1/httproute_types.go:46:2: warning: HTTPRoute.Status (status): omitempty has no effect on a non-pointer struct [omitempty-struct]
/m/k8s.io/api@v0.37.2/core/v1/types.go:10:2: warning: Pod.Spec (spec): omitempty has no effect on a non-pointer struct [omitempty-struct]
/m/sigs.k8s.io/gateway-api@v1.6.3/apis/v1/x.go:1:2: warning: X.Y (spec.y): something odd happened to 12 fields: details
warning: 2 findings in types from other modules (omitempty-struct: 2); run with crd:verbose=true to list them
Error: not all generators ran successfully; no files were written
`
	found, other := parseFindings(stderr, "sigs.k8s.io/gateway-api@v1.6.3/")
	if len(found) != 5 || len(other) != 1 {
		t.Fatalf("found %d findings and %d other lines, want 5 and 1: %+v %q", len(found), len(other), found, other)
	}
	rows := tally("gateway-api", found)
	type want struct {
		severity, rule string
		count, foreign int
	}
	wants := []want{
		{"error", "apiserver", 1, 0},
		{"warning", "omitempty-struct", 2, 1},
		{"warning", "“N findings in types from other modules”", 1, 0},
		{"warning", "“something odd happened to N fields”", 1, 0},
	}
	if len(rows) != len(wants) {
		t.Fatalf("got %d rows, want %d: %+v", len(rows), len(wants), rows)
	}
	for i, w := range wants {
		r := rows[i]
		if r.severity != w.severity || r.rule != w.rule || r.count != w.count || r.foreign != w.foreign {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	if rows[1].example.foreign {
		t.Errorf("example of omitempty-struct should come from the module itself: %+v", rows[1].example)
	}
	if got := shortPos("/m/k8s.io/api@v0.37.2/core/v1/types.go:10:2", "/m"); got != "k8s.io/api@v0.37.2/core/v1/types.go:10:2" {
		t.Errorf("shortPos = %q", got)
	}
}
