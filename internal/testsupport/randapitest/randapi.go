// Package randapitest is test support (the "test" suffix, as
// net/http/httptest): it writes random Go API packages, kubebuilder API group
// versions with many kinds of random nested types, markers and defaults,
// and its tests check controller-gen-default over that space of types.
//
// For every generated kind (in every version of its CRD), TestRuleOfThumb
// checks:
//
//  1. every CRD that `controller-gen-default object crd defaults` writes
//     passes the apiserver's CRD validation (normalize.ValidateCRD);
//  2. KEP-1929's rule of thumb, on the JSON as stored: for random objects
//     as a Go client sends them, the JSON after the generated
//     SetObjectDefaults_<Kind> equals the JSON that the apiserver's decode
//     stores with the generated CRD (metadata aside; fields the generators
//     say the Go defaulter does not follow, default-differs-by-use and
//     default-own-encoding, aside);
//  3. the generator exits 0 without panicking, and the code it writes
//     compiles;
//  4. implicit defaults change what the apiserver stores, never which
//     objects it accepts: the same API's CRDs generated again with
//     crd:implicitDefaults=false (controller-gen's, but for +default on
//     types, which controller-gen drops) give the same verdict as ours
//     (accepted, or refused at the same fields, through pipeline.Create) on
//     random objects and their mutants (internal/testsupport/mutants: properties
//     deleted at any depth, required ones included; a key misspelt by its
//     case).
//
// TestDropIn runs the same checks on an API with the shapes of real APIs
// (Shapes: versions of one kind sharing types directly, through aliases and
// defined types; types with their own encoding; embedded resources;
// intstr.IntOrString; floats; unexported fields; doc comments; package and
// type markers; selectable fields; crd options), and the drop-in invariant
// against controller-gen v0.23.0 with the same crd options (dropin_test.go):
// controller-gen exits 0 (randapi writes only what it accepts), and then
// ours exits 0 too; with crd:implicitDefaults=false its CRDs and deepcopy
// files are controller-gen's byte for byte (+default on types aside);
// versions controller-gen writes with one schema have one schema in ours;
// every default of controller-gen's CRDs is in ours as written.
//
// A run logs its seed, and a failure the command that replays it:
//
//	go test ./internal/testsupport/randapitest -run TestRuleOfThumb -randapi.seed=SEED -randapi.kinds=KINDS
//	go test ./internal/testsupport/randapitest -run TestDropIn -randapi.seed=SEED -randapi.dropkinds=KINDS
//
// Add -randapi.focus=KIND to report and shrink one failing kind,
// -randapi.set=Encoded=0,... to turn a shape off (or up), and
// -randapi.dir=DIR to keep the generated module; the other flags are
// declared in randapi_test.go.
//
// The generator writes only input that controller-gen-default is meant to
// accept: every explicit default has its field's JSON type and satisfies
// its enum, minLength, minimum, required children and minProperties
// (+k8s:required's included); a non-zero default on a non-pointer scalar
// comes with omitempty or omitzero; a non-pointer struct's explicit default
// is {} and only where {} is valid (but +kubebuilder:default on an embedded
// resource, a warning); a list-map key is a required string without
// default; a pointer, list or map without omitempty has a default
// (encoding/json would send null, which the apiserver drops, whatever the
// defaults); a default object holds every field a Go client always writes,
// with a valid value, and no zero value that encoding/json omits: the crd
// generator writes each default as Go clients encode it and refuses one
// that is then invalid (Config.ZeroDefaults generates such input, to see
// those errors). It writes only what controller-gen v0.23.0 accepts: no
// generic types (it refuses type parameters: "invalid field type: any"),
// no map of an alias of a named scalar (its object generator fails,
// "invalid map value type", or panics), no JSON list in
// +kubebuilder:default (its loose syntax refuses or misreads it), no
// selectable field or status subresource on a version it skips, the same
// selectable fields only on versions of one schema (the apiserver refuses
// them otherwise), Pattern on a type with its own encoding only with Type
// and Schemaless on the field. Everything else is mixed freely.
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

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/golit"
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

	// The shapes of real APIs below are off at zero, which draws nothing
	// from the random source: a seed gives the API it gave before they
	// were added. Shapes sets them all.

	// Versions is how often a group has two or three versions (v1alpha1,
	// v1beta1, v1) of the same kinds, whose later versions use the
	// earlier versions' spec and status types directly, through an alias
	// (chains of aliases across versions), through a defined type
	// (`type X v1alpha1.X`), or have types of their own; one version is
	// the storage version (+kubebuilder:storageversion), and a version
	// may be left out of the CRDs (+kubebuilder:skipversion).
	Versions float64
	// Aliases is how often a named type is used through an alias
	// (`type X = Y`, of a type of its package or of another) or a defined
	// type (`type X Y`), and an embedded struct through an alias.
	Aliases float64
	// Defined is how often such a type is a defined type rather than an
	// alias, where the type allows it (no methods, no type-level default).
	Defined float64
	// Shared is how often a struct or named scalar comes from an earlier
	// package of the API (another version of the group, or another group).
	Shared float64
	// Encoded is how often a field's type has its own encoding: a
	// duration wrapper with MarshalJSON (a string), a level with
	// MarshalText (a string), a schema-less object with MarshalJSON, or
	// intstr.IntOrString; with +kubebuilder:validation:Type, Format,
	// Schemaless, XIntOrString and +kubebuilder:pruning:PreserveUnknownFields
	// on the type or the field, and +kubebuilder:default literals.
	Encoded float64
	// EmbeddedResources is how often a field is an embedded resource
	// (+kubebuilder:validation:EmbeddedResource): a runtime.RawExtension, or
	// a struct with TypeMeta and an ObjectMeta field.
	EmbeddedResources float64
	// Floats is how often a package has float32 and float64 scalars (one
	// scalar in 25), which need crd:allowDangerousTypes=true.
	Floats float64
	// Hidden is how often a package has structs with an unexported field
	// (one in 10), untagged (which needs crd:ignoreUnexportedFields=true)
	// or tagged json:"-".
	Hidden float64
	// Docs is how often a type or field has a doc comment, which becomes
	// its description (crd:maxDescLen cuts it).
	Docs float64
	// PackageMarkers is how often a package says +implicitDefaults=false,
	// and how often +kubebuilder:validation:Optional.
	PackageMarkers float64
	// TypeImplicitOff is how often a struct type says
	// +implicitDefaults=false.
	TypeImplicitOff float64
	// Selectable is how often a kind has +kubebuilder:selectablefield
	// markers (the same in every version that shares its types).
	Selectable float64
	// Options is how often each crd option that the API does not need is
	// set anyway: maxDescLen, generateEmbeddedObjectMeta,
	// ignoreUnexportedFields, allowDangerousTypes.
	Options float64
}

