// Package decision takes the decisions of package model against the
// generated schema and the apiserver's own code: which default each
// property of a CRD gets, or why it gets none (KEP-1929, kubernetes/enhancements
// keps/sig-api-machinery/1929-built-in-default, "Changes to
// kubebuilder/default-gen"). An implicit default is written only when the
// apiserver would accept it, and an author's default as the apiserver
// stores what a Go client sends; both are asked of normalize, which runs
// the apiextensions-apiserver's validation, defaulting and pruning.
//
// The packages stand in this order: markers, model (the Go types and the
// schema-free check, all that the lint analyzers link), decision, then the
// generators crdgen and defaultgen, which read the decisions.
package decision

import (
	"context"
	"encoding/json"
	"fmt"
	"go/types"
	"iter"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
)

// Options are model.Options and what the decisions keep.
type Options struct {
	model.Options
	// Explain keeps every decision for Explain (crd:explain).
	Explain bool
}

// Model is the decisions taken about the fields of Types.
type Model struct {
	// Types are the Go types and the schema-free rules the decisions read.
	Types   *model.Model
	explain bool

	// decisions are by field, in the order they were taken; all are every
	// decision in that order.
	decisions map[*model.Field][]*Decision
	all       []*Decision

	// place is the CRD version of the decisions being taken (InVersion);
	// byUse are the omitzero struct fields' uses with and without a
	// default (noteUse).
	place string
	byUse map[*model.Field]*byUse
}

// New returns a model of the types p loads (model.New) that takes
// decisions.
func New(p *crd.Parser, col *ctmarkers.Collector, roots []*loader.Package, opts Options) *Model {
	return &Model{
		Types:     model.New(ParserIndex(p), col, roots, opts.Options),
		explain:   opts.Explain,
		decisions: map[*model.Field][]*Decision{},
		byUse:     map[*model.Field]*byUse{},
	}
}

// ParserIndex is the crd generator's parser as the model's Index.
func ParserIndex(p *crd.Parser) model.Index { return parserIndex{p} }

type parserIndex struct{ p *crd.Parser }

func (x parserIndex) TypeInfo(id model.TypeIdent) *ctmarkers.TypeInfo {
	return x.p.Types[crd.TypeIdent(id)]
}

func (x parserIndex) NeedPackage(pkg *loader.Package) { x.p.NeedPackage(pkg) }

func (x parserIndex) IgnoreUnexportedFields() bool { return x.p.IgnoreUnexportedFields }

func (x parserIndex) Types() iter.Seq2[model.TypeIdent, *ctmarkers.TypeInfo] {
	return func(yield func(model.TypeIdent, *ctmarkers.TypeInfo) bool) {
		for id, info := range x.p.Types {
			if !yield(model.TypeIdent(id), info) {
				return
			}
		}
	}
}

// Decision is what one property of a field, or of a list item or map
// value, gets: the default the CRD carries and where it comes from, or why
// it carries none. The Go defaulter follows the same decision.
type Decision struct {
	// Field is the Go field; nil for a list item or map value.
	Field *model.Field
	JPath string
	// Default is the default written, nil for none.
	Default []byte
	value   any
	// Source says where Default comes from: "+default",
	// "+kubebuilder:default", "+default on type T", or the implicit rule.
	Source string
	// Rule is the KEP-1929 rule that wrote or skipped the default.
	Rule string
	// Why says, when Default is nil, why the property has no default.
	Why string
	// Findings are the diagnostics of the decision, reported once.
	Findings []model.Finding
	// explicit is the author's default, when there is one.
	explicit *model.Explicit
	// Opaque says where the default goes into a type with its own
	// encoding, whose Go value the defaults generator cannot write
	// (model.Check.Opaque); "" when it can.
	Opaque string
}

// Explicit is the author's default behind the decision, if any, whether or
// not it was written.
func (d *Decision) Explicit() *model.Explicit { return d.explicit }

// Apply writes the decision into the property's schema: its default, and
// the `required` entries that the default covers (see
// dropRequiredCoveredByDefaults).
func (d *Decision) Apply(s *apiextensionsv1.JSONSchemaProps) {
	if d.Default == nil {
		return
	}
	s.Default = &apiextensionsv1.JSON{Raw: d.Default}
	dropRequiredCoveredByDefaults(s, d.value)
}

