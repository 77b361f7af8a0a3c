// Package randapitest is test support (the "test" suffix, as
// net/http/httptest): it writes random Go API packages, kubebuilder API group
// versions with many kinds of random nested types, markers and defaults,
// and its test checks controller-gen-default over that space of types.
//
// For every generated kind, TestRuleOfThumb checks:
//
//  1. every CRD that `controller-gen-default object crd defaults` writes
//     passes the apiserver's CRD validation (normalize.ValidateCRD);
//  2. KEP-1929's rule of thumb, on the JSON as stored: for random objects
//     as a Go client sends them, the JSON after the generated
//     SetObjectDefaults_<Kind> equals the JSON that the apiserver's decode
//     stores with the generated CRD (metadata aside);
//  3. the generator exits 0 without panicking, and the code it writes
//     compiles;
//  4. implicit defaults change what the apiserver stores, never which
//     objects it accepts: the same API's CRDs generated again with
//     crd:implicitDefaults=false (byte for byte controller-gen's) give the
//     same verdict as ours (accepted, or refused at the same fields,
//     through pipeline.Create) on random objects and their mutants
//     (internal/mutants: properties deleted at any depth, required ones
//     included; a key misspelt by its case).
//
// A run logs its seed, and a failure the command that replays it:
//
//	go test ./internal/randapitest -run TestRuleOfThumb -randapi.seed=SEED -randapi.kinds=KINDS
//
// Add -randapi.focus=KIND to report and shrink one failing kind, and
// -randapi.dir=DIR to keep the generated module; the other flags are
// declared in randapi_test.go.
//
// The generator writes only input that controller-gen-default is meant to
// accept: every explicit default has its field's JSON type and satisfies
// its enum, minLength, minimum, required children and minProperties
// (+k8s:required's included); a non-zero default on a non-pointer scalar
// comes with omitempty or omitzero; a non-pointer struct's explicit default
// is {} and only where {} is valid; a list-map key is a required string
// without default; a pointer, list or map without omitempty has a default
// (encoding/json would send null, which the apiserver drops, whatever the
// defaults); a default object holds every field a Go client always writes,
// with a valid value, and no zero value that encoding/json omits: the crd
// generator writes each default as Go clients encode it and refuses one
// that is then invalid (Config.ZeroDefaults generates such input, to see
// those errors). Everything else is mixed freely.
package randapitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/golit"
)

// Config says what Generate writes.
type Config struct {
	// Seed makes the API reproducible: the same Config gives the same API.
	Seed uint64
	// Kinds is the number of kinds in all packages together.
	Kinds int
	// KindsPerPackage is the most kinds one package holds (40 when zero).
	KindsPerPackage int
	// MaxDepth is the deepest nesting of struct types below a kind's spec
	// or status, which is at depth 1 (4 when zero).
	MaxDepth int
	// ZeroDefaults is how often a value in a default is its type's zero
	// value where a Go client would omit it (a default "" on an omitempty
	// string, or inside a default object). encoding/json omits such a
	// value; the crd generator writes the default without it, and refuses
	// the default when that is invalid (a required field left out).
	ZeroDefaults float64
	// IsZero is how often a struct type gets an IsZero method of its own
	// (0: never), which encoding/json's omitzero asks.
	IsZero float64
}

// Module is the module path of the generated packages.
const Module = "randapi.test/workspace"

// API is a set of generated packages.
type API struct {
	Packages []*Package
}

// Package is one API group version.
type Package struct {
	// Dir is the package directory relative to the module root.
	Dir     string
	Group   string
	Version string
	Kinds   []*Kind
}

// ImportPath is the package's import path.
func (p *Package) ImportPath() string { return Module + "/" + p.Dir }

// Kind is one root type with its list type.
type Kind struct {
	Name string
	// Type is the root struct: TypeMeta, ObjectMeta, spec and status.
	Type *Named
	Pkg  *Package
}

// Named is a declared type: a struct, or a scalar (string, int32, int64,
// bool) with validation markers.
type Named struct {
	Name string
	// Basic is the underlying type of a named scalar; "" for a struct.
	Basic  string
	Fields []*Field
	// Root marks a kind: it embeds TypeMeta and ObjectMeta.
	Root              bool
	StatusSubresource bool

	Enum          []string
	MinLength     *int
	Minimum       *int
	MinProperties bool
	// SizeRule is the CEL rule self.size() >= 0 on a string.
	SizeRule bool
	// RuleField is the field a CEL rule on a struct reads; the rule goes
	// when the field does.
	RuleField *Field
	// Default is the type-level +default; nil for none.
	Default any
	// IsZeroField is the field whose zero value makes a struct zero to
	// encoding/json's omitzero, through an IsZero method, whatever its
	// other fields hold; nil for no such method.
	IsZeroField *Field

	// pointerOnly structs have a type-level default and are only used
	// through pointer fields: on a non-pointer field the default would
	// have to be {}.
	pointerOnly bool
	// mapKey marks a list-map item, whose field "name" is the key.
	mapKey bool
	// height is 1 for a struct of scalars, and 1 more than its deepest
	// struct field otherwise.
	height int
}

// Field is one field of a struct.
type Field struct {
	Name string
	JSON string
	Type *Type
	// Omit is "", "omitempty" or "omitzero".
	Omit string
	// Marker is a requiredness marker without its "+" ("optional",
	// "required", "k8s:required", "kubebuilder:validation:Optional"…), or
	// "" for none.
	Marker string
	// Default is the field's default; nil for none.
	Default any
	// Kubebuilder writes Default as +kubebuilder:default instead of
	// +default.
	Kubebuilder bool
	MinLength   *int
	Minimum     *int
	SizeRule    bool
	// ListMapKey is the key of a list-map (+listType=map).
	ListMapKey string
	// Embedded marks an embedded pointer to a struct, `*Inner
	// `json:",inline"``: its fields are the outer struct's in JSON.
	Embedded bool
}