// Shapes returns cfg with every shape of real APIs on (the Config fields
// after IsZero), at the rates TestDropIn uses.
func Shapes(cfg Config) Config {
	cfg.Versions = 0.7
	cfg.Aliases = 0.2
	cfg.Defined = 0.3
	cfg.Shared = 0.12
	cfg.Encoded = 0.1
	cfg.EmbeddedResources = 0.03
	cfg.Floats = 0.2
	cfg.Hidden = 0.3
	cfg.Docs = 0.3
	// +implicitDefaults=false in one version's package makes versions
	// differ that controller-gen writes alike, by design (a
	// versions-differ warning; with selectableFields the apiserver then
	// refuses the CRD): TestDropIn's check 5 does not hold there, so the
	// shape is off unless -randapi.set turns it on
	cfg.PackageMarkers = 0
	cfg.TypeImplicitOff = 0.05
	cfg.Selectable = 0.5
	cfg.Options = 0.4
	return cfg
}

// Module is the module path of the generated packages.
const Module = "randapi.test/workspace"

// API is a set of generated packages.
type API struct {
	Packages []*Package
	// Options are the crd generator's options the API is generated with
	// ("allowDangerousTypes=true", "maxDescLen=40"…): those it needs
	// (floats, unexported fields without json tags), and others at random
	// (Config.Options).
	Options []string
}

// Package is one API group version.
type Package struct {
	// Dir is the package directory relative to the module root.
	Dir     string
	Group   string
	Version string
	Kinds   []*Kind
	// SkipVersion leaves the version out of the CRDs
	// (+kubebuilder:skipversion on each of its kinds).
	SkipVersion bool
	// ImplicitOff and Optional are the package markers
	// +implicitDefaults=false and +kubebuilder:validation:Optional.
	ImplicitOff, Optional bool

	api *API
}

// importName is the name other packages import p by.
func (p *Package) importName() string {
	return strings.ReplaceAll(strings.TrimPrefix(p.Dir, "api/"), "/", "")
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

// Key names the kind in one version: group/version/Kind.
func (k *Kind) Key() string { return k.Pkg.Group + "/" + k.Pkg.Version + "/" + k.Name }

// CRD names the kind's CRD: group/Kind, as CRDKey does.
func (k *Kind) CRD() string { return k.Pkg.Group + "/" + k.Name }

// Named is a declared type: a struct, a scalar (string, int32, int64,
// bool, float32, float64) with validation markers, a type with its own
// encoding (Encoding), or an alias or defined type of another (AliasOf).
type Named struct {
	Name string
	// Pkg is the package that declares the type.
	Pkg *Package
	// AliasOf is the type an alias (type X = Y) or a defined type (type
	// X Y, Defined) names, as written. Fields reach such a type through
	// Type.Via; it is declared, and has no fields or markers of its own.
	AliasOf *Type
	Defined bool
	// Encoding is the template of a type with its own encoding
	// (encDuration, encText, encObject); such a type has no Fields.
	Encoding string
	// TypeMarkers puts an encoded type's Type (and Format, or
	// PreserveUnknownFields) markers on the type; without it, every field
	// of the type carries them, with Schemaless.
	TypeMarkers bool
	// Format is +kubebuilder:validation:Format=duration on a duration.
	Format bool
	// EmbeddedResource marks a struct with TypeMeta inline and an
	// ObjectMeta field, for +kubebuilder:validation:EmbeddedResource.
	EmbeddedResource bool
	// Hidden are declarations of unexported fields, which JSON ignores
	// (controller-gen too, with crd:ignoreUnexportedFields=true).
	Hidden []string
	// Doc is the type's doc comment.
	Doc string
	// ImplicitOff is +implicitDefaults=false on the type.
	ImplicitOff bool
	// Storage and Selectable are a root's +kubebuilder:storageversion and
	// +kubebuilder:selectablefield JSON paths.
	Storage    bool
	Selectable []string
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
	// Optional is the package's +kubebuilder:validation:Optional: without
	// a marker the field is optional.
	Optional bool
	// EmbeddedResource is +kubebuilder:validation:EmbeddedResource (with
	// +kubebuilder:pruning:PreserveUnknownFields on a RawExtension).
	EmbeddedResource bool
	// IntOrString is +kubebuilder:validation:XIntOrString with a pattern.
	IntOrString bool
	// Pattern is a +kubebuilder:validation:Pattern on a duration field
	// (with its Type and Schemaless markers).
	Pattern bool
	// Doc is the field's doc comment.
	Doc string
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
		return f.Omit == "" && !f.Optional
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
	case IntOrStringType:
		return f.Omit != "omitzero" // a struct: omitempty does nothing
	}
	if n := f.Type.Named; n != nil && n.Encoding != "" {
		if n.Encoding == encText {
			return f.Omit == "" // an integer: omitempty leaves 0 out
		}
		return f.Omit != "omitzero"
	}
	return f.Omit == "" || f.Omit == "omitempty" && f.Type.structType() != nil
}

// Type is a type expression.
type Type struct {
	Kind  TypeKind
	Basic string // for BasicType; the qualified name for ExternalType
	// Named is the type a NamedType is, through aliases and defined types;
	// Via is the alias or defined type the expression names, if any.
	Named *Named
	Via   *Named
	Elem  *Type // for PointerType, SliceType and MapType
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
	// IntOrStringType is intstr.IntOrString.
	IntOrStringType
)

