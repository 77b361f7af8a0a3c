package codeid

import (
	"bytes"
	"fmt"
	"testing"

	_ "k8s.io/apiextensions-apiserver/pkg/features" // registers the gates the CRD checks read
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// TestIdentity: the same code gives the same identity; a feature gate
// turned the other way gives another.
func TestIdentity(t *testing.T) {
	a, b := Identity(), Identity()
	if a == nil || !bytes.Equal(a, b) {
		t.Fatalf("Identity() = %x, then %x", a, b)
	}
	for g, spec := range utilfeature.DefaultMutableFeatureGate.GetAll() {
		if spec.LockToDefault || g == "AllAlpha" || g == "AllBeta" {
			continue
		}
		was := utilfeature.DefaultFeatureGate.Enabled(g)
		if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("%s=%t", g, !was)); err != nil {
			continue
		}
		changed := !bytes.Equal(Identity(), a)
		if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("%s=%t", g, was)); err != nil {
			t.Fatal(err)
		}
		if !changed {
			t.Errorf("turning %s did not change the identity", g)
		}
		if !bytes.Equal(Identity(), a) {
			t.Errorf("turning %s back did not restore the identity", g)
		}
		return
	}
	t.Skip("no feature gate that can be turned")
}