// required is controller-gen's rule: a required marker, or no marker and
// no omitempty (or omitzero).
func (f *Field) required() bool {
	if f.Embedded {
		return false
	}
	switch f.Marker {
	case "required", "k8s:required", "kubebuilder:validation:Required":
		return true
	case "":
		return f.Omit == ""
	}
	return false
}

// nonEmpty is controller-tools' rule for +k8s:required: the field's string,
// list, map or object is not empty (minLength, minItems or minProperties 1).
func (f *Field) nonEmpty() bool { return f.Marker == "k8s:required" }

// alwaysWritten reports a field encoding/json writes even at its zero
// value, as a value and not null: a scalar or struct without omitempty or
// omitzero, or a non-pointer struct with omitempty (which does nothing on a
// struct).
func (f *Field) alwaysWritten() bool {
	switch f.Type.Kind {
	case PointerType, SliceType, MapType, ExternalType:
		return false
	}
	return f.Omit == "" || f.Omit == "omitempty" && f.Type.structType() != nil
}

// Type is a type expression.
type Type struct {
	Kind  TypeKind
	Basic string // for BasicType; the qualified name for ExternalType
	Named *Named // for NamedType
	Elem  *Type  // for PointerType, SliceType and MapType
}

// TypeKind says which kind of type expression a Type is.
type TypeKind int

// The kinds of type expression.
const (
	BasicType TypeKind = iota
	NamedType
	PointerType
	SliceType
	MapType
	// ExternalType is runtime.RawExtension or apiextensions JSON, which
	// encoding/json writes as null when empty.
	ExternalType
)

// The external types, as types.go imports their packages.
const (
	rawExtension = "kruntime.RawExtension"
	apiextJSON   = "apiext.JSON"
)

func basicT(b string) *Type  { return &Type{Kind: BasicType, Basic: b} }
func namedT(n *Named) *Type  { return &Type{Kind: NamedType, Named: n} }
func pointerT(e *Type) *Type { return &Type{Kind: PointerType, Elem: e} }
func sliceT(e *Type) *Type   { return &Type{Kind: SliceType, Elem: e} }
func mapT(e *Type) *Type     { return &Type{Kind: MapType, Elem: e} }
func intPtr(i int) *int      { return &i }

// String is the type as Go source.
func (t *Type) String() string {
	switch t.Kind {
	case BasicType:
		return t.Basic
	case NamedType:
		return t.Named.Name
	case PointerType:
		return "*" + t.Elem.String()
	case SliceType:
		return "[]" + t.Elem.String()
	case ExternalType:
		return t.Basic
	default:
		return "map[string]" + t.Elem.String()
	}
}

// scalar is the underlying basic type of a scalar type, or "".
func (t *Type) scalar() string {
	switch t.Kind {
	case BasicType:
		return t.Basic
	case NamedType:
		return t.Named.Basic
	}
	return ""
}

// structType is the named struct of a struct type, or nil.
func (t *Type) structType() *Named {
	if t.Kind == NamedType && t.Named.Basic == "" {
		return t.Named
	}
	return nil
}

// Generate returns a random API; the same Config gives the same API.
func Generate(cfg Config) *API {
	if cfg.KindsPerPackage <= 0 {
		cfg.KindsPerPackage = 40
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 4
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x72616e64617069))
	api := &API{}
	for i := 0; i < cfg.Kinds; i += cfg.KindsPerPackage {
		g := &gen{r: r, maxDepth: cfg.MaxDepth, zero: cfg.ZeroDefaults, isZero: cfg.IsZero, names: map[string]bool{}}
		p := &Package{
			Dir:     fmt.Sprintf("api/g%d/v1", len(api.Packages)),
			Group:   fmt.Sprintf("g%d.randapi.example.com", len(api.Packages)),
			Version: "v1",
		}
		for j := i; j < min(cfg.Kinds, i+cfg.KindsPerPackage); j++ {
			k := g.kind(fmt.Sprintf("%s%d", title(pick(r, kindWords)), j))
			k.Pkg = p
			p.Kinds = append(p.Kinds, k)
		}
		api.Packages = append(api.Packages, p)
	}
	return api
}