// The encodings of types with their own (Named.Encoding).
const (
	// encDuration is a struct holding a time.Duration, encoded as a
	// string by MarshalJSON.
	encDuration = "duration"
	// encText is an int32 encoded as "L<n>" by MarshalText.
	encText = "text"
	// encObject is a struct holding a map, encoded as a JSON object by
	// MarshalJSON, schema-less (x-kubernetes-preserve-unknown-fields).
	encObject = "object"
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

// src is the type as Go source in package p.
func (t *Type) src(p *Package) string {
	switch t.Kind {
	case BasicType:
		return t.Basic
	case NamedType:
		if t.Via != nil {
			return t.Via.ref(p)
		}
		return t.Named.ref(p)
	case PointerType:
		return "*" + t.Elem.src(p)
	case SliceType:
		return "[]" + t.Elem.src(p)
	case ExternalType:
		return t.Basic
	case IntOrStringType:
		return "intstr.IntOrString"
	default:
		return "map[string]" + t.Elem.src(p)
	}
}

// ref is n's name in package p, qualified when p does not declare it.
func (n *Named) ref(p *Package) string {
	if n.Pkg == nil || n.Pkg == p {
		return n.Name
	}
	return n.Pkg.importName() + "." + n.Name
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

// structType is the named struct of a struct type, or nil (a type with
// its own encoding is none).
func (t *Type) structType() *Named {
	if t.Kind == NamedType && t.Named.Basic == "" && t.Named.Encoding == "" {
		return t.Named
	}
	return nil
}

// encoded is the type with its own encoding t is, or nil.
func (t *Type) encoded() *Named {
	if t.Kind == PointerType {
		t = t.Elem
	}
	if t.Kind == NamedType && t.Named.Encoding != "" {
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
	use := &uses{}
	var earlier []*gen // the packages of earlier groups
	for i, gi := 0, 0; i < cfg.Kinds; i, gi = i+cfg.KindsPerPackage, gi+1 {
		versions := []string{"v1"}
		if maybe(r, cfg.Versions) {
			versions = pick(r, [][]string{{"v1alpha1", "v1"}, {"v1beta1", "v1"}, {"v1alpha1", "v1beta1", "v1"}})
		}
		var group []*gen
		for vi, v := range versions {
			p := &Package{
				Dir:     fmt.Sprintf("api/g%d/%s", gi, v),
				Group:   fmt.Sprintf("g%d.randapi.example.com", gi),
				Version: v,
				api:     api,
			}
			p.ImplicitOff = maybe(r, cfg.PackageMarkers)
			p.Optional = maybe(r, cfg.PackageMarkers)
			g := &gen{r: r, maxDepth: cfg.MaxDepth, zero: cfg.ZeroDefaults, isZero: cfg.IsZero, names: map[string]bool{},
				cfg: cfg, pkg: p, uses: use}
			g.floats, g.hidden = maybe(r, cfg.Floats), maybe(r, cfg.Hidden)
			for _, e := range append(slices.Clone(earlier), group...) {
				g.foreign = append(g.foreign, e.exports...)
				g.foreignScalars = append(g.foreignScalars, e.scalarExports...)
			}
			if vi == 0 {
				for j := i; j < min(cfg.Kinds, i+cfg.KindsPerPackage); j++ {
					k := g.kind(fmt.Sprintf("%s%d", title(pick(r, kindWords)), j))
					k.Pkg = p
					if g.maybe(cfg.Selectable) {
						k.Type.Selectable = g.selectable(k.Type)
					}
					p.Kinds = append(p.Kinds, k)
				}
			} else {
				for _, pk := range group[vi-1].pkg.Kinds {
					k := g.laterKind(pk)
					k.Pkg = p
					p.Kinds = append(p.Kinds, k)
				}
			}
			api.Packages = append(api.Packages, p)
			group = append(group, g)
		}
		if len(versions) > 1 {
			// one storage version, and perhaps another left out
			storage := r.IntN(len(versions))
			for _, k := range group[storage].pkg.Kinds {
				k.Type.Storage = true
			}
			if skip := r.IntN(len(versions)); skip != storage && r.Float64() < 0.3 {
				group[skip].pkg.SkipVersion = true
			}
		}
		earlier = append(earlier, group...)
	}
	api.Options = use.options(r, cfg.Options)
	return api
}

// uses records the shapes that need a crd option.
type uses struct {
	floats, hidden bool
}

// options are the crd options the API needs, and others with probability p
// each.
func (u *uses) options(r *rand.Rand, p float64) []string {
	var out []string
	if u.floats || maybe(r, p) {
		out = append(out, "allowDangerousTypes=true")
	}
	if u.hidden || maybe(r, p) {
		out = append(out, "ignoreUnexportedFields=true")
	}
	if maybe(r, p) {
		out = append(out, "generateEmbeddedObjectMeta=true")
	}
	if maybe(r, p) {
		out = append(out, fmt.Sprintf("maxDescLen=%d", pick(r, []int{0, 10, 40, 80})))
	}
	return out
}

// maybe is r's chance p, which draws nothing when p is 0: a shape off
// leaves the random sequence of the others as it was.
func maybe(r *rand.Rand, p float64) bool { return p > 0 && r.Float64() < p }

// gen generates the types of one package.
type gen struct {
	r        *rand.Rand
	maxDepth int
	zero     float64         // Config.ZeroDefaults
	isZero   float64         // Config.IsZero
	names    map[string]bool // declared type names
	scalars  []*Named        // named scalars, for reuse
	structs  []*Named        // structs that may be reused

	cfg  Config
	pkg  *Package
	uses *uses
	// floats and hidden say whether the package has floats and hidden
	// fields (Config.Floats, Config.Hidden).
	floats, hidden bool
	// aliased are the aliases of structs declared here, for reuse.
	aliased []*Type
	// exports and scalarExports are the structs and named scalars other
	// packages may use, with their aliases; foreign and foreignScalars
	// are those of the earlier packages (Config.Shared).
	exports, scalarExports  []*Type
	foreign, foreignScalars []*Type
	// encoded are the types with their own encoding declared here.
	encoded []*Named
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) maybe(p float64) bool { return maybe(g.r, p) }

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
	root := &Named{Name: name, Root: true, Pkg: g.pkg}
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

// laterKind is pk in a later version of its group: its spec and status
// are pk's types, used directly, through an alias of them here or through
// a defined type (type ShipSpec v1alpha1.ShipSpec), or types of its own.
// Its selectable fields are pk's when it shares pk's types.
func (g *gen) laterKind(pk *Kind) *Kind {
	name := pk.Name
	g.names[name], g.names[name+"List"] = true, true
	root := &Named{Name: name, Root: true, Pkg: g.pkg, StatusSubresource: pk.Type.StatusSubresource}
	shared := true
	for _, pf := range pk.Type.Fields {
		f := &Field{Name: pf.Name, JSON: pf.JSON, Marker: pf.Marker, Omit: pf.Omit}
		t := &Type{Kind: NamedType, Named: pf.Type.Named, Via: pf.Type.Via}
		switch r := g.r.IntN(100); {
		case r < 20:
			t = namedT(g.newStruct(name+pf.Name, 1))
			shared = false
		case g.maybe(g.cfg.Aliases * 3):
			t = g.aliasT(t, g.maybe(g.cfg.Defined))
			// no doc: it would be the property's description in this
			// version only
			t.Via.Doc = ""
		}
		f.Type = t
		root.Fields = append(root.Fields, f)
	}
	if shared {
		// Versions of one schema have the same selectable fields; versions
		// of two do not: the apiserver takes selectable fields the same in
		// every version for the CRD's, and then refuses them without one
		// schema for all (controller-gen writes such a CRD).
		root.Selectable = pk.Type.Selectable
	}
	return &Kind{Name: name, Type: root}
}

// aliasT declares an alias of t here, or a defined type when defined and
// t's type allows it (the same schema and the same encoding/json
// behaviour: no methods, no type-level default), and returns t through it.
func (g *gen) aliasT(t *Type, defined bool) *Type {
	n := t.Named
	if n.IsZeroField != nil || n.Default != nil || n.Encoding != "" || n.EmbeddedResource {
		defined = false
	}
	base := n.Name
	if t.Via != nil {
		base = t.Via.Name
	}
	if t.Via != nil && t.Via.Pkg == g.pkg || n.Pkg == g.pkg && t.Via == nil {
		base += pick(g.r, []string{"Ref", "Alias", "Type"})
	}
	a := &Named{Name: g.typeName(base), Pkg: g.pkg, AliasOf: t, Defined: defined, Doc: g.doc()}
	return &Type{Kind: NamedType, Named: n, Via: a}
}

// selectable picks one or two scalar fields of root's spec or status for
// +kubebuilder:selectablefield, or none.
func (g *gen) selectable(root *Named) []string {
	var cands []string
	for _, rf := range root.Fields {
		for _, f := range rf.Type.Named.Fields {
			switch f.Type.scalar() {
			case "string", "int32", "int64", "bool":
				if !f.Embedded {
					cands = append(cands, "."+rf.JSON+"."+f.JSON)
				}
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	g.r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	return cands[:min(len(cands), 1+g.r.IntN(2))]
}

// doc is a doc comment, or "" (Config.Docs).
func (g *gen) doc() string {
	if !g.maybe(g.cfg.Docs) {
		return ""
	}
	var w []string
	for range 3 + g.r.IntN(14) {
		w = append(w, pick(g.r, append(fieldWords, valueWords...)))
	}
	s := title(strings.Join(w, " ")) + "."
	if g.chance(0.3) {
		s += "\n" + title(pick(g.r, valueWords)) + " is the " + pick(g.r, fieldWords) + "."
	}
	return s
}

// newStruct declares a struct at depth (1 for spec and status) with 1 to 6
// fields.
func (g *gen) newStruct(name string, depth int) *Named {
	n := &Named{Name: g.typeName(name), height: 1, Pkg: g.pkg}
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
	n.Doc = g.doc()
	n.ImplicitOff = g.maybe(g.cfg.TypeImplicitOff)
	if g.hidden && g.chance(0.1) {
		// an unexported field: untagged, which controller-gen refuses
		// without crd:ignoreUnexportedFields=true, or tagged json:"-"
		decl := fmt.Sprintf("%sHidden %s", pick(g.r, fieldWords), g.basic())
		if g.chance(0.5) {
			decl += " `json:\"-\"`"
		} else {
			g.uses.hidden = true
		}
		n.Hidden = append(n.Hidden, decl)
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
		f.Doc = g.doc()
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
	inner := &Named{Name: g.typeName(title(pick(g.r, fieldWords)) + "Inline"), height: 1, Pkg: g.pkg}
	for range 1 + g.r.IntN(3) {
		w := pick(g.r, fieldWords)
		for i := 2; used[w]; i++ {
			w = fmt.Sprintf("%s%d", pick(g.r, fieldWords), i)
		}
		used[w] = true
		f := &Field{Name: title(w), JSON: w, Marker: "optional", Type: basicT(g.basic())}
		if g.chance(0.5) {
			f.Type = g.scalarT()
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
	t := namedT(inner)
	if g.maybe(g.cfg.Aliases) {
		t = g.aliasT(t, false) // embedded through an alias: the field is named after it
	}
	return &Field{Name: t.Via.nameOr(inner), Type: pointerT(t), Embedded: true}
}

// nameOr is n's name, or other's when n is nil.
func (n *Named) nameOr(other *Named) string {
	if n == nil {
		return other.Name
	}
	return n.Name
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
	f := &Field{Marker: g.marker(), Optional: g.pkg.Optional}
	if g.maybe(g.cfg.Encoded) {
		g.encodedField(f)
		return f
	}
	if g.maybe(g.cfg.EmbeddedResources) {
		g.embeddedResource(f, depth)
		return f
	}
	switch r := g.r.IntN(100); {
	case r < 30:
		f.Type = basicT(g.basic())
		g.scalarField(f)
	case r < 45:
		f.Type = g.scalarT()
		g.scalarField(f)
	case r < 46:
		f.Type = &Type{Kind: ExternalType, Basic: pick(g.r, []string{rawExtension, apiextJSON})}
		g.externalField(f)
	case r < 50:
		f.Type = pointerT(g.scalarElem())
		g.nullableField(f, 0.3)
	case r < 62 && !deep:
		f.Type = g.structT(depth+1, false)
		g.structField(f)
	case r < 72 && !deep:
		f.Type = pointerT(g.structT(depth+1, true))
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
			f.Type = sliceT(g.structT(depth+1, false))
		}
		g.nullableField(f, 0.15)
	case r < 100:
		var elem *Type
		if !deep && g.chance(0.4) {
			elem = g.structT(depth+1, false)
		} else {
			elem = g.scalarElem()
		}
		if elem.Via != nil && !elem.Via.Defined && elem.scalar() != "" {
			// controller-gen v0.23.0's object generator fails on a map
			// whose values are an alias of a named scalar ("invalid map
			// value type: string"), and panics on an alias of such an
			// alias in another package: the scalar itself
			elem = &Type{Kind: NamedType, Named: elem.Named}
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
	if g.floats && g.chance(0.04) {
		g.uses.floats = true
		return pick(g.r, []string{"float32", "float64"})
	}
	return pick(g.r, []string{"string", "string", "int32", "int64", "bool"})
}

// scalarElem is a list item or map value scalar: basic or named.
func (g *gen) scalarElem() *Type {
	if g.chance(0.5) {
		return g.scalarT()
	}
	return basicT(g.basic())
}

// scalarT is a named scalar, new or reused (scalarType), or one of an
// earlier package (Config.Shared), perhaps through an alias.
func (g *gen) scalarT() *Type {
	var t *Type
	if len(g.foreignScalars) > 0 && g.maybe(g.cfg.Shared) {
		f := pick(g.r, g.foreignScalars)
		t = &Type{Kind: NamedType, Named: f.Named, Via: f.Via}
	} else {
		t = namedT(g.scalarType())
	}
	if g.maybe(g.cfg.Aliases) {
		t = g.aliasT(t, g.maybe(g.cfg.Defined))
		g.scalarExports = append(g.scalarExports, t)
	}
	return t
}

// structT is a struct for a field at depth (structType), or one of an
// earlier package (Config.Shared), or an alias of a struct of this
// package, and perhaps an alias of that.
func (g *gen) structT(depth int, pointer bool) *Type {
	fits := func(s *Named) bool { return s.height <= g.maxDepth-depth+1 && (pointer || !s.pointerOnly) }
	var t *Type
	var cands []*Type
	if g.maybe(g.cfg.Shared) {
		cands = g.foreign
	} else if g.maybe(g.cfg.Aliases) {
		cands = g.aliased
	}
	cands = slices.DeleteFunc(slices.Clone(cands), func(t *Type) bool { return !fits(t.Named) })
	if len(cands) > 0 {
		c := pick(g.r, cands)
		t = &Type{Kind: NamedType, Named: c.Named, Via: c.Via}
	} else {
		t = namedT(g.structType(depth, pointer))
	}
	if g.maybe(g.cfg.Aliases) {
		t = g.aliasT(t, g.maybe(g.cfg.Defined))
		g.aliased = append(g.aliased, t)
		g.exports = append(g.exports, t)
	}
	return t
}

// scalarType returns a named scalar, new or reused.
func (g *gen) scalarType() *Named {
	if len(g.scalars) > 0 && g.chance(0.4) {
		return pick(g.r, g.scalars)
	}
	b := g.basic()
	n := &Named{Basic: b, Pkg: g.pkg}
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
	case "float32", "float64":
		n.Name = g.typeName(title(pick(g.r, fieldWords)) + "Ratio")
	default:
		n.Name = g.typeName(title(pick(g.r, fieldWords)) + "Flag")
	}
	if g.chance(0.4) {
		n.Default = g.scalarValue(b, n.Enum, n.MinLength, n.Minimum, g.chance(g.zero))
	}
	n.Doc = g.doc()
	g.scalars = append(g.scalars, n)
	g.scalarExports = append(g.scalarExports, namedT(n))
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
	g.exports = append(g.exports, namedT(s))
	return s
}

// listMapItem is a new struct with a required string key "name".
func (g *gen) listMapItem(depth int) *Named {
	key := &Field{Name: "Name", JSON: "name", Type: basicT("string")}
	if g.chance(0.8) || g.pkg.Optional {
		key.Marker = "required"
	}
	n := &Named{Name: g.typeName(title(pick(g.r, fieldWords)) + "Entry"), Fields: []*Field{key}, height: 1, mapKey: true, Pkg: g.pkg}
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

// encodedField makes f's type one with its own encoding (a duration, a
// level, a schema-less object, new or reused, perhaps through an alias) or
// intstr.IntOrString, a pointer or not, and sets its tags, markers and
// default: a +kubebuilder:default literal (or +default) as the author
// writes it, on a field that Go clients leave out at its zero value (a
// pointer, omitzero, or omitempty on a level).
func (g *gen) encodedField(f *Field) {
	enc := pick(g.r, []string{encDuration, encDuration, encText, encObject, "intstr"})
	if enc == "intstr" {
		f.Type = &Type{Kind: IntOrStringType}
		f.IntOrString = g.chance(0.5)
	} else {
		var n *Named
		var reuse []*Named
		for _, e := range g.encoded {
			if e.Encoding == enc {
				reuse = append(reuse, e)
			}
		}
		if len(reuse) > 0 && g.chance(0.5) {
			n = pick(g.r, reuse)
		} else {
			n = g.encodedType(enc)
		}
		f.Type = namedT(n)
		if g.maybe(g.cfg.Aliases) {
			f.Type = g.aliasT(f.Type, false) // a defined type would lose the methods
		}
		// A pattern needs a string schema at the field: Type and
		// Schemaless there, as karpenter writes them.
		f.Pattern = enc == encDuration && (!n.TypeMarkers || g.chance(0.3))
	}
	if g.chance(0.35) {
		f.Type = pointerT(f.Type)
		f.Omit = "omitempty"
	} else {
		f.Omit = pick(g.r, []string{"", "omitempty", "omitzero", "omitzero"})
	}
	leftOut := f.Type.Kind == PointerType || f.Omit == "omitzero" || enc == encText && f.Omit == "omitempty"
	if leftOut && g.chance(0.45) {
		f.Default = g.value(f.Type, f, false)
		f.Kubebuilder = g.chance(0.7) && looseOK(f.Default)
	}
}

// looseOK reports whether controller-tools reads v, written as JSON, as
// the value of +kubebuilder:default: its loose syntax takes JSON objects
// and scalars, but not JSON lists (it refuses [1,2] and {"a":[3,6]}, and
// reads {"a":["x"]} as the string "[\"x\"]").
func looseOK(v any) bool {
	switch v := v.(type) {
	case []any:
		return false
	case map[string]any:
		for _, x := range v {
			if !looseOK(x) {
				return false
			}
		}
	}
	return true
}

// encodedType declares a type with its own encoding, its Type (and
// Format, PreserveUnknownFields) markers on the type or on its fields.
func (g *gen) encodedType(enc string) *Named {
	base := map[string]string{encDuration: "Wait", encText: "Level", encObject: "Settings"}[enc]
	n := &Named{Name: g.typeName(title(pick(g.r, fieldWords)) + base), Pkg: g.pkg, Encoding: enc, height: 1}
	switch enc {
	case encDuration:
		n.TypeMarkers = g.chance(0.6)
		n.Format = g.chance(0.4)
	default:
		n.TypeMarkers = g.chance(0.5)
	}
	n.Doc = g.doc()
	g.encoded = append(g.encoded, n)
	return n
}

// embeddedResource makes f an embedded resource
// (+kubebuilder:validation:EmbeddedResource): a runtime.RawExtension
// (schema-less) or a new struct with TypeMeta and an ObjectMeta field, a
// pointer (omitempty) or not (omitzero, or a RawExtension with a default:
// encoding/json writes an empty one as null).
func (g *gen) embeddedResource(f *Field, depth int) {
	f.EmbeddedResource = true
	if depth >= g.maxDepth || g.chance(0.5) {
		f.Type = &Type{Kind: ExternalType, Basic: rawExtension}
	} else {
		n := &Named{Name: g.typeName(title(pick(g.r, fieldWords)) + "Template"), Pkg: g.pkg, EmbeddedResource: true, height: 1}
		g.fillStruct(n, depth+1, 1+g.r.IntN(3))
		n.Doc = g.doc()
		f.Type = namedT(n)
	}
	switch {
	case g.chance(0.5):
		f.Type = pointerT(f.Type)
		f.Omit = "omitempty"
	case f.Type.Kind == ExternalType && g.chance(0.5):
		f.Omit = pick(g.r, []string{"", "omitempty"})
		f.Default = g.value(f.Type, f, false)
	default:
		f.Omit = "omitzero"
	}
	if f.Default == nil && g.chance(0.3) {
		f.Default = g.value(f.Type, f, false)
	}
	f.Kubebuilder = f.Default != nil && (g.chance(0.7) || f.Type.structType() != nil) && looseOK(f.Default)
	if f.Type.structType() != nil && !f.Kubebuilder {
		// a +default on a non-pointer struct is {} or nothing
		// (struct-default-not-empty); +kubebuilder:default is a warning
		f.Default = nil
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
	if s.MinProperties || s.EmbeddedResource {
		return false // an embedded resource needs apiVersion and kind
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
		if f.Type.encoded() != nil || f.Type.Kind == IntOrStringType {
			return false // what Go writes for it is the type's own choice
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
	case "float32", "float64":
		return pick(g.r, []float64{0.5, 0.25, 1.5, 2, 12.75})
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
	case "float32", "float64":
		return float64(0)
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
	case float64:
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
		if f != nil && f.EmbeddedResource {
			v["apiVersion"], v["kind"] = "v1", "ConfigMap"
		}
		return v
	case IntOrStringType:
		if g.chance(0.5) {
			return int64(1 + g.r.IntN(9))
		}
		if f != nil && f.IntOrString {
			return pick(g.r, []string{"25%", "50%", "10%", "3"})
		}
		return pick(g.r, []string{"25%", "50%", "http", "alpha"})
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
	if n := t.encoded(); n != nil {
		// literals as authors write them, not as MarshalJSON does ("1h30m",
		// not "1h30m0s")
		switch n.Encoding {
		case encDuration:
			return pick(g.r, []string{"0s", "30s", "90s", "5m", "1h30m", "720h"})
		case encText:
			return fmt.Sprintf("L%d", g.r.IntN(10))
		default:
			return map[string]any{pick(g.r, valueWords): pick(g.r, valueWords)}
		}
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
	if s.EmbeddedResource {
		m["apiVersion"], m["kind"] = "v1", "ConfigMap"
	}
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

// Only returns a copy of the kind with the types it uses, alone in its
// package (with the packages that declare the types it uses from others):
// the starting point of shrinking a failure.
func (k *Kind) Only() *Kind {
	c := &cloner{named: map[*Named]*Named{}, fields: map[*Field]*Field{}}
	api := &API{}
	if k.Pkg.api != nil {
		api.Options = k.Pkg.api.Options
	}
	pkgs := map[*Package]*Package{}
	home := func(p *Package) *Package {
		if p == nil {
			return nil
		}
		if q, ok := pkgs[p]; ok {
			return q
		}
		q := *p
		q.Kinds, q.api = nil, api
		pkgs[p] = &q
		return &q
	}
	nk := &Kind{Name: k.Name, Type: c.namedType(k.Type), Pkg: home(k.Pkg)}
	nk.Pkg.Kinds = []*Kind{nk}
	for old, n := range c.named {
		n.Pkg = home(old.Pkg)
	}
	// in the order of the original API, which declares earlier packages
	// first
	var order []*Package
	if k.Pkg.api != nil {
		order = k.Pkg.api.Packages
	}
	for _, p := range order {
		if q, ok := pkgs[p]; ok {
			api.Packages = append(api.Packages, q)
			delete(pkgs, p)
		}
	}
	for _, q := range pkgs {
		api.Packages = append(api.Packages, q)
	}
	return nk
}

// API is the API the kind's package belongs to.
func (k *Kind) API() *API { return k.Pkg.api }

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
	if n.AliasOf != nil {
		cn.AliasOf = c.typ(n.AliasOf)
	}
	return cn
}

func (c *cloner) typ(t *Type) *Type {
	ct := *t
	if t.Named != nil {
		ct.Named = c.namedType(t.Named)
	}
	if t.Via != nil {
		ct.Via = c.namedType(t.Via)
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

// types lists the named types reachable from the kind, breadth-first:
// each field's type, after the aliases and defined types it goes through.
func (k *Kind) types() []*Named {
	seen := map[*Named]bool{k.Type: true}
	queue := []*Named{k.Type}
	var visit func(t *Type)
	visit = func(t *Type) {
		for t.Elem != nil {
			t = t.Elem
		}
		if v := t.Via; v != nil && !seen[v] {
			seen[v] = true
			queue = append(queue, v)
			visit(v.AliasOf)
		}
		if t.Named != nil && !seen[t.Named] {
			seen[t.Named] = true
			queue = append(queue, t.Named)
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, f := range queue[i].Fields {
			visit(f.Type)
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
	var markers strings.Builder
	if p.ImplicitOff {
		markers.WriteString("// +implicitDefaults=false\n")
	}
	if p.Optional {
		markers.WriteString("// +kubebuilder:validation:Optional\n")
	}
	return map[string][]byte{
		"doc.go": fmt.Appendf(nil, `// Package %s is a random API group version written by internal/testsupport/randapitest.
// +kubebuilder:object:generate=true
// +groupName=%s
%spackage %[1]s
`, p.Version, p.Group, markers.String()),
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

// declared lists the types p declares: those the kinds of its API reach
// (its own kinds first, in the order they reach them) whose package is p.
func (p *Package) declared() []*Named {
	kinds := slices.Clone(p.Kinds)
	if p.api != nil {
		for _, q := range p.api.Packages {
			if q != p {
				kinds = append(kinds, q.Kinds...)
			}
		}
	}
	var out []*Named
	done := map[*Named]bool{}
	for _, k := range kinds {
		for _, n := range k.types() {
			if !done[n] {
				done[n] = true
				if n.Pkg == nil || n.Pkg == p {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// imports are the packages the declarations of p use, beyond those every
// types.go imports, as import lines.
func (p *Package) imports(decl []*Named) []string {
	set := map[string]bool{}
	var ref func(t *Type)
	ref = func(t *Type) {
		switch t.Kind {
		case NamedType:
			n := t.Named
			if t.Via != nil {
				n = t.Via
			}
			if n.Pkg != nil && n.Pkg != p {
				set[fmt.Sprintf("%s %q", n.Pkg.importName(), n.Pkg.ImportPath())] = true
			}
		case IntOrStringType:
			set[`"k8s.io/apimachinery/pkg/util/intstr"`] = true
		}
		if t.Elem != nil {
			ref(t.Elem)
		}
	}
	for _, n := range decl {
		if n.AliasOf != nil {
			ref(n.AliasOf)
		}
		for _, f := range n.Fields {
			ref(f.Type)
		}
		switch n.Encoding {
		case encDuration:
			set[`gojson "encoding/json"`], set[`gotime "time"`] = true, true
		case encText:
			set[`gostrconv "strconv"`] = true
		case encObject:
			set[`gojson "encoding/json"`] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TypesSource is the gofmt'ed source of the package's types: each kind, its
// list, and the types it uses, in the order the kinds reach them.
func (p *Package) TypesSource() ([]byte, error) {
	decl := p.declared()
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\nimport (\n"+
		"apiext \"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1\"\n"+
		"metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n"+
		"kruntime \"k8s.io/apimachinery/pkg/runtime\"\n", p.Version)
	for _, imp := range p.imports(decl) {
		b.WriteString(imp + "\n")
	}
	b.WriteString(")\n\nvar _ kruntime.RawExtension\nvar _ apiext.JSON\n")
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
	for _, n := range decl {
		writeType(&b, n, p)
		if n.Root {
			fmt.Fprintf(&b, "\n// +kubebuilder:object:root=true\ntype %sList struct {\n"+
				"metav1.TypeMeta `json:\",inline\"`\nmetav1.ListMeta `json:\"metadata,omitempty\"`\nItems []%[1]s `json:\"items\"`\n}\n", n.Name)
		}
	}
	b.WriteString("\nfunc init() {\n")
	for _, k := range p.Kinds {
		fmt.Fprintf(&b, "SchemeBuilder.Register(&%s{}, &%[1]sList{})\n", k.Name)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("randapi: generated source does not parse: %w\n%s", err, b.Bytes())
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

// writeDoc writes a doc comment.
func writeDoc(b *bytes.Buffer, doc string) {
	if doc == "" {
		return
	}
	for _, l := range strings.Split(doc, "\n") {
		fmt.Fprintf(b, "// %s\n", l)
	}
}

func writeType(b *bytes.Buffer, n *Named, p *Package) {
	b.WriteString("\n")
	writeDoc(b, n.Doc)
	if n.AliasOf != nil {
		if n.Defined {
			fmt.Fprintf(b, "type %s %s\n", n.Name, n.AliasOf.src(p))
		} else {
			fmt.Fprintf(b, "type %s = %s\n", n.Name, n.AliasOf.src(p))
		}
		return
	}
	if n.Encoding != "" {
		writeEncoded(b, n)
		return
	}
	if n.Root {
		// controller-gen refuses the subresource and selectable fields of
		// a version it skips (the subresource, depending on map order)
		skip := n.Pkg != nil && n.Pkg.SkipVersion
		b.WriteString("// +kubebuilder:object:root=true\n")
		if n.StatusSubresource && hasField(n, "status") && !skip {
			b.WriteString("// +kubebuilder:subresource:status\n")
		}
		if n.Storage {
			b.WriteString("// +kubebuilder:storageversion\n")
		}
		if skip {
			b.WriteString("// +kubebuilder:skipversion\n") // a type marker
		}
		for _, s := range n.Selectable {
			if !skip {
				fmt.Fprintf(b, "// +kubebuilder:selectablefield:JSONPath=`%s`\n", s)
			}
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
	if n.ImplicitOff {
		b.WriteString("// +implicitDefaults=false\n")
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
	switch {
	case n.Root:
		b.WriteString("metav1.TypeMeta `json:\",inline\"`\nmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n")
	case n.EmbeddedResource:
		// ObjectMeta as a field, not embedded: embedded, controller-gen
		// would take the type for a kind
		b.WriteString("metav1.TypeMeta `json:\",inline\"`\nMetadata metav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n")
	}
	for _, f := range n.Fields {
		writeField(b, f, p)
	}
	for _, h := range n.Hidden {
		b.WriteString(h + "\n")
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

func writeField(b *bytes.Buffer, f *Field, p *Package) {
	if f.Embedded {
		fmt.Fprintf(b, "%s `json:\",inline\"`\n", f.Type.src(p))
		return
	}
	writeDoc(b, f.Doc)
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
	if n := f.Type.encoded(); n != nil {
		switch {
		case n.Encoding == encDuration && (!n.TypeMarkers || f.Pattern):
			b.WriteString("// +kubebuilder:validation:Type=string\n// +kubebuilder:validation:Schemaless\n")
			if n.Format {
				b.WriteString("// +kubebuilder:validation:Format=duration\n")
			}
			if f.Pattern {
				b.WriteString("// +kubebuilder:validation:Pattern=`^([0-9]+(s|m|h))+$`\n")
			}
		case n.Encoding == encObject && !n.TypeMarkers:
			b.WriteString("// +kubebuilder:validation:Schemaless\n// +kubebuilder:validation:Type=object\n// +kubebuilder:pruning:PreserveUnknownFields\n")
		}
	}
	if f.IntOrString {
		b.WriteString("// +kubebuilder:validation:XIntOrString\n// +kubebuilder:validation:Pattern=`^([0-9]+|[0-9]+%)$`\n")
	}
	if f.EmbeddedResource {
		b.WriteString("// +kubebuilder:validation:EmbeddedResource\n")
		if f.Type.structType() == nil && (f.Type.Kind != PointerType || f.Type.Elem.structType() == nil) {
			b.WriteString("// +kubebuilder:pruning:PreserveUnknownFields\n")
		}
	}
	tag := f.JSON
	if f.Omit != "" {
		tag += "," + f.Omit
	}
	fmt.Fprintf(b, "%s %s `json:%q`\n", f.Name, f.Type.src(p), tag)
}

// writeEncoded writes a type with its own encoding and its methods (the
// harness fills it with values its schema allows).
func writeEncoded(b *bytes.Buffer, n *Named) {
	switch n.Encoding {
	case encDuration:
		if n.TypeMarkers {
			b.WriteString("// +kubebuilder:validation:Type=string\n")
			if n.Format {
				b.WriteString("// +kubebuilder:validation:Format=duration\n")
			}
		}
		fmt.Fprintf(b, `type %[1]s struct {
	gotime.Duration `+"`json:\"-\"`"+`
}

// MarshalJSON writes the duration as a string, as time.Duration's String does.
func (d %[1]s) MarshalJSON() ([]byte, error) { return gojson.Marshal(d.Duration.String()) }

// UnmarshalJSON reads a duration string.
func (d *%[1]s) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := gojson.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := gotime.ParseDuration(s)
	d.Duration = v
	return err
}
`, n.Name)
	case encText:
		if n.TypeMarkers {
			b.WriteString("// +kubebuilder:validation:Type=string\n")
		}
		fmt.Fprintf(b, `type %[1]s int32

// MarshalText writes L and the level.
func (l %[1]s) MarshalText() ([]byte, error) { return []byte("L" + gostrconv.Itoa(int(l))), nil }

// UnmarshalText reads L and a level.
func (l *%[1]s) UnmarshalText(b []byte) error {
	if len(b) < 2 || b[0] != 'L' {
		return gostrconv.ErrSyntax
	}
	v, err := gostrconv.Atoi(string(b[1:]))
	*l = %[1]s(v)
	return err
}
`, n.Name)
	default:
		if n.TypeMarkers {
			b.WriteString("// +kubebuilder:validation:Type=object\n// +kubebuilder:pruning:PreserveUnknownFields\n")
		}
		fmt.Fprintf(b, `type %[1]s struct {
	Values map[string]string `+"`json:\"-\"`"+`
}

// MarshalJSON writes the values as an object.
func (s %[1]s) MarshalJSON() ([]byte, error) {
	if s.Values == nil {
		return []byte("{}"), nil
	}
	return gojson.Marshal(s.Values)
}

// UnmarshalJSON reads an object of strings.
func (s *%[1]s) UnmarshalJSON(b []byte) error {
	s.Values = nil
	if string(b) == "null" {
		return nil
	}
	return gojson.Unmarshal(b, &s.Values)
}
`, n.Name)
	}
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
	if s.EmbeddedResource {
		out["apiVersion"], out["kind"] = m["apiVersion"], m["kind"]
	}
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

// Kinds returns every kind of the API in the versions of its CRDs (not in
// a version left out with +kubebuilder:skipversion), sorted by name, then
// by key.
func (a *API) Kinds() []*Kind {
	var out []*Kind
	for _, p := range a.Packages {
		if !p.SkipVersion {
			out = append(out, p.Kinds...)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Key() < out[j].Key()
	})
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
