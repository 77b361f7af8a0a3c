package normalizecmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/normalize"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// gatewayAPICRDs is the directory of gateway-api v1.6.1's experimental
// CRDs in the module cache, downloaded through the Go module proxy if
// needed; the benchmark is skipped when it cannot be.
func gatewayAPICRDs(tb testing.TB) string {
	tb.Helper()
	dir, err := realapis.ModuleDir(context.Background(), "sigs.k8s.io/gateway-api", "v1.6.1")
	if err != nil {
		tb.Skipf("gateway-api v1.6.1 not available: %v", err)
	}
	return filepath.Join(dir, "config", "crd", "experimental")
}

// gatewayAPIRoute is one HTTPRoute (gateway-api's examples/standard/basic-http.yaml).
const gatewayAPIRoute = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: http-app-1
spec:
  parentRefs:
  - name: my-gateway
  hostnames:
  - "foo.com"
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /bar
    backendRefs:
    - name: my-service1
      port: 8080
`

// BenchmarkStartup is a whole run of the command on one object against
// gateway-api's 13 experimental CRDs: loading and validating the CRDs,
// building what the object needs, creating it. With -cpuprofile it shows
// where a short run's time goes. CONTROLLER_GEN_DEFAULT_CHECK_CACHE=off
// measures it with every CRD validated.
func BenchmarkStartup(b *testing.B) {
	crds := gatewayAPICRDs(b)
	obj := filepath.Join(b.TempDir(), "route.yaml")
	if err := os.WriteFile(obj, []byte(gatewayAPIRoute), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var stdout, stderr bytes.Buffer
		if code := Run([]string{"--crd", crds, obj}, nil, &stdout, &stderr); code != normalize.ExitOK {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
}