// gen generates the types of one package.
type gen struct {
	r        *rand.Rand
	maxDepth int
	zero     float64         // Config.ZeroDefaults
	isZero   float64         // Config.IsZero
	names    map[string]bool // declared type names
	scalars  []*Named        // named scalars, for reuse
	structs  []*Named        // structs that may be reused
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// typeName returns a type name not yet declared in the package.
func (g *gen) typeName(base string) string {
	name := base
	for i := 2; g.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.names[name] = true
	return name
}

func (g *gen) kind(name string) *Kind {
	g.names[name], g.names[name+"List"] = true, true
	root := &Named{Name: name, Root: true}
	spec := &Field{Name: "Spec", JSON: "spec", Type: namedT(g.newStruct(name+"Spec", 1))}
	switch g.r.IntN(3) {
	case 0: // today's kubebuilder scaffold
		spec.Marker = "required"
	case 1:
		spec.Marker, spec.Omit = "optional", "omitzero"
	default: // older scaffolds
		spec.Marker, spec.Omit = "optional", "omitempty"
	}
	root.Fields = append(root.Fields, spec)
	if g.chance(0.7) {
		root.Fields = append(root.Fields, &Field{Name: "Status", JSON: "status", Marker: "optional", Omit: "omitzero",
			Type: namedT(g.newStruct(name+"Status", 1))})
		root.StatusSubresource = g.chance(0.5)
	}
	return &Kind{Name: name, Type: root}
}

// newStruct declares a struct at depth (1 for spec and status) with 1 to 6
// fields.
func (g *gen) newStruct(name string, depth int) *Named {
	n := &Named{Name: g.typeName(name), height: 1}
	g.fillStruct(n, depth, 1+g.r.IntN(6))
	if g.chance(0.15) {
		n.MinProperties = true
	}
	if g.chance(g.isZero) {
		var cands []*Field
		for _, f := range n.Fields {
			if f.Type.scalar() != "" {
				cands = append(cands, f)
			}
		}
		if len(cands) > 0 {
			n.IsZeroField = pick(g.r, cands)
		}
	}
	if g.chance(0.15) {
		// A rule that compiles and that every value of the right type
		// satisfies (generated numbers are never negative).
		var cands []*Field
		for _, f := range n.Fields {
			if s := f.Type.scalar(); s == "string" || s == "int32" || s == "int64" {
				cands = append(cands, f)
			}
		}
		if len(cands) > 0 {
			n.RuleField = pick(g.r, cands)
		}
	}
	return n
}

func (g *gen) fillStruct(n *Named, depth, fields int) {
	used := map[string]bool{}
	for _, f := range n.Fields {
		used[f.JSON] = true
	}
	if depth < g.maxDepth && g.chance(0.12) {
		n.Fields = append(n.Fields, g.embedded(used))
	}
	for range fields {
		w := pick(g.r, fieldWords)
		for i := 2; used[w]; i++ {
			w = fmt.Sprintf("%s%d", pick(g.r, fieldWords), i)
		}
		used[w] = true
		f := g.field(depth)
		f.Name, f.JSON = title(w), w
		n.Fields = append(n.Fields, f)
		if s := f.Type.innerStruct(); s != nil {
			n.height = max(n.height, s.height+1)
		}
	}
}

// embedded is an embedded pointer to a new struct of scalars, optional
// and tagged omitempty or omitzero (with defaults or not), whose JSON names
// are not in used (they are the outer struct's, once promoted), and adds
// them to used.
func (g *gen) embedded(used map[string]bool) *Field {
	inner := &Named{Name: g.typeName(title(pick(g.r, fieldWords)) + "Inline"), height: 1}
	for range 1 + g.r.IntN(3) {
		w := pick(g.r, fieldWords)
		for i := 2; used[w]; i++ {
			w = fmt.Sprintf("%s%d", pick(g.r, fieldWords), i)
		}
		used[w] = true
		f := &Field{Name: title(w), JSON: w, Marker: "optional", Type: basicT(g.basic())}
		if g.chance(0.5) {
			f.Type = namedT(g.scalarType())
		}
		g.scalarField(f)
		if f.Omit == "" {
			f.Omit = "omitempty" // a nil Inner leaves every field out
		}
		if f.Default != nil && isZero(f.Default) {
			f.Default = nil
		}
		inner.Fields = append(inner.Fields, f)
	}
	return &Field{Name: inner.Name, Type: pointerT(namedT(inner)), Embedded: true}
}

// innerStruct is the struct a field type holds, through pointers, lists
// and maps, or nil.
func (t *Type) innerStruct() *Named {
	for t.Kind == PointerType || t.Kind == SliceType || t.Kind == MapType {
		t = t.Elem
	}
	return t.structType()
}

// marker picks a requiredness marker, mostly +optional or +required, or
// none: kube-api-linter asks for one, but not every API has them.
func (g *gen) marker() string {
	switch r := g.r.IntN(100); {
	case r < 40:
		return "optional"
	case r < 75:
		return "required"
	case r < 78:
		return "k8s:optional"
	case r < 81:
		return "k8s:required"
	case r < 84:
		return "kubebuilder:validation:Optional"
	case r < 87:
		return "kubebuilder:validation:Required"
	}
	return ""
}

// field generates a field's type, tags, markers and default (not its name).
func (g *gen) field(depth int) *Field {
	deep := depth >= g.maxDepth
	f := &Field{Marker: g.marker()}
	switch r := g.r.IntN(100); {
	case r < 30:
		f.Type = basicT(g.basic())
		g.scalarField(f)
	case r < 45:
		f.Type = namedT(g.scalarType())
		g.scalarField(f)
	case r < 46:
		f.Type = &Type{Kind: ExternalType, Basic: pick(g.r, []string{rawExtension, apiextJSON})}
		g.externalField(f)
	case r < 50:
		f.Type = pointerT(g.scalarElem())
		g.nullableField(f, 0.3)
	case r < 62 && !deep:
		f.Type = namedT(g.structType(depth+1, false))
		g.structField(f)
	case r < 72 && !deep:
		f.Type = pointerT(namedT(g.structType(depth+1, true)))
		g.nullableField(f, 0.25)
	case r < 80:
		elem := g.scalarElem()
		if elem.Kind == NamedType && elem.Named.Default != nil && g.chance(0.3) {
			elem = pointerT(elem) // a nil item is null, which the type's default replaces
		}
		f.Type = sliceT(elem)
		g.nullableField(f, 0.2)
	case r < 88 && !deep:
		if g.chance(0.5) {
			f.Type = sliceT(namedT(g.listMapItem(depth + 1)))
			f.ListMapKey = "name"
		} else {
			f.Type = sliceT(namedT(g.structType(depth+1, false)))
		}
		g.nullableField(f, 0.15)
	case r < 100:
		var elem *Type
		if !deep && g.chance(0.4) {
			elem = namedT(g.structType(depth+1, false))
		} else {
			elem = g.scalarElem()
		}
		if elem.Kind == NamedType && elem.Named.Default != nil && g.chance(0.3) {
			// A nil value is null, which the apiserver keeps only when the
			// value schema has a default (else it drops the key).
			elem = pointerT(elem)
		}
		f.Type = mapT(elem)
		g.nullableField(f, 0.2)
	default:
		f.Type = basicT(g.basic())
		g.scalarField(f)
	}
	return f
}

func (g *gen) basic() string {
	return pick(g.r, []string{"string", "string", "int32", "int64", "bool"})
}

// scalarElem is a list item or map value scalar: basic or named.
func (g *gen) scalarElem() *Type {
	if g.chance(0.5) {
		return namedT(g.scalarType())
	}
	return basicT(g.basic())
}

// scalarType returns a named scalar, new or reused.
func (g *gen) scalarType() *Named {
	if len(g.scalars) > 0 && g.chance(0.4) {
		return pick(g.r, g.scalars)
	}
	b := g.basic()
	n := &Named{Basic: b}
	switch b {
	case "string":
		if g.chance(0.5) {
			n.Name = g.typeName(title(pick(g.r, fieldWords)) + "Kind")
			vals := append([]string(nil), enumWords...)
			g.r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
			n.Enum = vals[:2+g.r.IntN(3)]
		} else {
			n.Name = g.typeName(title(pick(g.r, fieldWords)) + "Name")
			if g.chance(0.4) {
				n.MinLength = intPtr(1 + g.r.IntN(3))
			}
		}
		n.SizeRule = g.chance(0.15)
	case "int32", "int64":
		n.Name = g.typeName(title(pick(g.r, fieldWords)) + "Count")
		if g.chance(0.4) {
			n.Minimum = intPtr(g.r.IntN(4))
		}
	default:
		n.Name = g.typeName(title(pick(g.r, fieldWords)) + "Flag")
	}
	if g.chance(0.4) {
		n.Default = g.scalarValue(b, n.Enum, n.MinLength, n.Minimum, g.chance(g.zero))
	}
	g.scalars = append(g.scalars, n)
	return n
}

// structType returns a struct for a field at depth, new or reused. Only a
// pointer may use a struct with a type-level default.
func (g *gen) structType(depth int, pointer bool) *Named {
	if g.chance(0.25) {
		var cands []*Named
		for _, s := range g.structs {
			if s.height <= g.maxDepth-depth+1 && (pointer || !s.pointerOnly) {
				cands = append(cands, s)
			}
		}
		if len(cands) > 0 {
			return pick(g.r, cands)
		}
	}
	s := g.newStruct(title(pick(g.r, fieldWords)), depth)
	if pointer && g.chance(0.2) {
		s.pointerOnly = true
		s.Default = g.object(s, false)
	}
	g.structs = append(g.structs, s)
	return s
}

// listMapItem is a new struct with a required string key "name".
func (g *gen) listMapItem(depth int) *Named {
	key := &Field{Name: "Name", JSON: "name", Type: basicT("string")}
	if g.chance(0.8) {
		key.Marker = "required"
	}
	n := &Named{Name: g.typeName(title(pick(g.r, fieldWords)) + "Entry"), Fields: []*Field{key}, height: 1, mapKey: true}
	g.fillStruct(n, depth, g.r.IntN(4))
	return n
}

// scalarField sets the tags, validation and default of a non-pointer
// scalar field.
func (g *gen) scalarField(f *Field) {
	switch r := g.r.IntN(100); {
	case r < 35:
	case r < 85:
		f.Omit = "omitempty"
	default:
		f.Omit = "omitzero"
	}
	if f.Type.Kind == BasicType {
		switch f.Type.Basic {
		case "string":
			if g.chance(0.2) {
				f.MinLength = intPtr(g.r.IntN(4))
			}
			f.SizeRule = g.chance(0.1)
		case "int32", "int64":
			if g.chance(0.2) {
				f.Minimum = intPtr(g.r.IntN(4))
			}
		}
	}
	n := f.Type.Named
	if f.Omit == "" && n != nil && n.Default != nil && !isZero(n.Default) {
		// A non-zero default needs omitempty: Go clients always send the
		// zero value otherwise (default-needs-omitempty).
		f.Omit = "omitempty"
	}
	if !g.chance(0.3) {
		return
	}
	enum, minLength, minimum := constraints(f.Type, f)
	if f.Omit == "" {
		// Only the zero value, and only where it is valid.
		if zero := zeroValue(f.Type.scalar()); validScalar(zero, enum, minLength, minimum) {
			f.Default = zero
		}
	} else {
		f.Default = g.scalarValue(f.Type.scalar(), enum, minLength, minimum, g.chance(g.zero))
	}
	f.Kubebuilder = f.Default != nil && g.chance(0.3)
}

// nullableField sets the tags and default of a pointer, list or map field:
// omitempty (or omitzero), or neither when it has a default.
func (g *gen) nullableField(f *Field, defaultChance float64) {
	f.Omit = "omitempty"
	if g.chance(0.15) {
		f.Omit = "omitzero"
	}
	if g.chance(defaultChance) {
		f.Default = g.value(f.Type, f, f.Type.Kind == PointerType)
		if g.chance(0.1) {
			f.Omit = ""
		}
	}
	if f.Default == nil && f.Omit == "" {
		f.Omit = "omitempty"
	}
}

// externalField makes f, of an external type, a pointer or not, and sets
// its tags and default: omitzero, omitempty or neither, but a value that
// encoding/json writes as null (an empty one) without omitzero has a
// default (the apiserver drops a null without one).
func (g *gen) externalField(f *Field) {
	if g.chance(0.4) {
		f.Type = pointerT(f.Type)
	}
	f.Omit = pick(g.r, []string{"omitzero", "omitempty", ""})
	if g.chance(0.5) || f.Omit != "omitzero" && !(f.Type.Kind == PointerType && f.Omit == "omitempty") {
		f.Default = g.value(f.Type, f, false)
	}
}

// structField sets the tags and default of a non-pointer struct field.
func (g *gen) structField(f *Field) {
	switch r := g.r.IntN(100); {
	case r < 40:
	case r < 85:
		f.Omit = "omitzero"
	default:
		f.Omit = "omitempty" // a warning: encoding/json ignores it
	}
	s := f.Type.Named
	if g.chance(0.1) && emptyObjectValid(s) && !f.nonEmpty() {
		f.Default = map[string]any{}
	}
}

// emptyObjectValid is a conservative test that {} is a valid default for
// s, as a Go client encodes it (the zero struct): no minProperties, no
// required fields, and every field Go always writes valid at its zero
// value, structs recursively.
func emptyObjectValid(s *Named) bool {
	if s.MinProperties {
		return false
	}
	for _, f := range s.Fields {
		if f.Embedded {
			if !emptyObjectValid(f.Type.Elem.Named) {
				return false
			}
			continue
		}
		if f.required() {
			return false
		}
		if !f.alwaysWritten() {
			continue
		}
		if n := f.Type.structType(); n != nil {
			if !emptyObjectValid(n) {
				return false
			}
			continue
		}
		enum, minLength, minimum := constraints(f.Type, f)
		if basic := f.Type.scalar(); basic != "" && !validScalar(zeroValue(basic), enum, minLength, minimum) {
			return false
		}
	}
	return true
}

// constraints are the enum, minLength and minimum of a scalar type t, and
// of field f when t is f's type (f may be nil).
func constraints(t *Type, f *Field) (enum []string, minLength, minimum *int) {
	if f != nil {
		minLength, minimum = f.MinLength, f.Minimum
		if f.nonEmpty() && t.scalar() == "string" && (minLength == nil || *minLength < 1) {
			minLength = intPtr(1)
		}
	}
	if n := t.Named; n != nil {
		enum = n.Enum
		if n.MinLength != nil {
			minLength = n.MinLength
		}
		if n.Minimum != nil {
			minimum = n.Minimum
		}
	}
	return enum, minLength, minimum
}

// scalarValue is a valid value of a scalar, its zero value if zero is set
// and the zero value is valid.
func (g *gen) scalarValue(basic string, enum []string, minLength, minimum *int, zero bool) any {
	if z := zeroValue(basic); zero && validScalar(z, enum, minLength, minimum) {
		return z
	}
	switch basic {
	case "string":
		if len(enum) > 0 {
			return pick(g.r, enum)
		}
		return g.stringValue()
	case "bool":
		return true
	default:
		lo := 1
		if minimum != nil {
			lo = max(lo, *minimum)
		}
		return int64(lo + g.r.IntN(9))
	}
}

// stringValue is a word of at least 4 characters (longer than any
// minLength), with, one time in four, a code point from the whole Unicode
// range (surrogates, which no Go string holds, aside) that a CRD can
// carry: golit.CRDString refuses the others at the marker, as it must.
func (g *gen) stringValue() string {
	w := pick(g.r, valueWords)
	if !g.chance(0.25) {
		return w
	}
	for {
		r := rune(g.r.IntN(0x110000))
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := w + string(r)
		if golit.CRDString(s, false) == nil {
			return s
		}
	}
}

// zeroValue is the JSON value of a scalar's Go zero value.
func zeroValue(basic string) any {
	switch basic {
	case "string":
		return ""
	case "bool":
		return false
	}
	return int64(0)
}

// validScalar reports whether a scalar value satisfies enum, minLength and
// minimum.
func validScalar(v any, enum []string, minLength, minimum *int) bool {
	switch v := v.(type) {
	case string:
		if len(enum) > 0 && !slices.Contains(enum, v) {
			return false
		}
		return minLength == nil || len(v) >= *minLength
	case int64:
		return minimum == nil || v >= int64(*minimum)
	}
	return true
}

// isZero reports whether a scalar value is its type's zero value.
func isZero(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case int64:
		return v == 0
	case bool:
		return !v
	}
	return false
}

