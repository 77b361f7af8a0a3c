// Package defaultgen is the `defaults` generator: from the same +default
// markers as the crd generator, it writes zz_generated.defaults.go in each
// API package, with SetObjectDefaults_<Kind> functions, RegisterDefaults
// for a runtime.Scheme, and a controller-runtime CustomDefaulter. Go
// clients and webhooks then see objects defaulted as the apiserver stores
// them (KEP-1929's rule of thumb).
//
// Semantics follow k8s.io/code-generator's defaulter-gen for +default: a
// field at its Go zero value (nil for pointers, slices and maps) gets the
// default, top-down, then the defaulted value is walked for nested
// defaults. The one difference: a type-level default on a non-pointer list
// item or map value is not applied, because encoding/json never writes such
// an item as null, so the apiserver never defaults it either (see the
// README).
package defaultgen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"io"
	"path"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/internal/decision"
	"github.com/controller-gen-default/controller-gen-default/internal/engine"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// Generator writes Go defaulting functions from +default markers.
type Generator struct {
	// HeaderFile specifies the header text (e.g. license) to prepend to generated files.
	HeaderFile string `marker:",optional"`
	// Year specifies the year to substitute for " YEAR" in the header file.
	Year string `marker:",optional"`
	// ImplicitDefaults must be the crd generator's implicitDefaults: the
	// Go defaulter follows the CRD's decisions. Default true.
	ImplicitDefaults *bool `marker:",optional"`
	// AllowDangerousTypes must be the crd generator's allowDangerousTypes
	// where the API has float fields. Default false.
	AllowDangerousTypes *bool `marker:",optional"`
	// AllFindings lists every finding of the decisions, warnings included,
	// one by one, as crd:allFindings=true does. Default false: only
	// errors, which are always listed (the warnings are about the CRD, and
	// the crd generator reports them).
	AllFindings *bool `marker:",optional"`

	// withCRD is set when a crd generator runs in the same invocation
	// (WithCRD).
	withCRD bool
	// session is the work shared with the crd generator of the same run
	// (WithSession); nil for a session of each Generate's own.
	session *crdgen.Session
}

// WithSession is g sharing s with the crd generator of its run: g reads
// the decisions of crd's build, and each finding is printed once, to
// s.Diagnostics.
func (g Generator) WithSession(s *crdgen.Session) Generator {
	g.session = s
	return g
}

// WithCRD is g as it runs beside the crd generator c in one invocation:
// implicitDefaults and allowDangerousTypes, which must be crd's, are
// taken from c where g does not set them, so that `defaults
// crd:allowDangerousTypes=true` works as crd's own message says, and the
// two generators read one build.
func (g Generator) WithCRD(c crdgen.Generator) Generator {
	if g.ImplicitDefaults == nil {
		g.ImplicitDefaults = c.ImplicitDefaults
	}
	if g.AllowDangerousTypes == nil {
		g.AllowDangerousTypes = c.AllowDangerousTypes
	}
	g.withCRD = true
	return g
}

// Help describes the generator for `-h`.
func (Generator) Help() *ctmarkers.DefinitionHelp {
	return &ctmarkers.DefinitionHelp{
		DetailedHelp: ctmarkers.DetailedHelp{
			Summary: "generates Go defaulting functions (zz_generated.defaults.go) from +default markers.",
			Details: "SetObjectDefaults_<Kind>, RegisterDefaults(scheme) and a DeclarativeDefaulter for controller-runtime webhooks.",
		},
		FieldHelp: map[string]ctmarkers.DetailedHelp{
			"HeaderFile": {Summary: "specifies the header text (e.g. license) to prepend to generated files."},
			"Year":       {Summary: "specifies the year to substitute for \" YEAR\" in the header file."},
			"ImplicitDefaults": {Summary: "must be the crd generator's implicitDefaults: the Go defaulter follows the CRD's decisions.",
				Details: "Default true."},
			"AllowDangerousTypes": {Summary: "must be the crd generator's allowDangerousTypes where the API has float fields."},
			"AllFindings": {Summary: "lists every finding of the decisions, warnings included, one by one, as crd:allFindings=true does.",
				Details: "Default false: only errors, which are always listed."},
		},
	}
}