// String explains the decision in one line.
func (d *Decision) String() string {
	name := d.JPath
	if d.Field != nil {
		name = d.Field.GoPath() + " (" + d.JPath + ")"
	}
	if d.Default != nil && d.Opaque != "" {
		return fmt.Sprintf("%s: default %s from %s; the defaults generator leaves it unset in Go: %s", name, d.Default, d.Source, d.Opaque)
	}
	if d.Default != nil {
		return fmt.Sprintf("%s: default %s from %s", name, d.Default, d.Source)
	}
	return fmt.Sprintf("%s: no default: %s", name, d.Why)
}

func (d *Decision) add(sev model.Severity, rule, msg string, m *Model) {
	f := m.Types.FieldFinding(d.Field, sev, rule, msg)
	f.JPath = d.JPath
	d.Findings = append(d.Findings, f)
}

func (d *Decision) addAt(f model.Finding) {
	if f.JPath == "" {
		f.JPath = d.JPath
	}
	d.Findings = append(d.Findings, f)
}

// Decisions are the decisions about f that gave its property a default,
// one per property that f generates (a type used by several CRDs or
// versions is decided in each). The others are kept only with
// Options.Explain: a large API has many fields and few defaults.
func (m *Model) Decisions(f *model.Field) []*Decision { return m.decisions[f] }

// keep records d for Decisions and Explain.
func (m *Model) keep(d *Decision) {
	m.noteUse(d)
	if d.Default != nil {
		m.decisions[d.Field] = append(m.decisions[d.Field], d)
	}
	if m.explain {
		m.all = append(m.all, d)
	}
}

// Decide takes the decision for f, whose generated property is prop (with
// the defaults below it already decided), at jpath, where inherit is the
// +implicitDefaults setting of an enclosing field or type, and parent is
// the enclosing object's schema (nil when unknown): whether it lists the
// property in `required` (which model.SchemaRequired predicts from the Go
// code alone), and whether it counts which properties are present
// (presenceCounted).
func (m *Model) Decide(prop *apiextensionsv1.JSONSchemaProps, f *model.Field, inherit *bool, jpath string, parent *apiextensionsv1.JSONSchemaProps) *Decision {
	required := parent != nil && slices.Contains(parent.Required, f.Tag.Name)
	counted := presenceCounted(parent, f.Tag.Name)
	d := &Decision{Field: f, JPath: jpath}
	defer m.keep(d)
	c := m.Types.CheckField(f, prop)
	d.take(c)
	switch {
	case c.Explicit != nil && !c.Refused:
		m.writeExplicit(d, prop, required || m.Types.RequiredNoImplicit(f) || counted != "")
	case c.Refused:
	case !m.Types.ImplicitFor(f, inherit):
		d.Why = "no marker, and implicit defaults are off here (+implicitDefaults=false or crd:implicitDefaults=false)"
	case required || m.Types.RequiredNoImplicit(f):
		d.Rule = model.RuleRequired
		d.Why = requiredWhy(f)
	case counted != "":
		d.Rule = model.RuleRequired
		d.Why = "no marker, and " + counted + " counts which properties are present: " +
			"an implicit default would change which objects the apiserver accepts"
	case implicitStructApplies(prop, f.Shape):
		m.decideStruct(d, prop)
	case f.Shape.Kind == model.KindOpaque && !f.Shape.Pointer && !f.Tag.Omits(f.Shape.NonPointerStruct()):
		d.Why = "no marker, and the zero value is unknown: " + f.Shape.Note
		if f.Shape.Note != "" {
			d.add(model.Note, model.RuleUnknownZero, "no implicit default: "+f.Shape.Note, m)
		}
	case implicitZeroApplies(prop, f):
		m.decideZero(d, prop)
	default:
		d.Why = "no marker, and no implicit default applies (a pointer, a list, a map, or omitempty/omitzero)"
	}
	return d
}

// presenceCounted is the same rule as model.RequiredNoImplicit for an
// enclosing object whose validation depends on which of its properties are
// present: its minProperties or maxProperties, or a CEL rule that names
// the property (has(self.x), controller-gen's ExactlyOneOf, AtMostOneOf
// and AtLeastOneOf). An implicit default there makes the apiserver accept
// (`spec: {}` under minProperties=1) or refuse objects it would not
// otherwise; so implicit defaults stay off its properties. It says what
// counts, or "".
func presenceCounted(parent *apiextensionsv1.JSONSchemaProps, name string) string {
	switch {
	case parent == nil:
		return ""
	case parent.MinProperties != nil:
		return "the enclosing object's minProperties"
	case parent.MaxProperties != nil:
		return "the enclosing object's maxProperties"
	}
	for _, r := range parent.XValidations {
		if celNames(r.Rule, name) {
			return fmt.Sprintf("the enclosing object's CEL rule %q", r.Rule)
		}
	}
	return ""
}