// value is a valid value of type t for field f (whose constraints and
// list-map key apply at the top); zeroOK allows zero values at the top.
// Below the top, values are never zero values (but by Config.ZeroDefaults),
// so that encoding/json keeps them under omitempty and omitzero.
func (g *gen) value(t *Type, f *Field, zeroOK bool) any {
	if f != nil && f.nonEmpty() {
		zeroOK = false
	}
	switch t.Kind {
	case PointerType:
		return g.value(t.Elem, f, true)
	case SliceType:
		n := 1 + g.r.IntN(2)
		if zeroOK && g.chance(0.1) || g.chance(g.zero) {
			n = 0
		}
		items := []any{}
		keys := map[string]bool{}
		for range n {
			item := g.value(t.Elem, nil, false)
			if f != nil && f.ListMapKey != "" {
				m := item.(map[string]any)
				k := pick(g.r, valueWords)
				if keys[k] {
					continue // list-map keys are unique
				}
				keys[k] = true
				m[f.ListMapKey] = k
			}
			items = append(items, item)
		}
		return items
	case ExternalType:
		v := map[string]any{pick(g.r, valueWords): int64(g.r.IntN(9))}
		if t.Basic == apiextJSON && g.chance(0.3) {
			return g.stringValue()
		}
		return v
	case MapType:
		n := 1 + g.r.IntN(2)
		if zeroOK && g.chance(0.1) || g.chance(g.zero) {
			n = 0
		}
		m := map[string]any{}
		for range n {
			m[pick(g.r, valueWords)] = g.value(t.Elem, nil, false)
		}
		return m
	}
	if s := t.structType(); s != nil {
		return g.object(s, zeroOK)
	}
	if f != nil && f.Type != t {
		f = nil // the field's own constraints are on its type, not on pointers to it
	}
	enum, minLength, minimum := constraints(t, f)
	return g.scalarValue(t.scalar(), enum, minLength, minimum, zeroOK && g.chance(0.1) || g.chance(g.zero))
}

