package crdgen_test

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/defaultgen"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// TestDropInShapes: on API shapes of real modules where controller-tools'
// crd generator succeeds (testdata/dropin: karpenter's duration wrapper
// with its own JSON encoding, defaulted with +kubebuilder:default; a status
// type reached from three versions through a chain of aliases, with
// selectableFields; a struct embedded through an alias, and a type defined
// from another package's struct), ours succeeds too, and:
//   - with implicitDefaults=false, its CRDs are controller-tools', byte
//     for byte;
//   - with defaults, its CRDs pass the apiserver's validation, the
//     versions that controller-tools writes with equal schemas stay equal,
//     and every default controller-tools writes is written unchanged;
//   - the defaults generator leaves the defaults it cannot write in Go
//     unset, with the warnings the `// want` comments say, and exits 0.
func TestDropInShapes(t *testing.T) {
	const pkgs = "../testdata/dropin/..."
	theirs := generate(t, crd.Generator{OmitToolVersion: ptr(true)}, false, pkgs)
	if theirs.failed || len(theirs.files) != 3 {
		t.Fatalf("controller-tools: failed %v, %d files:\n%s", theirs.failed, len(theirs.files), theirs.diags)
	}
	off := generate(t, crdgen.Generator{OmitToolVersion: ptr(true), ImplicitDefaults: ptr(false)}, true, pkgs)
	if off.failed {
		t.Fatalf("implicitDefaults=false failed:\n%s", off.diags)
	}
	for name, b := range theirs.files {
		if !bytes.Equal(b, off.files[name]) {
			t.Errorf("implicitDefaults=false: %s differs from controller-tools':\n%s", name, firstDiff(b, off.files[name]))
		}
	}
	on := generate(t, crdgen.Generator{OmitToolVersion: ptr(true)}, true, pkgs)
	if on.failed {
		t.Fatalf("failed:\n%s", on.diags)
	}
	ref := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, c := range decodeCRDs(t, theirs.files) {
		ref[c.Name] = c
	}
	for _, c := range decodeCRDs(t, on.files) {
		if errs := crdcheck.ValidateCRD(context.Background(), c); len(errs) > 0 {
			t.Errorf("%s: %v", c.Name, errs.ToAggregate())
		}
		r := ref[c.Name]
		if r == nil {
			t.Fatalf("%s: not in controller-tools' output", c.Name)
		}
		for i, rv := range r.Spec.Versions {
			for j := i + 1; j < len(r.Spec.Versions); j++ {
				if reflect.DeepEqual(rv.Schema, r.Spec.Versions[j].Schema) && !reflect.DeepEqual(c.Spec.Versions[i].Schema, c.Spec.Versions[j].Schema) {
					t.Errorf("%s: versions %s and %s: equal schemas in controller-tools' CRD, not in ours", c.Name, rv.Name, r.Spec.Versions[j].Name)
				}
			}
			realapistest.WalkDefaults("", rv.Schema.OpenAPIV3Schema, c.Spec.Versions[i].Schema.OpenAPIV3Schema, func(path string, theirs, ours *apiextensionsv1.JSON) {
				if ours == nil || !bytes.Equal(theirs.Raw, ours.Raw) {
					t.Errorf("%s %s %s: controller-tools' default %s, ours %v", c.Name, rv.Name, path, theirs.Raw, ours)
				}
			})
		}
	}
	// the crd generator says nothing of these shapes; the defaults
	// generator, its warnings
	if on.diags != "" {
		t.Errorf("crd printed:\n%s", on.diags)
	}
	dflt := generate(t, defaultgen.Generator{}, true, "../testdata/dropin/ownencoding/...")
	if dflt.failed {
		t.Fatalf("defaults failed:\n%s", dflt.diags)
	}
	checkDiagnostics(t, "../testdata/dropin/ownencoding", dflt.diags)
	// a default left unset imports nothing: the file compiles
	if code := string(dflt.files["zz_generated.defaults.go"]); strings.Contains(code, "apiextensions") {
		t.Errorf("the defaults file imports what the defaults left unset needed:\n%s", code)
	}

	// a type defined from a struct has its fields, and their defaults, in
	// the Go defaulter as in the CRD (spec.d.name)
	dfn := generate(t, defaultgen.Generator{}, true, "../testdata/dropin/defined/...")
	code := string(dfn.files["zz_generated.defaults.go"])
	if dfn.failed || !strings.Contains(code, "func setDefaults_Defined(in *Defined) {\n\tif in.Name == \"\" {\n\t\tin.Name = \"x\"") {
		t.Errorf("defaults of testdata/dropin/defined:\n%s\n%s", dfn.diags, code)
	}
}

