package model

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// TestUnknownMarker: a +kubebuilder: marker comment that no generator
// defines is reported, with the text controller-tools would have read;
// markers the generators define (with their arguments after "=" or after
// a colon, at any target), kubebuilder's own anchors, other namespaces
// and comments that are no marker are not.
func TestUnknownMarker(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ comment, want string }{
		{"// +kubebuilder:validation:enum=a;b", "+kubebuilder:validation:enum=a;b"},
		{"//+kubebuilder:oneOf:={required:{anyPattern}}", "+kubebuilder:oneOf:={required:{anyPattern}}"},
		{"//   +kubebuilder:categories=all  ", "+kubebuilder:categories=all"},
		{"// +kubebuilder:validation:Required:true", "+kubebuilder:validation:Required:true"},
		{"// +kubebuilder:validation:Enum=a;b", ""},
		{`// +kubebuilder:validation:Pattern:="^a$"`, ""}, // the name with a colon before "="
		{"//+kubebuilder:validation:items:Minimum=1", ""},
		{`// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=.metadata.creationTimestamp`, ""},
		{"// +kubebuilder:subresource:status", ""},
		{"// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas", ""},
		{"// +kubebuilder:object:root=true", ""},
		{"// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get", ""},
		{"// +kubebuilder:webhook:path=/mutate,mutating=true,failurePolicy=fail,groups=g,resources=r,verbs=create,versions=v1,name=m.x.io,sideEffects=None,admissionReviewVersions=v1", ""},
		{"// +kubebuilder:ac:generate=true", ""},
		{"// +kubebuilder:default=1", ""},
		{"// +kubebuilder:scaffold:imports", ""},
		{"// +kubebuilder:docs-gen:collapse=Imports", ""},
		{"// +groupName=example.com", ""},
		{"// +k8s:openapi-gen=true", ""},
		{"// +kubebuilderx:oneOf", ""},
		{"/* +kubebuilder:oneOf */", ""},
		{"// see +kubebuilder:oneOf", ""},
		{"//", ""},
	} {
		if got := unknownMarker(tc.comment); got != tc.want {
			t.Errorf("unknownMarker(%q) = %q, want %q", tc.comment, got, tc.want)
		}
	}
}