// nonZero is a value of the scalar field f that is not its zero value
// (Config.ZeroDefaults may ask value for zeros), or the last one tried when
// f's constraints allow only zero.
func (g *gen) nonZero(f *Field) any {
	var v any
	for range 20 {
		if v = g.value(f.Type, f, false); v != "" && v != false && v != int64(0) && v != float64(0) && v != 0 {
			break
		}
	}
	return v
}

// object is a valid value of struct s: every required field, every field
// a Go client always writes (KEP-1929's rule of thumb: the generator
// writes a default as Go clients encode it, and refuses one whose encoding
// is invalid), some others, at least one field unless zeroOK (and s allows
// it).
func (g *gen) object(s *Named, zeroOK bool) map[string]any {
	m := map[string]any{}
	for _, f := range s.Fields {
		if f.Embedded {
			if g.chance(0.4) {
				maps.Copy(m, g.object(f.Type.Elem.Named, true))
			}
			continue
		}
		// a value Go clients can send: IsZero does not call it zero
		switch {
		case f == s.IsZeroField:
			m[f.JSON] = g.nonZero(f)
		case f.required() || f.alwaysWritten() || g.chance(0.4):
			m[f.JSON] = g.value(f.Type, f, false)
		}
	}
	if len(m) == 0 && len(s.Fields) > 0 && (s.MinProperties || !zeroOK || g.chance(0.7)) {
		f := pick(g.r, s.Fields)
		if f.Embedded {
			f = f.Type.Elem.Named.Fields[0]
		}
		m[f.JSON] = g.value(f.Type, f, false)
	}
	return m
}