// celNames reports a CEL rule that names the property name as a field of
// self (self.name, has(self.name)) or reads self as a whole (size(self),
// self == ..., a macro over self's keys), conservatively: any use of self
// not followed by ".<another field>".
func celNames(rule, name string) bool {
	for i := strings.Index(rule, "self"); i >= 0; {
		rest := rule[i+len("self"):]
		before := i == 0 || !isIdent(rule[i-1])
		if before && (len(rest) == 0 || !isIdent(rest[0])) {
			if !strings.HasPrefix(rest, ".") {
				return true // self as a whole
			}
			field := rest[1:]
			end := strings.IndexFunc(field, func(r rune) bool { return r > 127 || !isIdent(byte(r)) })
			if end < 0 {
				end = len(field)
			}
			if field[:end] == name {
				return true
			}
		}
		j := strings.Index(rest, "self")
		if j < 0 {
			break
		}
		i += len("self") + j
	}
	return false
}

func isIdent(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// requiredWhy is why a field the schema requires gets no implicit default
// (model.RequiredNoImplicit).
func requiredWhy(f *model.Field) string {
	by := "controller-gen requires a field without omitempty, omitzero or +optional"
	if f.Required() {
		by = "the field is +required"
	}
	return "no marker, and the schema requires the field (" + by + "): the apiserver defaults before it validates, " +
		"so a default would let a manifest that leaves the field out, or misspells it, through. Mark it +optional to give it an implicit default"
}

// take records the check behind the decision: its findings, at the
// decision's JSON path, the author's default, and why it is refused.
func (d *Decision) take(c model.Check) {
	for _, f := range c.Findings {
		d.addAt(f)
	}
	d.explicit = c.Explicit
	d.Opaque = c.Opaque
	if c.Refused {
		d.Why, d.Rule = c.Why, c.Rule
	}
}

// writeExplicit decides for the author's default, checked already: the
// CRD carries the author's literal (authorsLiteral). With implicit defaults
// on, a +default={} on an omitzero struct follows rule 1 for omitzero
// structs, as if it were implicit: Go clients leave the zero struct out.
// Not when presence matters (the property is required, or its object
// counts which properties are present): there the author's {} decides
// which objects the apiserver accepts, and is written as it is, as
// crd:implicitDefaults=false writes it.
func (m *Model) writeExplicit(d *Decision, prop *apiextensionsv1.JSONSchemaProps, presenceMatters bool) {
	f, ex := d.Field, d.explicit
	if m.Types.Options().Implicit && !presenceMatters && f.Shape.NonPointerStruct() && f.Tag.OmitZero && ex.EmptyObject() {
		m.decideStruct(d, prop)
		d.Source = ex.Origin() + "={} on an omitzero struct, as " + d.Source
		d.Why = ex.Source + "={} on an omitzero struct, as " + model.RuleImplicitStruct + ": " + d.Why
		return
	}
	d.Default, d.value, d.Source = ex.Raw, ex.Value, ex.Origin()
	if m.Types.Options().Implicit && !authorsLiteral(prop, ex.Raw) {
		m.asGoEncodes(d, prop, f.Type, f.Pkg)
	}
}

// authorsLiteral is the rule for an author's default: the CRD carries the
// literal the author wrote, byte for byte as controller-gen writes it
// ("60s" stays "60s", 1 on a quantity stays 1), whenever the apiserver
// accepts it as the property's default; the Go defaulter sets the Go value
// that literal decodes to. Go may encode that value in another form
// ("1m0s"), which the apiserver stores as another string but which every
// client decodes to the same value: rewriting the literal would only show
// as a diff against controller-gen at every regeneration. Only a literal
// the apiserver refuses is rewritten as Go clients send it (asGoEncodes),
// when that form is accepted.
func authorsLiteral(prop *apiextensionsv1.JSONSchemaProps, raw []byte) bool {
	return len(tryDefault(prop, raw, true)) == 0
}

// asGoEncodes rewrites a default as a Go client encodes it, when the
// apiserver would store the two differently: in an object or list, a
// field without omitempty that has no default of its own, left out of the
// author's value, or a zero value that omitempty leaves out; at any depth,
// a quantity, duration or time in another form than Go writes it ("0.5"
// for a quantity Go writes "500m"). It applies only to a literal the
// apiserver refuses (authorsLiteral), and only when the rewritten value is
// accepted.
func (m *Model) asGoEncodes(d *Decision, prop *apiextensionsv1.JSONSchemaProps, t types.Type, pkg *loader.Package) {
	enc := m.Types.GoEncoding(d.value, t, pkg)
	// storedAlike stores both as a client's object, whose non-nullable
	// nulls the apiserver prunes; a default is applied after that pruning,
	// so a null inside it stays, where Go clients send nothing
	if reflect.DeepEqual(enc, d.value) || (!hasNulls(d.value) && storedAlike(prop, d.value, enc)) {
		return
	}
	raw, err := json.Marshal(enc)
	if err != nil || !authorsLiteral(prop, raw) {
		return
	}
	d.Default, d.value = raw, enc
	d.Source += fmt.Sprintf(", written as Go clients encode it: %s", raw)
}

// hasNulls reports a null inside an object or list.
func hasNulls(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			if e == nil || hasNulls(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if e == nil || hasNulls(e) {
				return true
			}
		}
	}
	return false
}

