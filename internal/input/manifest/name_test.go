package manifest

import (
	"strings"
	"testing"
)

// TestObjectName: an object with only generateName is named by it, not as
// "default/"; the name wins over generateName, as the apiserver uses it.
func TestObjectName(t *testing.T) {
	for _, tc := range []struct{ ns, name, gen, want string }{
		{"default", "plain", "", "default/plain"},
		{"", "cluster", "", "cluster"},
		{"default", "", "route-", "default/route-… (generateName)"},
		{"", "", "route-", "route-… (generateName)"},
		{"default", "named", "route-", "default/named"},
	} {
		if got := ObjectName(tc.ns, tc.name, tc.gen); got != tc.want {
			t.Errorf("ObjectName(%q, %q, %q) = %q, want %q", tc.ns, tc.name, tc.gen, got, tc.want)
		}
	}
}

// TestTooLargeGenerateName: a document refused unread is named by the
// generateName of its top lines when it has no name, in block and in flow
// style.
func TestTooLargeGenerateName(t *testing.T) {
	const limit = 1024
	pad := strings.Repeat("x", 4*limit)
	for _, in := range []string{
		"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  generateName: big-\n  namespace: prod\ndata: " + pad + "\n",
		`{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"generateName": "big-", "namespace": "prod"}, "data": "` + pad + "\"}\n",
	} {
		objs := readLimited(t, strings.NewReader(in), limit)
		if len(objs) != 1 || objs[0].TooLarge == nil || objs[0].TooLarge.Object() != "Widget prod/big-… (generateName)" {
			var got string
			if len(objs) == 1 && objs[0].TooLarge != nil {
				got = objs[0].TooLarge.Object()
			}
			t.Errorf("%.60q: named %q", in, got)
		}
	}
}