// TestRefusedAsControllerGenWritesIt: where controller-tools writes a CRD
// that the apiserver refuses for something other than a default that crd
// wrote (two storage versions; a list-map key that is optional and has no
// default, whose error the apiserver reports at the key's .default), crd
// writes nothing and says that the CRD is refused as controller-gen
// writes it, naming crd:check=false; the apiserver's validation refuses
// controller-tools' CRD with the same words.
func TestRefusedAsControllerGenWritesIt(t *testing.T) {
	for _, tc := range []struct{ pkgs, refused string }{
		{"../testdata/refused/twostorage/...", "must have exactly one version marked as storage version"},
		{"../testdata/refused/listmapkey/...", "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"},
	} {
		t.Run(tc.pkgs, func(t *testing.T) {
			theirs := generate(t, crd.Generator{}, false, tc.pkgs)
			if theirs.failed || len(theirs.files) != 1 {
				t.Fatalf("controller-tools: failed %v, %d files:\n%s", theirs.failed, len(theirs.files), theirs.diags)
			}
			errs := crdcheck.ValidateCRD(context.Background(), decodeCRDs(t, theirs.files)[0])
			if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), tc.refused) {
				t.Fatalf("the apiserver's validation of controller-tools' CRD: %v", errs)
			}
			ours := generate(t, crdgen.Generator{}, true, tc.pkgs)
			if !ours.failed || len(ours.files) != 0 {
				t.Fatalf("ours: failed %v, %d files", ours.failed, len(ours.files))
			}
			for _, want := range []string{tc.refused + " [apiserver]",
				"crd: the apiserver refuses these CRDs, as controller-gen writes them too: the errors above are not about defaults; no CRD was written (crd:check=false writes them without the checks)"} {
				if !strings.Contains(ours.diags, want) {
					t.Errorf("ours printed\n%s\nwant %q", ours.diags, want)
				}
			}
			if strings.Contains(ours.diags, "errors in defaults") {
				t.Errorf("ours blames defaults:\n%s", ours.diags)
			}
		})
	}
}

// TestNoGroupWritten: a kind in a package without +groupName, for which
// controller-tools writes a CRD with no group (which no apiserver
// accepts, and which projects such as open policy agent gatekeeper keep
// as controller-gen writes it), is written too, unchecked, with the
// warning of the // want comment; with implicitDefaults=false, byte for
// byte as controller-tools writes it.
func TestNoGroupWritten(t *testing.T) {
	const pkgs = "../testdata/nogroup/..."
	theirs := generate(t, crd.Generator{OmitToolVersion: ptr(true)}, false, pkgs)
	if theirs.failed || len(theirs.files) != 1 || theirs.files["_widgets.yaml"] == nil {
		t.Fatalf("controller-tools: failed %v, files %v:\n%s", theirs.failed, len(theirs.files), theirs.diags)
	}
	errs := crdcheck.ValidateCRD(context.Background(), decodeCRDs(t, theirs.files)[0])
	if !strings.Contains(errs.ToAggregate().Error(), "spec.group: Required value") {
		t.Fatalf("the apiserver's validation of controller-tools' CRD: %v", errs)
	}
	off := generate(t, crdgen.Generator{OmitToolVersion: ptr(true), ImplicitDefaults: ptr(false)}, true, pkgs)
	if off.failed || !bytes.Equal(off.files["_widgets.yaml"], theirs.files["_widgets.yaml"]) {
		t.Errorf("implicitDefaults=false: failed %v, %s", off.failed, firstDiff(theirs.files["_widgets.yaml"], off.files["_widgets.yaml"]))
	}
	checkDiagnostics(t, "../testdata/nogroup", off.diags)
	on := generate(t, crdgen.Generator{OmitToolVersion: ptr(true)}, true, pkgs)
	if on.failed || len(on.files) != 1 {
		t.Fatalf("failed %v, %d files:\n%s", on.failed, len(on.files), on.diags)
	}
	checkDiagnostics(t, "../testdata/nogroup", on.diags)
}