// DecideElement takes the decision for a list item or map value at jpath,
// whose schema is s and whose Go type has shape sh: only a +default on the
// item's type applies (KEP-1929 "Lists" and "String Maps").
func (m *Model) DecideElement(s *apiextensionsv1.JSONSchemaProps, sh model.Shape, jpath string) *Decision {
	d := &Decision{JPath: jpath}
	c := m.Types.CheckElement(s, sh)
	d.take(c)
	switch {
	case c.Explicit == nil:
		d.Why = "a list item or map value takes only a +default on its type"
		return d
	case c.Refused:
		return d
	}
	ex := c.Explicit
	d.Default, d.value, d.Source = ex.Raw, ex.Value, ex.Origin()
	if m.Types.Options().Implicit && sh.Named != nil && !authorsLiteral(s, ex.Raw) {
		m.asGoEncodes(d, s, sh.Named, sh.Ident.Package)
	}
	return d
}

// implicitStructApplies is where KEP-1929 rule 1 can apply: a non-pointer
// struct with an object schema of its own. Embedded resources need
// apiVersion and kind, which have no default; a subtree that preserves
// unknown fields declares nothing to default.
func implicitStructApplies(prop *apiextensionsv1.JSONSchemaProps, sh model.Shape) bool {
	return sh.NonPointerStruct() && prop.Type == "object" && !PreservesUnknown(prop) && !prop.XEmbeddedResource
}

// implicitZeroApplies is where KEP-1929 rule 4 applies: a non-pointer
// scalar without omitempty, whose zero JSON is known and fits the schema.
func implicitZeroApplies(prop *apiextensionsv1.JSONSchemaProps, f *model.Field) bool {
	sh := f.Shape
	if sh.Pointer || f.Tag.Omits(sh.NonPointerStruct()) || sh.Kind != model.KindScalar || sh.Zero == nil {
		return false
	}
	switch prop.Type {
	case "string", "integer", "number", "boolean":
		return true
	}
	return prop.XIntOrString
}

// PreservesUnknown reports a subtree that keeps unknown fields and declares
// none: nothing below it is typed, so nothing below it is defaulted.
func PreservesUnknown(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields &&
		len(s.Properties) == 0 && s.Items == nil && s.AdditionalProperties == nil
}

// decideZero is KEP-1929 "Changes to kubebuilder/default-gen" rule 4: a
// non-pointer scalar without omitempty is always sent by Go clients, at its
// zero value when unset, so its CRD default is that zero value, unless the
// apiserver would refuse it.
func (m *Model) decideZero(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	d.Rule = model.RuleImplicitZero
	raw := d.Field.Shape.Zero
	if errs := tryDefault(prop, raw, false); len(errs) > 0 {
		reason := refusal.Text(errs, raw)
		d.Why = "the apiserver would refuse the zero value: " + reason
		d.add(model.Warning, model.RuleImplicitZero, fmt.Sprintf("implicit default %s (zero value: the field has no omitempty) skipped: "+
			"the apiserver would reject it: %s. Fix: add omitempty (or omitzero), make the field a pointer, or set a valid +default",
			raw, reason), m)
		return
	}
	d.Default, d.value, d.Source = raw, decode(raw), "implicit-zero-default: the zero value of a field without omitempty"
}