// Only returns a copy of the kind with the types it uses, alone in a
// package of its own: the starting point of shrinking a failure.
func (k *Kind) Only() *Kind {
	c := &cloner{named: map[*Named]*Named{}, fields: map[*Field]*Field{}}
	p := *k.Pkg
	nk := &Kind{Name: k.Name, Type: c.namedType(k.Type), Pkg: &p}
	p.Kinds = []*Kind{nk}
	return nk
}

type cloner struct {
	named  map[*Named]*Named
	fields map[*Field]*Field
}

func (c *cloner) namedType(n *Named) *Named {
	if cn, ok := c.named[n]; ok {
		return cn
	}
	cn := new(Named)
	*cn = *n
	c.named[n] = cn
	cn.Fields = nil
	for _, f := range n.Fields {
		cf := new(Field)
		*cf = *f
		cf.Type = c.typ(f.Type)
		c.fields[f] = cf
		cn.Fields = append(cn.Fields, cf)
	}
	if n.RuleField != nil {
		cn.RuleField = c.fields[n.RuleField]
	}
	if n.IsZeroField != nil {
		cn.IsZeroField = c.fields[n.IsZeroField]
	}
	return cn
}

func (c *cloner) typ(t *Type) *Type {
	ct := *t
	if t.Named != nil {
		ct.Named = c.namedType(t.Named)
	}
	if t.Elem != nil {
		ct.Elem = c.typ(t.Elem)
	}
	return &ct
}

// Step is one simplification of a kind's types, for shrinking: removing
// a field, or a marker. Every step keeps the API valid input, but for what
// a removed field leaves behind (a default that no longer fits), which
// makes controller-gen-default fail: the step is then not taken.
type Step struct {
	// Owner is the type the step changes; a step whose owner is no longer
	// used by the kind is moot.
	Owner *Named
	Desc  string
	// Apply takes the step and returns a function that undoes it.
	Apply func() (undo func())
}

// Steps lists the simplifications of the kind's types, biggest first:
// fields breadth-first from the kind (so that whole subtrees go first), but
// list-map keys, then markers.
func (k *Kind) Steps() []Step {
	var fields, marks []Step
	for _, n := range k.types() {
		for _, f := range n.Fields {
			if !(n.mapKey && f.JSON == "name") {
				fields = append(fields, removeField(n, f))
			}
		}
		marks = append(marks, n.markerSteps()...)
	}
	return append(fields, marks...)
}

// removeField deletes f from n, with the CEL rule that reads it. Defaults
// lose the field's key when they are written.
func removeField(n *Named, f *Field) Step {
	return Step{Owner: n, Desc: "remove " + n.Name + "." + f.Name, Apply: func() func() {
		old, oldRule := n.Fields, n.RuleField
		var kept []*Field
		for _, g := range old {
			if g != f {
				kept = append(kept, g)
			}
		}
		n.Fields = kept
		oldIsZero := n.IsZeroField
		if oldRule == f {
			n.RuleField = nil
		}
		if oldIsZero == f {
			n.IsZeroField = nil
		}
		return func() { n.Fields, n.RuleField, n.IsZeroField = old, oldRule, oldIsZero }
	}}
}

