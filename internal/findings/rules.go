package findings

import (
	"fmt"
	"slices"
	"strings"
)

// Command is a command that emits findings.
type Command string

// The commands that emit findings.
const (
	CmdCrd        Command = "crd"
	CmdDefaults   Command = "defaults"
	CmdLint       Command = "lint"
	CmdConversion Command = "conversion"
	CmdImpact     Command = "impact"
)

// Rule is a rule of the registry: what a finding's [rule] tag names.
type Rule struct {
	// Name is what findings print in brackets, "omitempty-struct".
	Name string
	// Severity is the rule's default severity. Some rules report less for
	// some inputs (a +kubebuilder:default, crd:implicitDefaults=false);
	// SeverityDoc says so in the docs.
	Severity Severity
	// Commands are the commands that emit it.
	Commands []Command
	// Page and Heading are where it is documented: a docs page of this
	// repository and a heading of it (Anchor is the heading's anchor).
	Page, Heading string
	// Summary is what the rule says, in one line.
	Summary string
	// SeverityDoc is the severity column of the page's rule table, where
	// it says more than Severity ("" for Severity).
	SeverityDoc string
	// Example is the example column of docs/crd.md's rule table
	// (markdown): a real message of the rule.
	Example string
	// SameRowAs is a rule whose row of docs/crd.md's table this rule
	// shares ("" for a row of its own).
	SameRowAs string
}

// Emits reports whether c emits r.
func (r Rule) Emits(c Command) bool { return slices.Contains(r.Commands, c) }

// Anchor is the anchor GitHub gives the rule's heading: lower case,
// punctuation but hyphens dropped, spaces as hyphens.
func (r Rule) Anchor() string { return Anchor(r.Heading) }

// URL is the rule's docs: Page#Anchor.
func (r Rule) URL() string { return r.Page + "#" + r.Anchor() }

// Anchor is the anchor GitHub gives a markdown heading.
func Anchor(heading string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(heading) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c > 127:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Lookup is the rule named name.
func Lookup(name string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.Name == name })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// MustLookup is the rule named name; it panics for a name the registry
// lacks (a test finds it first).
func MustLookup(name string) Rule {
	r, ok := Lookup(name)
	if !ok {
		panic(fmt.Sprintf("findings: rule %q is not in the registry (internal/findings/rules.go)", name))
	}
	return r
}

// Of are the rules c emits, in registry order.
func Of(c Command) []Rule {
	var out []Rule
	for _, r := range Rules {
		if r.Emits(c) {
			out = append(out, r)
		}
	}
	return out
}