// decideStruct is KEP-1929 "Changes to kubebuilder/default-gen" rule 1,
// for encoding/json as it is today: a field with omitzero, which the KEP
// predates, is left out by Go clients when zero (decideOmitZeroStruct);
// one without is always sent (decideSentStruct).
func (m *Model) decideStruct(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	d.Rule = model.RuleImplicitStruct
	if d.Field.Tag.OmitZero {
		m.decideOmitZeroStruct(d, prop)
		return
	}
	m.decideSentStruct(d, prop)
}

// decideSentStruct is KEP-1929 "Changes to kubebuilder/default-gen" rule 1
// for a non-pointer struct without omitzero. The KEP's rule: such a struct
// is never absent after a Go round trip, it is `{}`, so its CRD default is
// `{}`; Go clients always send it, and the default only serves other
// clients. When `{}` is refused (a minProperties, or required children),
// the default is `{}` with the defaults nested below it applied, if the
// apiserver accepts that; if not, the field gets none and the author is
// told how to fix it (structFix), unless the schema rightly requires
// children that no default fills (requiredChildren) or omitempty-struct's
// warning already gives the fix.
func (m *Model) decideSentStruct(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	const source = "implicit-struct-default: a non-pointer struct"
	raw, errs := tryStruct(prop, map[string]any{})
	if len(errs) == 0 {
		d.Default, d.value, d.Source = raw, map[string]any{}, source
		return
	}
	if defaultsBelow(prop) {
		if applied, err := crdcheck.StoredValue(prop, map[string]any{}, true); err == nil && len(applied) > 0 {
			if raw, errs := tryStruct(prop, applied); len(errs) == 0 {
				d.Default, d.value, d.Source = raw, applied, source+": {} is refused, so {} with the defaults below it applied"
				return
			}
		}
	}
	f := d.Field
	reason := refusal.Text(errs, raw)
	d.Why = "the apiserver would refuse {}: " + reason
	if names := requiredChildren(prop, errs); names != nil {
		d.Why = fmt.Sprintf("an empty %s is not a valid value: the schema requires %s, which no default fills; "+
			"a manifest that leaves the field out keeps it out, as under controller-gen's CRD", f.Shape.Ident.Name, strings.Join(names, ", "))
		return
	}
	if model.OmitemptyOnStruct(f) != "" {
		// rule 2's warning on the same field already says to use omitzero,
		// which fixes this too: one warning, one fix
		d.Why += " (omitempty-struct: use omitzero)"
		return
	}
	d.add(model.Warning, model.RuleImplicitStruct, fmt.Sprintf("implicit default {} (non-pointer struct) skipped: the apiserver would reject it: %s. Fix: %s",
		reason, structFix(prop, errs)), m)
}

// decideOmitZeroStruct is KEP-1929 "Changes to kubebuilder/default-gen"
// rule 1 for a non-pointer struct with omitzero, which the KEP predates:
// Go clients leave the zero struct out, as omitempty leaves out a zero
// scalar, so absent and zero are one value. The default is what the
// apiserver stores for Go's zero struct (`{}` where that stores the same),
// so that an absent field reads as Go's defaulted zero struct; it is not
// written when that adds nothing to the zero struct, and it is skipped,
// silently, when the apiserver refuses it: the Go defaulter then leaves
// the zero struct alone too, as the apiserver leaves it absent.
func (m *Model) decideOmitZeroStruct(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	const unchanged = "omitzero: Go clients leave the zero struct out, and no default below it would change it"
	if !defaultsBelow(prop) {
		d.Why = unchanged
		return
	}
	zero, ok := m.Types.ZeroJSON(d.Field.Shape.Ident)
	if !ok {
		d.Why = "omitzero, and the JSON of the zero struct is not known"
		return
	}
	base, err1 := crdcheck.StoredValue(prop, zero, false)
	stored, err2 := crdcheck.StoredValue(prop, zero, true)
	if err1 != nil || err2 != nil {
		d.Why = fmt.Sprintf("omitzero, and the schema cannot be read: %v", firstErr(err1, err2))
		return
	}
	if jsonnum.Equal(base, stored) {
		d.Why = unchanged
		return
	}
	candidates := []map[string]any{stored}
	if empty, err := crdcheck.StoredValue(prop, map[string]any{}, true); err == nil && jsonnum.Equal(empty, stored) {
		candidates = []map[string]any{{}, stored}
	}
	var first field.ErrorList
	var firstRaw []byte
	for i, c := range candidates {
		raw, errs := tryStruct(prop, c)
		if len(errs) == 0 {
			d.Default, d.value = raw, c
			d.Source = "implicit-struct-default: a non-pointer struct tagged omitzero: what the apiserver stores for Go's zero struct"
			return
		}
		if i == 0 {
			first, firstRaw = errs, raw
		}
	}
	d.Why = "omitzero, and the apiserver would refuse the zero struct: " + refusal.Text(first, firstRaw)
}

