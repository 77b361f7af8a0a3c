package markers

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// FuzzDefault feeds arbitrary text to +default as the generators read it:
// controller-tools' marker parser with our definitions, then Evaluate in
// testdata/refs (so that ref() resolves for real). Whatever the text, the
// result is a value or a *ValueError, never a panic, and:
//
//   - the marker keeps the text after "=", spaces around it trimmed, on
//     fields and types alike;
//   - a value is valid JSON, and a fixpoint: evaluating it again gives it
//     back, and its decoded form encodes to it;
//   - ref(...) fails only as an unresolved ref, anything else only as
//     invalid JSON, and the message quotes the marker as written;
//   - the field marker writes exactly that value into a schema, except
//     null, which it leaves to the generators to report.
//
// The seed corpus is testdata/fuzz/FuzzDefault; `go test` runs it. To
// fuzz: go test ./markers -run '^$' -fuzz '^FuzzDefault$' -parallel 1.
func FuzzDefault(f *testing.F) {
	reg := registry(f)
	pkg := refsPackage(f)
	fieldDef := reg.Lookup("+default", ctmarkers.DescribesField)
	typeDef := reg.Lookup("+default", ctmarkers.DescribesType)
	f.Fuzz(func(t *testing.T, text string) {
		marker := "+default=" + text
		fv, ferr := fieldDef.Parse(marker)
		tv, terr := typeDef.Parse(marker)
		if ferr != nil || terr != nil {
			t.Fatalf("%q: parse: %v, %v", marker, ferr, terr)
		}
		d := tv.(Default)
		if fv.(FieldDefault).Default != d {
			t.Fatalf("%q: field marker %q, type marker %q", marker, fv.(FieldDefault).Default, d)
		}
		if want := strings.TrimSpace(text); string(d) != want {
			t.Fatalf("%q: kept %q, want %q", marker, d, want)
		}

		raw, value, err := d.Evaluate(pkg)
		_, isRef := d.Ref()
		if err != nil {
			ve, ok := errors.AsType[*ValueError](err)
			if !ok {
				t.Fatalf("%q: error %v is a %T, want *ValueError", marker, err, err)
			}
			if raw != nil || value != nil {
				t.Fatalf("%q: error %v and value %s", marker, err, raw)
			}
			if want := map[bool]ErrKind{true: ErrUnresolvedRef, false: ErrInvalidJSON}[isRef]; ve.Kind != want {
				t.Fatalf("%q: error kind %v, want %v: %v", marker, ve.Kind, want, err)
			}
			if !strings.HasPrefix(ve.Error(), "+default="+string(d)) {
				t.Fatalf("%q: message %q does not quote the marker", marker, ve.Error())
			}
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("%q: value %q is not JSON", marker, raw)
		}
		if at, key, dup := jsonnum.DuplicateKey([]byte(d)); dup && !isRef {
			t.Fatalf("%q: accepted with the key %q twice at %q", marker, key, at)
		}
		again, _, err := Default(raw).Evaluate(pkg)
		if err != nil || !bytes.Equal(again, raw) {
			t.Fatalf("%q: value %s evaluates to %s, %v: not a fixpoint", marker, raw, again, err)
		}
		if enc, err := json.Marshal(value); err != nil || !bytes.Equal(enc, raw) {
			t.Fatalf("%q: value %#v encodes to %s, %v; want %s", marker, value, enc, err, raw)
		}

		s := &apiextensionsv1.JSONSchemaProps{}
		if err := (FieldDefault{d}).ApplyToSchema(&crdmarkers.SchemaContext{Package: pkg}, s); err != nil {
			t.Fatalf("%q: ApplyToSchema: %v", marker, err)
		}
		switch {
		case string(raw) == "null" && s.Default != nil:
			t.Fatalf("%q: wrote default null", marker)
		case string(raw) != "null" && (s.Default == nil || !bytes.Equal(s.Default.Raw, raw)):
			t.Fatalf("%q: schema default %v, want %s", marker, s.Default, raw)
		}
	})
}

// FuzzImplicit: +implicitDefaults=<text> parses alike on fields, types
// and packages, never panics, and yields true or false only for the text
// "true" or "false" (spaces around it aside), else an error.
func FuzzImplicit(f *testing.F) {
	reg := registry(f)
	for _, s := range []string{"true", "false", "", "no", `"false"`, " false", "false ", "True", "{}", "1"} {
		f.Add(s)
	}
	targets := []ctmarkers.TargetType{ctmarkers.DescribesField, ctmarkers.DescribesType, ctmarkers.DescribesPackage}
	f.Fuzz(func(t *testing.T, text string) {
		marker := "+implicitDefaults=" + text
		var first any
		var firstErr error
		for i, target := range targets {
			v, err := reg.Lookup(marker, target).Parse(marker)
			if i == 0 {
				first, firstErr = v, err
			} else if (err == nil) != (firstErr == nil) || (err == nil && v != first) {
				t.Fatalf("%q: %v parses to %v, %v; %v to %v, %v", marker, targets[0], first, firstErr, target, v, err)
			}
			if err != nil {
				continue
			}
			b, ok := v.(Implicit)
			if !ok {
				t.Fatalf("%q on %v: %T, want Implicit", marker, target, v)
			}
			if want := strings.TrimSpace(text); want != "true" && want != "false" {
				t.Errorf("%q on %v: parsed as %v", marker, target, b)
			} else if bool(b) != (want == "true") {
				t.Errorf("%q on %v: parsed as %v", marker, target, b)
			}
		}
	})
}