// Rules is the registry: each rule once, in the order of the docs'
// tables. TestRegistryIsTheCode fails when code emits a rule it lacks,
// or it names one no code emits; TestRuleTables keeps the docs' tables
// (between <!-- BEGIN rules COMMAND --> and <!-- END rules COMMAND -->)
// as RuleTable renders them.
var Rules = []Rule{
	{
		Name:     "implicit-struct-default",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults},
		Page:     "docs/crd.md", Heading: "The rules (KEP-1929 \"Changes to kubebuilder/default-gen\")",
		Summary: "KEP-1929 rule 1: a non-pointer struct field that the schema does not require gets default {}; a warning when the apiserver would refuse it",
		Example: "`implicit default {} (non-pointer struct) skipped: the apiserver would reject it: the default {} has 0 properties; the schema requires at least 1 (minProperties). Fix: …`",
	},
	{
		Name:     "default-on-required",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Required fields: no implicit default",
		Summary: "a default on a field the schema requires disarms required: the apiserver defaults before it validates",
		Example: "`+default=0 on a field the schema requires (it has no omitempty and no +optional): the apiserver applies the default before it checks required, … If clients may leave the field out, mark it +optional; if they must send it, remove the default`",
	},
	{
		Name:     "default-differs-by-use",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults},
		Page:     "docs/crd.md", Heading: "omitzero structs: rule 1 for today's encoding/json",
		Summary: "an omitzero struct field that gets {} at some uses of its type and no default at others, which one Go defaulter cannot follow",
		Example: "`pier gets default {} at spec.fleet.pier of galleons.example.com/v1 but none at status.oar.net.pier of yachts.example.com/v1 (…minProperties…); … To give every use one answer, give the field +default={} or make it a pointer (*Oar)` (see [Required fields](#required-fields-no-implicit-default))",
	},
	{
		Name:     "implicit-zero-default",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults},
		Page:     "docs/crd.md", Heading: "The rules (KEP-1929 \"Changes to kubebuilder/default-gen\")",
		Summary: "KEP-1929 rule 4: a non-pointer scalar without omitempty/omitzero that the schema does not require gets its zero value as default; a warning when the apiserver would refuse it",
		Example: "`implicit default \"\" (zero value: the field has no omitempty) skipped: the apiserver would reject it: the default \"\" is not one of the values the schema allows, \"TCP\", \"UDP\" (enum). Fix: …`",
	},
	{
		Name:     "omitempty-struct",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdLint},
		Page:     "docs/crd.md", Heading: "The rules (KEP-1929 \"Changes to kubebuilder/default-gen\")",
		Summary:     "omitempty on a non-pointer struct does nothing in encoding/json (KEP-1929 rule 2)",
		SeverityDoc: "warning, one line per CRD unless `crd:allFindings=true`; none with `crd:implicitDefaults=false`",
		Example:     "`omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, which keeps the field optional`",
	},
	{
		Name:     "unknown-zero-value",
		Severity: Note,
		Commands: []Command{CmdCrd, CmdDefaults},
		Page:     "docs/crd.md", Heading: "Zero values",
		Summary: "a type with its own MarshalJSON or MarshalText whose zero value is unknown gets no implicit default",
		Example: "`no implicit default: Foo has its own MarshalJSON or MarshalText and is not in the table of known zero values`",
	},
	{
		Name:     "struct-default-not-empty",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "The rules (KEP-1929 \"Changes to kubebuilder/default-gen\")",
		Summary:     "a +default on a non-pointer struct must be {} (KEP-1929 \"Non-pointer structs\")",
		SeverityDoc: "error¹",
		Example:     "`+default={\"name\":\"entry\",\"number\":12} on a non-pointer struct: only {} is allowed`",
	},
	{
		Name:     "default-needs-omitempty",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "The rules (KEP-1929 \"Changes to kubebuilder/default-gen\")",
		Summary:     "a scalar whose default is not its zero value needs omitempty/omitzero or a pointer (KEP-1929 rule 3)",
		SeverityDoc: "error¹",
		Example:     "`+default=\"default-name\" is not the zero value \"\", and without omitempty Go clients always send \"\" … Make the field a pointer: with omitempty, a Go client's \"\" would be left out and stored as \"default-name\", and \"\" is a valid value of the field`; where the validation refuses the zero value, `Add omitempty (or omitzero) to the json tag (its minimum is 1, so no client means 0), or make the field a pointer`",
	},
	{
		Name:     "invalid-default",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "`+default=<json>` (field or type)",
		Summary: "a +default value must be one-line JSON",
		Example: "`+default=TCP is not valid JSON (…). The value is one-line JSON: strings need double quotes`; also a key written twice in one object, whose first value JSON decoders drop silently: `+default={\"a\": 1, \"a\": 2}: the object at \"$\" holds the key \"a\" twice; JSON decoders keep the last value silently: write each key once`",
	},
	{
		Name:     "unresolved-ref",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "`+default=ref(Name)` and `+default=ref(import/path.Name)`",
		Summary: "+default=ref(...) must name a constant of the package or of a package it imports",
		Example: "`+default=ref(NoSuchConstant): no constant NoSuchConstant in package example.com/api/v1`; `+default=ref(): ref() names no constant: write ref(Name) for a constant of this package, or ref(import/path.Name) for one of a package it imports`; `+default=ref(AVar): AVar in package example.com/api/v1 is a variable, not a constant; ref() takes a constant`",
	},
	{
		Name:     "default-type-mismatch",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Diagnostics",
		Summary: "a default must have the JSON kind of the field's schema and fit its Go type",
		Example: "`+default=\"three\": the field's schema type is integer, the default is a JSON string`; also `default null is ignored by the apiserver`, and values the Go type cannot hold: `+default=300: 300 does not fit in a uint8 (0 to 255)`, `+default=10000000000000001.0: … is not written as an integer: the apiserver reads it as the nearest float64 and stores 10000000000000000, where Go clients send 10000000000000001; write 10000000000000001`, `+default=0.123456789: a float32 holds 0.12345679, not 0.123456789 …`, `+default=\"lots\": \"lots\" is not a quantity`, `+default=\"0.5n\": a resource.Quantity is rounded up to a whole nanounit … write \"1n\"`, `+default=\"2020-01-01T00:00:00.5Z\": a metav1.Time is sent to the second …` (see [Quantities, durations and times](#quantities-durations-and-times)), `+default={\"Port\": 80}: Port: no field Port in Endpoint; the field is spelled port …`",
	},
	{
		Name:     "conflicting-defaults",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Diagnostics",
		Summary: "+default and +kubebuilder:default on one field must agree",
		Example: "`two different defaults: +default=1 and +kubebuilder:default=2; keep one`; also `+default=1 and +k8s:default=2`, two different values of one marker on a field or type (`+default=1 and +default=2`), and `two different settings: +implicitDefaults=false and +implicitDefaults=true; keep one`",
	},
	{
		Name:     "duplicate-markers",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Markers written twice, on inline fields, on recursive types",
		Summary: "one marker written twice with one value",
		Example: "`+default=3 is written 2 times; keep one`: one marker written twice with one value, as kube-api-linter's `duplicatemarkers`",
	},
	{
		Name:     "inline-default",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Markers written twice, on inline fields, on recursive types",
		Summary:     "a default on an inline field sets nothing: the field has no property of its own",
		SeverityDoc: "error¹",
		Example:     "`+default={\"inner\":\"x\"} on an inline field sets nothing: Embedded has no property of its own, its fields are Spec's. Put the default on the fields of Embedded (+default=\"x\" on Embedded.Inner), on a field of type Spec, or on type Spec itself`; a warning for `+kubebuilder:default`; also `+implicitDefaults` there",
	},
	{
		Name:     "ignored-field-default",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Fields that encoding/json reads otherwise than controller-gen",
		Summary: "a default marker on a field encoding/json ignores (json:\"-\", unexported) sets nothing Go clients send or read",
		Example: "`` +default=\"x\": the field is tagged `json:\"-\"`: encoding/json ignores it and controller-gen leaves it out of the CRD, so the default applies to nothing. Fix: remove the marker, or give the field a json name ``; on an unexported field, `… while controller-gen writes it into the CRD … Fix: remove the marker, or export the field` (see [Fields that encoding/json reads otherwise than controller-gen](#fields-that-encodingjson-reads-otherwise-than-controller-gen))",
	},
	{
		Name:     "json-name-mismatch",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Fields that encoding/json reads otherwise than controller-gen",
		Summary: "a json tag must put the field where encoding/json and controller-gen both put it (a name encoding/json accepts; inline only on embedded structs)",
		Example: "`` json tag \",inline\": controller-gen writes its fields inline into the CRD, encoding/json (Go clients) \"Settings\": encoding/json inlines embedded structs only … Fix: embed the struct to inline it, or write `json:\"settings\"` to keep a key ``; also a name encoding/json refuses, and an unexported field with a json tag",
	},
	{
		Name:     "unknown-marker",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Markers controller-gen ignores",
		Summary: "a +kubebuilder: marker that no generator defines: controller-gen ignores it without a word, so it changes nothing in the CRD",
		Example: "`+kubebuilder:validation:maximum: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD; did you mean +kubebuilder:validation:Maximum?`; also the value after a colon (`did you mean +kubebuilder:default=5?`), a JSON Schema combinator (`+kubebuilder:oneOf`: `… +kubebuilder:validation:ExactlyOneOf=<field>;<field> on the struct …`), and `… remove it, or write what it means with a marker controller-gen defines (+kubebuilder:validation:XValidation for a rule in CEL)`",
	},
	{
		Name:     "misplaced-marker",
		Severity: Warning,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Markers controller-gen ignores",
		Summary: "a +kubebuilder: marker written where its definition does not apply (a field marker on a type, a type marker on a field): controller-gen ignores it",
		Example: "`+kubebuilder:default is a marker of fields: on a type controller-gen ignores it, so it changes nothing in the CRD; write +default=\"Cosign\" on the type instead, which gives every field of type ImageVerificationType that default (a type-level default, KEP-1929), or +kubebuilder:default on those fields`; also `… is a marker of types: on a field … move it to the comment of type Widget`",
	},
	{
		Name:     "recursive-default",
		Severity: Error,
		Commands: []Command{CmdCrd, CmdDefaults, CmdLint},
		Page:     "docs/crd.md", Heading: "Markers written twice, on inline fields, on recursive types",
		Summary: "a default on a recursive type, or on a field that lies on a cycle of types",
		Example: "`+default={\"name\":\"a\"} on a recursive type (Node.next → Node): …`; also `+default={} lies on a cycle of types (Chain.next → Chain)` for a field's own default (see [Markers written twice, on inline fields, on recursive types](#markers-written-twice-on-inline-fields-on-recursive-types))",
	},
	{
		Name:     "recursive-type",
		Severity: Error,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "Markers written twice, on inline fields, on recursive types",
		Summary:     "a CRD schema cannot express a recursive type",
		SeverityDoc: "error (`crd`)",
		Example:     "`Node.next → Node: a CRD schema cannot express a recursive type (…). Break the cycle: refer to the nested objects by name (e.g. a list of names), or make this field schema-less: runtime.RawExtension, or +kubebuilder:pruning:PreserveUnknownFields with …`",
	},
	{
		Name:     "versions-differ",
		Severity: Warning,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "Type aliases",
		Summary:     "two versions of a CRD with the same schema as controller-gen writes it and different defaults",
		SeverityDoc: "warning (`crd`)",
		Example:     "`CRD widgets.example.com: versions v1 and v1alpha1 have the same schema as controller-gen writes it, and different defaults: …` (see [Type aliases](#type-aliases))",
	},
	{
		Name:     "default-own-encoding",
		Severity: Warning,
		Commands: []Command{CmdDefaults},
		Page:     "docs/crd.md", Heading: "Types with their own encoding",
		Summary:     "the defaults generator leaves a field unset whose CRD default goes into a type of its own encoding",
		SeverityDoc: "warning (`defaults`)",
		Example:     "`the defaults generator leaves this field unset: the CRD's default \"1h\" goes into a type of its own encoding (…)` (see [Types with their own encoding](#types-with-their-own-encoding))",
	},
	{
		Name:     "apiserver",
		Severity: Error,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "Checks before anything is written",
		Summary: "the apiserver's CRD validation refuses the generated CRD",
		Example: "the apiserver's CRD validation message, at the Go field, with the rule that wrote the default, a refusal of a default in words (see [Checks before anything is written](#checks-before-anything-is-written)), any other verbatim; a warning for the `api-approved.kubernetes.io` annotation of `*.k8s.io` groups, which is not about the schema (`+kubebuilder:metadata:annotations=...` adds it)",
	},
	{
		Name:     "crd-without-group",
		Severity: Warning,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "Checks before anything is written",
		Summary: "a kind in a package without +groupName: controller-gen writes a CRD with no group, which no apiserver accepts; written unchecked, as controller-gen does",
		Example: "`CRD assigns.: its package declares no +groupName, so the CRD has no group and no apiserver accepts it (spec.group: Required value); written without the apiserver's checks (controller-gen writes it too). To make it a CRD, add // +groupName=<group> to the package's doc comment; else leave the package out of paths`",
	},
	{
		Name:     "nested-defaults",
		Severity: Error,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "Checks before anything is written",
		Summary: "a default that the apiserver accepts but whose objects fail once nested defaults apply",
		Example: "a default that the apiserver accepts but whose objects fail once nested defaults apply",
	},
	{
		Name:     "default-added",
		Severity: Note,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "When a CRD file is replaced",
		Summary:     "a default that the CRD file did not have",
		SeverityDoc: "note, printed whenever `crd` replaces a CRD file whose defaults differ (see [When a CRD file is replaced](#when-a-crd-file-is-replaced)); added and changed ones one line per CRD unless `crd:allFindings=true`",
		Example:     "`FrigateSpec.Engine (spec.engine): default changed: {\"fuel\":\"diesel\"}, was {\"fuel\":\"petrol\"} in frigates.conventions.example.com v1`",
	},
	{
		Name:     "default-changed",
		Severity: Note,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "When a CRD file is replaced",
		Summary:   "a default that differs from the CRD file's",
		SameRowAs: "default-added",
	},
	{
		Name:     "default-removed",
		Severity: Note,
		Commands: []Command{CmdCrd},
		Page:     "docs/crd.md", Heading: "When a CRD file is replaced",
		Summary:   "a default that the CRD file had and the new CRD has not",
		SameRowAs: "default-added",
	},
	{
		Name:     "required-no-implicit",
		Severity: Note,
		Commands: []Command{CmdCrd, CmdDefaults},
		Page:     "docs/crd.md", Heading: "Required fields: no implicit default",
		Summary:     "a property the schema requires, or whose object counts which properties are present, gets no implicit default (named in crd:explain=true's notes)",
		SeverityDoc: "none of its own: the reason `crd:explain=true`'s `explain` note gives",
		Example:     "`ClusterSpec.Paused (spec.paused): no default: the schema requires the field (the field is +required) [explain]`",
	},
	{
		Name:     "explain",
		Severity: Note,
		Commands: []Command{CmdCrd, CmdDefaults},
		Page:     "docs/crd.md", Heading: "Where a field's default is decided",
		Summary:     "with crd:explain=true, the default each property of the generated modules got and where it came from, or why it got none",
		SeverityDoc: "note (`crd:explain=true`)",
		Example:     "`FrigateSpec.Hull (spec.hull): no default: omitzero: Go clients leave the zero struct out, and no default below it would change it`",
	},
	{
		Name:     "conversion-lost-field",
		Severity: Error,
		Commands: []Command{CmdConversion},
		Page:     "docs/conversion.md", Heading: "`conversion-lost-field`",
		Summary: "a field that a round trip between versions loses or changes",
	},
	{
		Name:     "conversion-default-mismatch",
		Severity: Error,
		Commands: []Command{CmdConversion},
		Page:     "docs/conversion.md", Heading: "`conversion-default-mismatch`",
		Summary: "a field whose defaults disagree across versions: an object created without it is stored differently at each",
	},
	{
		Name:     "conversion-failed",
		Severity: Error,
		Commands: []Command{CmdConversion},
		Page:     "docs/conversion.md", Heading: "`conversion-failed`",
		Summary: "a conversion that fails for objects valid at the version converted from",
	},
	{
		Name:     "conversion-needs-setup",
		Severity: Error,
		Commands: []Command{CmdConversion},
		Page:     "docs/conversion.md", Heading: "`conversion-needs-setup`",
		Summary: "conversions that fail for want of the state main sets, which the conversion program does not run",
	},
	{
		Name:     "crd-removed",
		Severity: Error,
		Commands: []Command{CmdImpact},
		Page:     "docs/impact.md", Heading: "CRD findings",
		Summary: "NEW has no such CRD: deleting a CRD deletes all its objects",
	},
	{
		Name:     "crd-update-refused",
		Severity: Error,
		Commands: []Command{CmdImpact},
		Page:     "docs/impact.md", Heading: "CRD findings",
		Summary: "the apiserver refuses NEW as an update of OLD",
	},
	{
		Name:     "version-not-served",
		Severity: Warning,
		Commands: []Command{CmdImpact},
		Page:     "docs/impact.md", Heading: "CRD findings",
		Summary: "a version OLD serves is not served by NEW: requests at it are refused",
	},
	{
		Name:     "storage-version-changed",
		Severity: Note,
		Commands: []Command{CmdImpact},
		Page:     "docs/impact.md", Heading: "CRD findings",
		Summary: "NEW stores objects at another version: stored objects stay at the old one until their next write",
	},
	{
		Name:     "conversion-webhook",
		Severity: Note,
		Commands: []Command{CmdImpact},
		Page:     "docs/impact.md", Heading: "CRD findings",
		Summary: "OLD or NEW converts with a webhook, which is not called without --convert",
	},
	{
		Name:     "objects-unreadable",
		Severity: Error,
		Commands: []Command{CmdImpact},
		Page:     "docs/impact.md", Heading: "CRD findings",
		Summary: "the cluster did not list the CRD's objects (--objects kube://): nothing is known of them; the command exits 1",
	},
}