// markerSteps drop the markers of n and of its fields that are not needed
// for valid input: minProperties, CEL rules, defaults, +optional and
// +required.
func (n *Named) markerSteps() []Step {
	var out []Step
	step := func(desc string, apply func() func()) {
		out = append(out, Step{Owner: n, Desc: desc, Apply: apply})
	}
	if n.MinProperties {
		step("drop MinProperties on "+n.Name, func() func() {
			n.MinProperties = false
			return func() { n.MinProperties = true }
		})
	}
	if n.RuleField != nil || n.SizeRule {
		step("drop the CEL rule on "+n.Name, func() func() {
			rf, sr := n.RuleField, n.SizeRule
			n.RuleField, n.SizeRule = nil, false
			return func() { n.RuleField, n.SizeRule = rf, sr }
		})
	}
	if n.Default != nil {
		step("drop the default of "+n.Name, func() func() {
			d := n.Default
			n.Default = nil
			return func() { n.Default = d }
		})
	}
	for _, f := range n.Fields {
		if f.SizeRule {
			step("drop the CEL rule on "+n.Name+"."+f.Name, func() func() {
				f.SizeRule = false
				return func() { f.SizeRule = true }
			})
		}
		if f.Default != nil {
			step("drop the default of "+n.Name+"."+f.Name, func() func() {
				d, omit := f.Default, f.Omit
				f.Default = nil
				if omit == "" && f.Type.scalar() == "" && f.Type.structType() == nil {
					f.Omit = "omitempty" // else a nil value is sent as null
				}
				return func() { f.Default, f.Omit = d, omit }
			})
		}
		if f.Marker != "" && !(n.mapKey && f.JSON == "name") {
			step("drop +"+f.Marker+" on "+n.Name+"."+f.Name, func() func() {
				m := f.Marker
				f.Marker = ""
				return func() { f.Marker = m }
			})
		}
	}
	return out
}

// Uses reports whether n is one of the types of the kind.
func (k *Kind) Uses(n *Named) bool {
	for _, t := range k.types() {
		if t == n {
			return true
		}
	}
	return false
}

// types lists the named types reachable from the kind, breadth-first.
func (k *Kind) types() []*Named {
	seen := map[*Named]bool{k.Type: true}
	queue := []*Named{k.Type}
	for i := 0; i < len(queue); i++ {
		for _, f := range queue[i].Fields {
			t := f.Type
			for t.Elem != nil {
				t = t.Elem
			}
			if t.Named != nil && !seen[t.Named] {
				seen[t.Named] = true
				queue = append(queue, t.Named)
			}
		}
	}
	return queue
}

// Files returns the package's source files by name: doc.go,
// groupversion_info.go and types.go.
func (p *Package) Files() (map[string][]byte, error) {
	types, err := p.TypesSource()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"doc.go": fmt.Appendf(nil, `// Package %s is a random API group version written by internal/randapitest.
// +kubebuilder:object:generate=true
// +groupName=%s
package %[1]s
`, p.Version, p.Group),
		"groupversion_info.go": fmt.Appendf(nil, `package %s

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group version of this package's kinds.
	GroupVersion = schema.GroupVersion{Group: %q, Version: %[1]q}

	// SchemeBuilder registers this package's kinds.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds this package's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
`, p.Version, p.Group),
		"types.go": types,
	}, nil
}

// TypesSource is the gofmt'ed source of the package's types: each kind, its
// list, and the types it uses, in the order the kinds reach them.
func (p *Package) TypesSource() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\nimport (\n"+
		"apiext \"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1\"\n"+
		"metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n"+
		"kruntime \"k8s.io/apimachinery/pkg/runtime\"\n)\n\n"+
		"var _ kruntime.RawExtension\nvar _ apiext.JSON\n", p.Version)
	// Identifiers named like the imports of the generated files (runtime
	// aside: controller-gen's object generator imports it whatever the
	// package declares).
	b.WriteString(shadows)
	// Identifiers named like the generated file's unexported functions:
	// the helper of each kind and the pointer helper.
	for _, k := range p.Kinds {
		fmt.Fprintf(&b, "\nvar setDefaults_%s = 0\n", k.Name)
	}
	b.WriteString("\nfunc defaultsPtr() {}\n")
	done := map[*Named]bool{}
	for _, k := range p.Kinds {
		for _, n := range k.types() {
			if !done[n] {
				done[n] = true
				writeType(&b, n)
				if n == k.Type {
					fmt.Fprintf(&b, "\n// +kubebuilder:object:root=true\ntype %sList struct {\n"+
						"metav1.TypeMeta `json:\",inline\"`\nmetav1.ListMeta `json:\"metadata,omitempty\"`\nItems []%[1]s `json:\"items\"`\n}\n", k.Name)
				}
			}
		}
	}
	b.WriteString("\nfunc init() {\n")
	for _, k := range p.Kinds {
		fmt.Fprintf(&b, "SchemeBuilder.Register(&%s{}, &%[1]sList{})\n", k.Name)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("randapi: generated source does not parse: %v\n%s", err, b.Bytes())
	}
	return src, nil
}

// shadows declares, at package scope, identifiers named like the
// packages the defaults generator imports: its file must import them under
// other names.
const shadows = `
// Package-level identifiers named like the generated files' imports.
var reflect, context = "reflect", "context"

type fmt struct{}

const time = 0

var _, _, _ = reflect, context, fmt{}
`