// RegisterMarkers registers the crd generator's markers: the defaults are
// the CRD's.
func (Generator) RegisterMarkers(into *ctmarkers.Registry) error {
	return crdgen.Generator{}.RegisterMarkers(into)
}

// CheckFilter asks genall for type-checked packages, with the crd
// generator's filter.
func (Generator) CheckFilter() loader.NodeFilter { return model.CheckFilter() }

// Generate writes zz_generated.defaults.go for every root package that
// declares a kind. It reads the crd generator's decisions (engine.Decide):
// the Go defaulter applies exactly the defaults the CRD carries. An error
// in a marker is reported at its position, and nothing is written.
// Without a session (WithSession), g builds the decisions itself.
func (g Generator) Generate(ctx *genall.GenerationContext) error {
	header, err := crdgen.Header(ctx, g.HeaderFile, g.Year)
	if err != nil {
		return err
	}
	s := g.session
	if s == nil {
		s = &crdgen.Session{} // shares nothing
	}
	dec, err := engine.Decide(s, ctx, engine.Options{
		ImplicitDefaults:    g.ImplicitDefaults == nil || *g.ImplicitDefaults,
		AllowDangerousTypes: g.AllowDangerousTypes != nil && *g.AllowDangerousTypes,
	})
	if !g.withCRD {
		dangerousTypesFix(ctx.Roots)
	}
	if err != nil {
		return fmt.Errorf("defaults: %w", err)
	}
	if dec == nil {
		return nil
	}
	// Warnings are about the CRD, and the crd generator reports them,
	// unless every finding is asked for here.
	report := dec.Findings.ReportErrors
	if g.AllFindings != nil && *g.AllFindings {
		report = func(w io.Writer) bool {
			return dec.Findings.Report(w, model.ReportOptions{All: true, Hint: "defaults:allFindings=true"})
		}
	}
	if report(s.Output()) {
		return fmt.Errorf("defaults: errors in defaults; no file was written")
	}
	skipped := model.NewDiagnostics()
	defer skipped.Report(s.Output(), model.ReportOptions{All: true})
	for _, root := range ctx.Roots {
		fg := newFileGen(dec.Model, root)
		src, err := fg.generate(header, dec.Kinds)
		for _, w := range fg.warnings {
			skipped.Add(w)
		}
		if err != nil {
			return err
		}
		if src == nil {
			continue
		}
		w, err := ctx.Open(root, generatedFile)
		if err != nil {
			return err
		}
		_, werr := w.Write(src)
		if cerr := w.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	return nil
}

// crdDangerousFix and defaultsDangerousFix end the error of
// controller-tools' schema parser about a float field.
const (
	crdDangerousFix      = "re-run with crd:allowDangerousTypes=true"
	defaultsDangerousFix = "re-run with defaults:allowDangerousTypes=true"
)

// dangerousTypesFix makes the error of controller-tools' schema parser
// about a float field name the option that fixes it when defaults runs
// without crd: the parser says crd:allowDangerousTypes=true, which would
// add the crd generator to the run and leave defaults' own build
// (AllowDangerousTypes) as it was. The errors are the packages', which
// genall prints after every generator has run.
func dangerousTypesFix(roots []*loader.Package) {
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for i := range p.Errors {
			p.Errors[i].Msg = strings.ReplaceAll(p.Errors[i].Msg, crdDangerousFix, defaultsDangerousFix)
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	for _, r := range roots {
		visit(r)
	}
}

// fileGen writes the defaulting code of one package.
type fileGen struct {
	m       *decision.Model
	pkg     *loader.Package
	imports map[string]string      // path -> name
	decls   map[string]declaration // the package's, but in generatedFile
	names   map[string]bool        // declared by the generated file
	state   map[*types.Named]int   // needs(): 1 in progress, 2 yes, 3 no
	helpers map[*types.Named]string
	order   []*types.Named
	body    map[*types.Named]string
	depth   int // of the loop being written, in its function
	// ptr is the name of the pointer helper (ptrName), usesPtr whether
	// the code calls it; errs are defaults that cannot be written here.
	ptr     string
	usesPtr bool
	errs    []string
	// warnings are the defaults left unset (ownEncodingSkipped).
	warnings []model.Finding
}

func newFileGen(m *decision.Model, pkg *loader.Package) *fileGen {
	return &fileGen{
		m: m, pkg: pkg,
		imports: map[string]string{},
		decls:   declarations(pkg),
		names:   map[string]bool{},
		state:   map[*types.Named]int{},
		helpers: map[*types.Named]string{},
		body:    map[*types.Named]string{},
	}
}

// kind is a root object type of the package, and its list type if any.
type kind struct {
	name, list string
	typ        *types.Named
}

// names are the kind's type and its list's, which have a
// SetObjectDefaults_ function each.
func (k kind) names() []string {
	if k.list == "" {
		return []string{k.name}
	}
	return []string{k.name, k.list}
}

// generate writes the file: header, package clause, imports, then
// RegisterDefaults, SetObjectDefaults_<Kind>, DeclarativeDefaulter and the
// helpers. The file is written in one style: each section by fmt.Fprintf
// into one buffer, from statements that the walk builds with fmt.Sprintf
// (walk.go); the imports are written last, when the code has named them.
func (fg *fileGen) generate(header string, roots []crd.TypeIdent) ([]byte, error) {
	kinds := fg.kinds(roots)
	if len(kinds) == 0 {
		return nil, nil
	}
	fg.claim("RegisterDefaults", "the function that adds this package's defaulting functions to a runtime.Scheme")
	fg.claim("DeclarativeDefaulter", "the controller-runtime CustomDefaulter of this package's kinds")
	for _, k := range kinds {
		fg.claim("SetObjectDefaults_"+k.name, "the defaulting function of the kind "+k.name)
		if k.list != "" {
			fg.claim("SetObjectDefaults_"+k.list, "the defaulting function of "+k.list)
		}
	}
	for _, k := range kinds {
		fg.helper(k.typ)
	}

	var code bytes.Buffer
	fg.writeRegister(&code, kinds)
	fg.writeObjectDefaults(&code, kinds)
	fg.writeDefaulter(&code, kinds)
	fg.writeHelpers(&code)
	if len(fg.errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(fg.errs, "\n"))
	}

	var b bytes.Buffer
	if header != "" {
		// a blank line after the header, whether or not it ends in a newline,
		// as controller-gen's object generator writes it
		fmt.Fprintf(&b, "%s\n\n", strings.TrimRight(header, "\n"))
	}
	fmt.Fprintf(&b, "// Code generated by controller-gen-default. DO NOT EDIT.\n\npackage %s\n\n", fg.pkg.Name)
	fg.writeImports(&b)
	b.Write(code.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: formatting generated code: %w\n%s", fg.pkg.PkgPath, err, b.String())
	}
	return src, nil
}

// writeRegister writes RegisterDefaults.
func (fg *fileGen) writeRegister(w io.Writer, kinds []kind) {
	fmt.Fprintf(w, "// RegisterDefaults adds the declarative defaulting functions of this package's\n"+
		"// kinds to the given scheme, so that scheme.Default(obj) applies them.\n"+
		"func RegisterDefaults(scheme *%s.Scheme) error {\n", fg.importName("k8s.io/apimachinery/pkg/runtime", "runtime"))
	for _, k := range kinds {
		for _, name := range k.names() {
			fmt.Fprintf(w, "\tscheme.AddTypeDefaultingFunc(&%s{}, func(obj interface{}) { SetObjectDefaults_%[1]s(obj.(*%[1]s)) })\n", name)
		}
	}
	fmt.Fprintf(w, "\treturn nil\n}\n\n")
}

// writeObjectDefaults writes SetObjectDefaults_<Kind> and
// SetObjectDefaults_<Kind>List.
func (fg *fileGen) writeObjectDefaults(w io.Writer, kinds []kind) {
	for _, k := range kinds {
		fmt.Fprintf(w, "// SetObjectDefaults_%s applies the +default markers of %[1]s, top-down.\nfunc SetObjectDefaults_%[1]s(in *%[1]s) {\n", k.name)
		if h, ok := fg.helpers[k.typ]; ok {
			fmt.Fprintf(w, "\t%s(in)\n", h)
		}
		fmt.Fprintf(w, "}\n\n")
		if k.list != "" {
			fmt.Fprintf(w, "// SetObjectDefaults_%s defaults every item.\nfunc SetObjectDefaults_%[1]s(in *%[1]s) {\n"+
				"\tfor i := range in.Items {\n\t\tSetObjectDefaults_%s(&in.Items[i])\n\t}\n}\n\n", k.list, k.name)
		}
	}
}

// writeDefaulter writes DeclarativeDefaulter.
func (fg *fileGen) writeDefaulter(w io.Writer, kinds []kind) {
	fmt.Fprintf(w, "// DeclarativeDefaulter applies the declarative defaults of this package's kinds.\n"+
		"// It is a controller-runtime admission.CustomDefaulter:\n//\n"+
		"//\tctrl.NewWebhookManagedBy(mgr, &Kind{}).WithCustomDefaulter(DeclarativeDefaulter{}).Complete()\n"+
		"type DeclarativeDefaulter struct{}\n\n"+
		"// Default applies SetObjectDefaults_<Kind> to obj.\n"+
		"func (DeclarativeDefaulter) Default(_ %s.Context, obj %s.Object) error {\n\tswitch o := obj.(type) {\n",
		fg.importName("context", "context"), fg.importName("k8s.io/apimachinery/pkg/runtime", "runtime"))
	for _, k := range kinds {
		for _, name := range k.names() {
			fmt.Fprintf(w, "\tcase *%s:\n\t\tSetObjectDefaults_%[1]s(o)\n", name)
		}
	}
	fmt.Fprintf(w, "\tdefault:\n\t\treturn %s.Errorf(\"no declarative defaults for %%T\", obj)\n\t}\n\treturn nil\n}\n",
		fg.importName("fmt", "fmt"))
}

// writeHelpers writes the unexported functions: a setDefaults_<Type> for
// each struct type below a kind that has defaults, in the order the kinds
// reach them, and the pointer helper when the code calls it.
func (fg *fileGen) writeHelpers(w io.Writer) {
	for _, n := range fg.order {
		if body, ok := fg.body[n]; ok {
			fmt.Fprintf(w, "\nfunc %s(in *%s) {\n%s}\n", fg.helpers[n], fg.qualify(n), body)
		}
	}
	if fg.usesPtr {
		fmt.Fprintf(w, "\n// %s returns a pointer to a new variable holding v.\nfunc %[1]s[T any](v T) *T { return &v }\n", fg.ptr)
	}
}

// writeImports writes the import block of the packages the code named,
// sorted by path, each under the name importName gave it.
func (fg *fileGen) writeImports(w io.Writer) {
	paths := make([]string, 0, len(fg.imports))
	for p := range fg.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fmt.Fprintf(w, "import (\n")
	for _, p := range paths {
		if name := fg.imports[p]; name != path.Base(p) {
			fmt.Fprintf(w, "\t%s %q\n", name, p)
		} else {
			fmt.Fprintf(w, "\t%q\n", p)
		}
	}
	fmt.Fprintf(w, ")\n\n")
}

// kinds lists the package's root object types, the crd generator's
// (engine.Decide), with the <Kind>List type that holds them.
func (fg *fileGen) kinds(roots []crd.TypeIdent) []kind {
	scope := fg.pkg.Types.Scope()
	var out []kind
	seen := map[string]bool{}
	for _, id := range roots {
		if id.Package.PkgPath != fg.pkg.PkgPath || seen[id.Name] {
			continue
		}
		seen[id.Name] = true
		tn, ok := scope.Lookup(id.Name).(*types.TypeName)
		if !ok {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		k := kind{name: id.Name, typ: n}
		if l, ok := scope.Lookup(id.Name + "List").(*types.TypeName); ok {
			if ln, ok := l.Type().(*types.Named); ok && embeds(ln, "TypeMeta") && embeds(ln, "ListMeta") {
				k.list = id.Name + "List"
			}
		}
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func embeds(n *types.Named, name string) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() && f.Name() == name {
			if fn, ok := f.Type().(*types.Named); ok && fn.Obj().Pkg() != nil &&
				fn.Obj().Pkg().Path() == "k8s.io/apimachinery/pkg/apis/meta/v1" {
				return true
			}
		}
	}
	return false
}