// tryStruct validates the struct value v as prop's default (tryDefault,
// with the children's schemas unless v is {}): its JSON, and the
// apiserver's errors, none when it accepts it.
func tryStruct(prop *apiextensionsv1.JSONSchemaProps, v map[string]any) ([]byte, field.ErrorList) {
	raw, _ := json.Marshal(v)
	return raw, tryDefault(prop, raw, string(raw) != "{}")
}

// requiredChildren lists the children whose "Required value" alone made the
// apiserver refuse {} as prop's default; nil when anything else did. The
// author asked for those children (RequiredNoImplicit keeps defaults off
// them), so an empty struct is rightly invalid: nothing to warn about.
func requiredChildren(prop *apiextensionsv1.JSONSchemaProps, errs field.ErrorList) []string {
	var names []string
	for _, e := range errs {
		name := e.Field[strings.LastIndex(e.Field, ".")+1:]
		if e.Type != field.ErrorTypeRequired || !slices.Contains(prop.Required, name) {
			return nil
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// structFix is the fix for a refused implicit {} that matches the reason,
// read from the errors' types and the schema, not their text: a child the
// schema declares whose value is required (field.ErrorTypeRequired), or
// fewer properties than minProperties (tooFewProperties). Go clients
// always send a non-pointer struct without omitzero, so its empty value
// must either be valid or never be sent.
func structFix(prop *apiextensionsv1.JSONSchemaProps, errs field.ErrorList) string {
	var required []string
	minProps := false
	for _, e := range errs {
		switch {
		case e.Type == field.ErrorTypeRequired:
			name := e.Field[strings.LastIndex(e.Field, ".")+1:]
			if _, ok := prop.Properties[name]; ok && !slices.Contains(required, name) {
				required = append(required, name)
			}
		case tooFewProperties(prop, e):
			minProps = true
		}
	}
	const omit = "add omitzero to the json tag (Go clients then leave the empty struct out), or make the field a pointer"
	switch {
	case len(required) > 0:
		return fmt.Sprintf("give %s a default, %s, or mark the field +required", strings.Join(required, ", "), omit)
	case minProps:
		return "the schema refuses an empty object, which Go clients send for this field: " + omit
	}
	return omit + ", or mark the field +required"
}

// defaultPath is the path of the default itself in the errors of
// crdcheck.ValidateDefaultInIsolation; a child's is below it.
var defaultPath = field.NewPath("default").String()

// tooFewProperties is the rule by which the apiserver's error e says that
// the default of prop has fewer properties than prop's minProperties: the
// apiserver reports it (k8s.io/apiextensions-apiserver
// pkg/apiserver/validation, kube-openapi's TooFewProperties) as an Invalid
// value at the default itself whose value is the default's number of
// properties, and prop's minProperties is above that number.
func tooFewProperties(prop *apiextensionsv1.JSONSchemaProps, e *field.Error) bool {
	if e.Type != field.ErrorTypeInvalid || e.Field != defaultPath || prop.MinProperties == nil {
		return false
	}
	var n int64
	switch v := e.BadValue.(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	default:
		return false
	}
	return n < *prop.MinProperties
}

// tryDefault validates raw as the default of prop, as the apiserver does on
// CRD create, with the `required` entries it covers dropped. full keeps the
// children's schemas, for a value that sets children.
func tryDefault(prop *apiextensionsv1.JSONSchemaProps, raw []byte, full bool) field.ErrorList {
	trial := *prop
	trial.Required = slices.Clone(prop.Required)
	dropRequiredCoveredByDefaults(&trial, decode(raw))
	return crdcheck.ValidateDefaultInIsolation(context.Background(), slim(&trial, raw, full))
}

// decode decodes a default as the model holds values: numbers exact
// (jsonnum.Number).
func decode(raw []byte) any {
	v, _ := jsonnum.Decode(raw)
	return v
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// storedAlike reports whether the apiserver stores a and b alike as the
// value of a property whose schema is s (nested defaults applied).
func storedAlike(s *apiextensionsv1.JSONSchemaProps, a, b any) bool {
	wrap := &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"v": *s}}
	sa, err1 := crdcheck.StoredValue(wrap, map[string]any{"v": a}, true)
	sb, err2 := crdcheck.StoredValue(wrap, map[string]any{"v": b}, true)
	return err1 == nil && err2 == nil && jsonnum.Equal(sa, sb)
}

// defaultsBelow reports a default anywhere below s, which defaulting an
// object of schema s could add.
func defaultsBelow(s *apiextensionsv1.JSONSchemaProps) bool {
	for _, p := range s.Properties {
		if p.Default != nil || defaultsBelow(&p) {
			return true
		}
	}
	for _, c := range []*apiextensionsv1.JSONSchemaPropsOrArray{s.Items} {
		if c != nil && c.Schema != nil && (c.Schema.Default != nil || defaultsBelow(c.Schema)) {
			return true
		}
	}
	if a := s.AdditionalProperties; a != nil && a.Schema != nil && (a.Schema.Default != nil || defaultsBelow(a.Schema)) {
		return true
	}
	return false
}

// dropRequiredCoveredByDefaults removes from `required` each property that
// a default value leaves out but that has a default of its own. The
// apiserver validates every default in isolation, before nested defaults
// apply (defaulting.ValidateDefaults), and would reject such a default with
// "Required value"; yet after top-down defaulting the property can never be
// missing, so dropping it from `required` changes no object. This is what
// makes KEP-1929's "Non-pointer structs" and "Struct pointers" examples
// acceptable to the apiserver.
func dropRequiredCoveredByDefaults(s *apiextensionsv1.JSONSchemaProps, v any) {
	switch v := v.(type) {
	case map[string]any:
		kept := s.Required[:0:0]
		for _, r := range s.Required {
			p, has := s.Properties[r]
			if _, present := v[r]; !present && has && p.Default != nil && string(p.Default.Raw) != "null" {
				continue
			}
			kept = append(kept, r)
		}
		if len(kept) == 0 {
			kept = nil
		}
		s.Required = kept
		for k, cv := range v {
			if p, ok := s.Properties[k]; ok {
				dropRequiredCoveredByDefaults(&p, cv)
				s.Properties[k] = p
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for _, e := range v {
				dropRequiredCoveredByDefaults(s.Items.Schema, e)
			}
		}
	}
}

// slim returns the part of s that a default of raw is validated against:
// s itself with its own constraints, but children only as far as CEL rules,
// or a value that sets children (full), need them, and no nested defaults.
// That keeps the check proportional to the node, not to its subtree.
func slim(s *apiextensionsv1.JSONSchemaProps, raw []byte, full bool) *apiextensionsv1.JSONSchemaProps {
	out := *s
	out.Description = ""
	out.Default = &apiextensionsv1.JSON{Raw: raw}
	if len(s.XValidations) == 0 && !full {
		out.Properties = nil
		out.Items = nil
		out.AdditionalProperties = nil
		return &out
	}
	out.Properties = make(map[string]apiextensionsv1.JSONSchemaProps, len(s.Properties))
	for k, p := range s.Properties {
		c := p.DeepCopy()
		stripDefaults(c)
		out.Properties[k] = *c
	}
	if full {
		if s.Items != nil {
			out.Items = s.Items.DeepCopy()
			if out.Items.Schema != nil {
				stripDefaults(out.Items.Schema)
			}
		}
		if s.AdditionalProperties != nil {
			out.AdditionalProperties = s.AdditionalProperties.DeepCopy()
			if out.AdditionalProperties.Schema != nil {
				stripDefaults(out.AdditionalProperties.Schema)
			}
		}
	}
	return &out
}

func stripDefaults(s *apiextensionsv1.JSONSchemaProps) {
	s.Default = nil
	s.Description = ""
	for k, p := range s.Properties {
		stripDefaults(&p)
		s.Properties[k] = p
	}
	if s.Items != nil && s.Items.Schema != nil {
		stripDefaults(s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		stripDefaults(s.AdditionalProperties.Schema)
	}
}