func writeType(b *bytes.Buffer, n *Named) {
	b.WriteString("\n")
	if n.Root {
		b.WriteString("// +kubebuilder:object:root=true\n")
		if n.StatusSubresource && hasField(n, "status") {
			b.WriteString("// +kubebuilder:subresource:status\n")
		}
	}
	if len(n.Enum) > 0 {
		fmt.Fprintf(b, "// +kubebuilder:validation:Enum=%s\n", strings.Join(n.Enum, ";"))
	}
	if n.MinLength != nil {
		fmt.Fprintf(b, "// +kubebuilder:validation:MinLength=%d\n", *n.MinLength)
	}
	if n.Minimum != nil {
		fmt.Fprintf(b, "// +kubebuilder:validation:Minimum=%d\n", *n.Minimum)
	}
	if n.MinProperties {
		b.WriteString("// +kubebuilder:validation:MinProperties=1\n")
	}
	if n.SizeRule {
		b.WriteString("// +kubebuilder:validation:XValidation:rule=\"self.size() >= 0\"\n")
	}
	if f := n.RuleField; f != nil {
		if f.Type.scalar() == "string" {
			fmt.Fprintf(b, "// +kubebuilder:validation:XValidation:rule=\"!has(self.%s) || self.%[1]s.size() >= 0\"\n", f.JSON)
		} else {
			fmt.Fprintf(b, "// +kubebuilder:validation:XValidation:rule=\"!has(self.%s) || self.%[1]s >= 0\"\n", f.JSON)
		}
	}
	if n.Default != nil {
		fmt.Fprintf(b, "// +default=%s\n", marshal(prune(n.Default, &Type{Kind: NamedType, Named: n})))
	}
	if n.Basic != "" {
		fmt.Fprintf(b, "type %s %s\n", n.Name, n.Basic)
		return
	}
	fmt.Fprintf(b, "type %s struct {\n", n.Name)
	if n.Root {
		b.WriteString("metav1.TypeMeta `json:\",inline\"`\nmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n")
	}
	for _, f := range n.Fields {
		writeField(b, f)
	}
	b.WriteString("}\n")
	if f := n.IsZeroField; f != nil {
		zero := marshal(zeroValue(f.Type.scalar()))
		fmt.Fprintf(b, "\n// IsZero reports a %s without %s, whatever else it holds: encoding/json's omitzero leaves it out.\n"+
			"func (x %[1]s) IsZero() bool { return x.%s == %s }\n", n.Name, f.Name, zero)
	}
}

// hasField reports whether n has a field of that JSON name.
func hasField(n *Named, name string) bool {
	for _, f := range n.Fields {
		if f.JSON == name {
			return true
		}
	}
	return false
}

func writeField(b *bytes.Buffer, f *Field) {
	if f.Embedded {
		fmt.Fprintf(b, "%s `json:\",inline\"`\n", f.Type.String())
		return
	}
	if f.Marker != "" {
		fmt.Fprintf(b, "// +%s\n", f.Marker)
	}
	if f.Default != nil {
		m := "+default"
		if f.Kubebuilder {
			m = "+kubebuilder:default"
		}
		fmt.Fprintf(b, "// %s=%s\n", m, marshal(prune(f.Default, f.Type)))
	}
	if f.MinLength != nil {
		fmt.Fprintf(b, "// +kubebuilder:validation:MinLength=%d\n", *f.MinLength)
	}
	if f.Minimum != nil {
		fmt.Fprintf(b, "// +kubebuilder:validation:Minimum=%d\n", *f.Minimum)
	}
	if f.SizeRule {
		b.WriteString("// +kubebuilder:validation:XValidation:rule=\"self.size() >= 0\"\n")
	}
	if f.ListMapKey != "" {
		fmt.Fprintf(b, "// +listType=map\n// +listMapKey=%s\n", f.ListMapKey)
	}
	tag := f.JSON
	if f.Omit != "" {
		tag += "," + f.Omit
	}
	fmt.Fprintf(b, "%s %s `json:%q`\n", f.Name, f.Type.String(), tag)
}

// prune drops the keys of v that t no longer has (after shrinking removed
// fields).
func prune(v any, t *Type) any {
	switch t.Kind {
	case PointerType:
		return prune(v, t.Elem)
	case SliceType:
		items, _ := v.([]any)
		out := []any{}
		for _, it := range items {
			out = append(out, prune(it, t.Elem))
		}
		return out
	case MapType:
		m, _ := v.(map[string]any)
		out := map[string]any{}
		for k, x := range m {
			out[k] = prune(x, t.Elem)
		}
		return out
	}
	s := t.structType()
	if s == nil {
		return v
	}
	m, _ := v.(map[string]any)
	out := map[string]any{}
	for _, f := range s.Fields {
		if f.Embedded {
			maps.Copy(out, prune(m, f.Type).(map[string]any))
			continue
		}
		if x, ok := m[f.JSON]; ok {
			out[f.JSON] = prune(x, f.Type)
		}
	}
	return out
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // values are built from maps, slices, strings, numbers and booleans
	}
	return string(b)
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// Kinds returns every kind of the API, sorted by name.
func (a *API) Kinds() []*Kind {
	var out []*Kind
	for _, p := range a.Packages {
		out = append(out, p.Kinds...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Types counts the named types of the API (kinds included, lists not).
func (a *API) Types() int {
	n := 0
	for _, p := range a.Packages {
		seen := map[*Named]bool{}
		for _, k := range p.Kinds {
			for _, t := range k.types() {
				seen[t] = true
			}
		}
		n += len(seen)
	}
	return n
}

// Word lists. Field names avoid CEL's reserved words and the root's
// metadata, apiVersion and kind.
var (
	kindWords = []string{"ship", "boat", "barge", "ferry", "yacht", "raft", "canoe", "kayak", "sloop", "ketch",
		"schooner", "tug", "liner", "junk", "dhow", "skiff", "punt", "galleon", "frigate", "cutter"}
	fieldWords = []string{"colour", "deck", "hull", "mast", "sail", "anchor", "cargo", "crew", "keel", "rudder",
		"harbour", "tide", "wave", "compass", "beacon", "lantern", "rope", "knot", "flag", "signal", "chart",
		"route", "dock", "berth", "pier", "buoy", "current", "wind", "storm", "cabin", "galley", "bridge",
		"engine", "fuel", "speed", "depth", "draft", "ballast", "bow", "stern", "helm", "oar", "paddle", "net",
		"hook", "reel", "bait", "fleet", "pilot", "mate", "cook", "bosun", "watch", "log", "bell", "horn"}
	enumWords  = []string{"red", "amber", "green", "blue", "violet", "white", "black", "grey"}
	valueWords = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
		"juliet", "kilo", "lima", "mike", "november", "oscar", "papa"}
)