// TestUnknownMarkerMessage: the fix matches the reason: a marker that is
// a defined one in other case, with its value after a colon, under another
// namespace or with a typo names it (each case found in a real API module:
// Kyverno, cluster-api-provider-openstack, external-secrets, cluster-api-provider-azure,
// scheduler-plugins, grafana-operator); a JSON Schema combinator names
// the markers that choose among fields; any other says to remove it or
// write it with a defined marker.
func TestUnknownMarkerMessage(t *testing.T) {
	t.Parallel()
	const remove = "; remove it, or write what it means with a marker controller-gen defines (+kubebuilder:validation:XValidation for a rule in CEL)"
	const drop = ": controller-gen defines no such marker and ignores it, so it changes nothing in the CRD"
	const oneOf = "; for a choice among a struct's fields, write +kubebuilder:validation:ExactlyOneOf=<field>;<field> on the struct; " +
		"for any other rule, +kubebuilder:validation:XValidation (CEL)"
	for _, tc := range []struct{ text, want string }{
		// another case
		{"+kubebuilder:validation:enum=a;b", "+kubebuilder:validation:enum" + drop + "; did you mean +kubebuilder:validation:Enum?"},
		{"+kubebuilder:Default=https://rekor.sigstore.dev", "+kubebuilder:Default" + drop + "; did you mean +kubebuilder:default?"},
		{"+kubebuilder:validation:Items:Enum=a;b", "+kubebuilder:validation:Items:Enum" + drop + "; did you mean +kubebuilder:validation:items:Enum?"},
		{"+kubebuilder:validation:required // want `x`", "+kubebuilder:validation:required" + drop + "; did you mean +kubebuilder:validation:Required?"},
		// the value after a colon
		{"+kubebuilder:default:5", "+kubebuilder:default:5" + drop + "; did you mean +kubebuilder:default=5?"},
		{"+kubebuilder:default:10", "+kubebuilder:default:10" + drop + "; did you mean +kubebuilder:default=10?"},
		{"+kubebuilder:object:generate:false", "+kubebuilder:object:generate:false" + drop + "; did you mean +kubebuilder:object:generate=false?"},
		{"+kubebuilder:validation:UniqueItems:true", "+kubebuilder:validation:UniqueItems:true" + drop + "; did you mean +kubebuilder:validation:UniqueItems=true?"},
		// the last segment of one defined name
		{"+kubebuilder:validation:nullable", "+kubebuilder:validation:nullable" + drop + "; did you mean +nullable?"},
		{"+kubebuilder:validation:Default=3", "+kubebuilder:validation:Default" + drop + "; did you mean +kubebuilder:default?"},
		// a typo
		{"+kubebuilder:validation:Minimun=1", "+kubebuilder:validation:Minimun" + drop + "; did you mean +kubebuilder:validation:Minimum?"},
		{"+kubebuilder:validation:MinLenght=1", "+kubebuilder:validation:MinLenght" + drop + "; did you mean +kubebuilder:validation:MinLength?"},
		{"+kubebuilder:subresources:status", "+kubebuilder:subresources:status" + drop + "; did you mean +kubebuilder:subresource:status?"},
		{"+kubebuilder:validation:MaxItem=1", "+kubebuilder:validation:MaxItem" + drop + "; did you mean +kubebuilder:validation:MaxItems?"},
		// a short name is no typo of another one letter away, nor is a
		// name equally near two
		{"+kubebuilder:skp", "+kubebuilder:skp" + drop + remove},
		{"+kubebuilder:validation:Mitems=1", "+kubebuilder:validation:Mitems" + drop + remove}, // MaxItems, MinItems
		// combinators
		{"+kubebuilder:oneOf:={required:{anyPattern}}", "+kubebuilder:oneOf" + drop + oneOf},
		{"+kubebuilder:validation:OneOf", "+kubebuilder:validation:OneOf" + drop + oneOf},
		{"+kubebuilder:anyOf:={required:{a}}", "+kubebuilder:anyOf" + drop + strings.Replace(oneOf, "ExactlyOneOf", "AtLeastOneOf", 1)},
		// a marker without a value, then more text: the text is part of its name
		{"+kubebuilder:subresource:status // a note", "+kubebuilder:subresource:status: the text after it on its line makes controller-gen read the whole comment as the marker's name, " +
			"which no generator defines, so it changes nothing in the CRD; put that text on a line of its own"},
		// nothing near
		{"+kubebuilder:not:={required:{x}}", "+kubebuilder:not" + drop + remove},
		{"+kubebuilder:categories=all", "+kubebuilder:categories" + drop + remove},
	} {
		if got := unknownMarkerMessage(tc.text); got != tc.want {
			t.Errorf("unknownMarkerMessage(%q)\n got %s\nwant %s", tc.text, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"Minimun", "Minimum", 1}, {"ab", "ba", 2}, {"same", "same", 0}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := editDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

// TestMeantNamesADefinedMarker: over every defined +kubebuilder: name and
// random edits of it (a letter in another case, the value after a colon, a
// letter dropped, doubled or replaced), the advice, when it names a marker,
// names one that controller-tools resolves (so following it makes the
// marker count), and names the original where only its case changed or
// its value follows a colon.
func TestMeantNamesADefinedMarker(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	suggested := regexp.MustCompile(`did you mean (\+[^?]+)\?`)
	n := 0
	for _, k := range knownMarkerNames {
		if !strings.HasPrefix(k, "kubebuilder:") {
			continue
		}
		for range 20 {
			name, exact := k, ""
			tail := k[len("kubebuilder:"):]
			i := len("kubebuilder:") + r.IntN(len(tail))
			switch r.IntN(5) {
			case 0:
				b := []byte(k)
				if c := b[i] | 0x20; c < 'a' || c > 'z' {
					continue
				}
				b[i] ^= 0x20 // the letter in another case
				name = string(b)
				exact = "+" + k
			case 1:
				name, exact = k+":7", "+"+k+"=7"
			case 2:
				name = k[:i] + k[i+1:]
			case 3:
				name = k[:i] + k[i:i+1] + k[i:]
			case 4:
				name = k[:i] + "q" + k[i+1:]
			}
			if unknownMarker("// +"+name) == "" {
				continue // another defined name, or not a letter
			}
			n++
			m := suggested.FindStringSubmatch(meant(name))
			if exact != "" && (m == nil || m[1] != exact) {
				t.Errorf("meant(%q) = %q, want did you mean %s?", name, meant(name), exact)
				continue
			}
			if m != nil && unknownMarker("// "+m[1]) != "" {
				t.Errorf("meant(%q) names %s, which no generator defines", name, m[1])
			}
		}
	}
	if n < 1000 {
		t.Errorf("%d unknown names tried, want at least 1000", n)
	}
}

// TestMisplacedMarker: a defined marker is reported where the collector
// attaches it to a target its definition does not apply to, with where it
// applies; a marker that applies there, one the collector moves to the
// package, and comments the collector attaches to nothing are not.
func TestMisplacedMarker(t *testing.T) {
	t.Parallel()
	typeDoc := attachment{goPath: "ImageVerificationType", target: ctmarkers.DescribesType, godoc: true}
	typeAbove := attachment{goPath: "Widget", target: ctmarkers.DescribesType}
	field := attachment{goPath: "Widget.Size", target: ctmarkers.DescribesField, godoc: true}
	for _, tc := range []struct {
		text string
		at   attachment
		want string
	}{
		// Kyverno v1.19.1, velero v1.18.3
		{"+kubebuilder:default=Cosign", typeDoc, "+kubebuilder:default is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; " +
			`write +default="Cosign" on the type instead, which gives every field of type ImageVerificationType that default (a type-level default, KEP-1929), or +kubebuilder:default on those fields`},
		{`+kubebuilder:default=a b`, typeDoc, "+kubebuilder:default is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; write +default=<the value in JSON> on the type"},
		{`+kubebuilder:default={"a":1}`, typeDoc, `+kubebuilder:default is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; write +default={"a":1} on the type instead`},
		{"+kubebuilder:validation:EmbeddedResource", typeDoc, "+kubebuilder:validation:EmbeddedResource is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; put it on the fields of type ImageVerificationType"},
		{`+kubebuilder:printcolumn:name="Age",type=date,JSONPath=.metadata.creationTimestamp`, field,
			"+kubebuilder:printcolumn is a marker of types: on a field controller-gen ignores it, so it changes nothing in the CRD; move it to the comment of type Widget"},
		{"+kubebuilder:subresource:status", field, "+kubebuilder:subresource:status is a marker of types: on a field controller-gen ignores it, so it changes nothing in the CRD; move it to the comment of type Widget"},
		{"+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get", field, "+kubebuilder:rbac is a marker of packages: on a field controller-gen ignores it, so it changes nothing in the CRD; move it to the package's doc comment (doc.go)"},
		{"+kubebuilder:validation:Optional", typeDoc, "+kubebuilder:validation:Optional is a marker of packages and fields: on a type controller-gen ignores it, so it changes nothing in the CRD; put it on the fields of type ImageVerificationType"},
		// the collector moves a package marker above a type's doc to the package
		{"+kubebuilder:validation:Optional", typeAbove, ""},
		{"+kubebuilder:object:generate=true", typeAbove, ""},
		// where they apply
		{"+kubebuilder:default=3", field, ""},
		{"+kubebuilder:validation:Enum=a;b", typeDoc, ""},
		{"+kubebuilder:subresource:status", typeDoc, ""},
		{"+kubebuilder:object:root=true", typeAbove, ""},
		// not judged
		{"+kubebuilder:default=3", attachment{goPath: "Widget", target: ctmarkers.DescribesType, dropped: true}, ""},
		{"+kubebuilder:default=3", attachment{goPath: "package v1", target: ctmarkers.DescribesPackage}, ""},
	} {
		got := misplacedMarker(tc.text, tc.at)
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("misplacedMarker(%q, %+v)\n got %q\nwant %q", tc.text, tc.at, got, tc.want)
		}
	}
}
