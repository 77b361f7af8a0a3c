package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strings"
)

// editDefaulters is three passes over the project, as go/analysis passes
// are: findSetups reads what is there (the WithDefaulter calls, the files
// that do not parse), planDefaulters decides an outcome per setup (wired,
// skipped or reported, with its reason), and applyEdits makes the wired
// outcomes' insertions. Every line the plugin prints about a defaulter is
// the message of a reason, in reasonTable.

// A reason says what the plan does with a defaulter, and why.
type reason int

const (
	_ reason = iota
	// wired: Default now calls SetObjectDefaults_<Kind>.
	wired
	// skipOtherKind: not the kind the command is about (create webhook of
	// another kind).
	skipOtherKind
	// skipSeen: an earlier WithDefaulter passes a value of the same type.
	skipSeen
	// skipAlreadyCalls: Default already applies the declarative defaults.
	skipAlreadyCalls
	// notParsed: a file with WithDefaulter that does not parse.
	notParsed
	// unknownType: the source does not tell the type passed to
	// WithDefaulter.
	unknownType
	// noDefaultMethod: its package declares no Default method for the type.
	noDefaultMethod
	// foreignDefaulter: the type is of another module.
	foreignDefaulter
	// kindMismatch: Default defaults another kind than the builder's.
	kindMismatch
	// paramCount: Default does not take (ctx, obj).
	paramCount
	// unnamedObject: Default's object parameter has no name.
	unnamedObject
	// uncheckedAssert: Default type-asserts its object without `if !ok`.
	uncheckedAssert
	// noAssert: Default takes an interface that it does not type-assert.
	noAssert
	// foreignKind: the kind is of another module (a note).
	foreignKind
	// noRootType: the kind's package declares no root type of that name.
	noRootType
	// notFound: create webhook --defaulting, and no WithDefaulter of its
	// kind.
	notFound
	// markerUncovered: a mutating webhook marker that no WithDefaulter
	// accounts for.
	markerUncovered
	// markerNoSetup: the same, in a package without WithDefaulter.
	markerNoSetup
	// editUnparsable: the edited file would not parse.
	editUnparsable
	numReasons
)

// verdict is what an outcome does: edit, nothing, or print a message.
type verdict int

const (
	verdictWired verdict = iota
	verdictSkipped
	verdictReported
)

// outcome is the plan for one setup (or file, or marker): its reason and
// what the reason's message names.
type outcome struct {
	reason reason
	// at is where the message points: the Default method, the type, the
	// marker (file:line), or a file.
	at string
	// where is the WithDefaulter call (file:line), arg its argument.
	where, arg string
	// builder is the kind of the webhook builder, if builderKnown.
	builder      typeRef
	builderKnown bool
	// defaulter is the type passed to WithDefaulter; dm its Default method.
	defaulter typeRef
	dm        *defaultMethod
	// kind is the kind Default defaults; call the statement that applies
	// its declarative defaults (added, or to add by hand).
	kind typeRef
	call string
	// detail is a parse error's first line, or the module.
	detail string
	// resource and version are a marker's; version also create webhook's.
	resource, version string
	// accounts are the kinds this setup accounts for, for the marker check.
	accounts []typeRef
	// file, offset and text are the insertion of a wired outcome.
	file   string
	offset int
	text   string
}

func (o outcome) with(r reason) outcome {
	o.reason = r
	return o
}

// reasonInfo is a row of reasonTable.
type reasonInfo struct {
	name    string
	verdict verdict
	// message is the line printed (nil for the skipped reasons).
	message func(o *outcome) string
}

// reasonTable holds the verdict and the message of every reason.
var reasonTable = map[reason]reasonInfo{
	wired: {"wired", verdictWired, func(o *outcome) string {
		return fmt.Sprintf("%s: %s now calls %s, the declarative defaults of %s that `make generate` writes into %s/zz_generated.defaults.go",
			o.at, o.dm.name, o.call, o.kind.name, o.kind.dir)
	}},
	skipOtherKind:    {"other kind", verdictSkipped, nil},
	skipSeen:         {"seen", verdictSkipped, nil},
	skipAlreadyCalls: {"already calls", verdictSkipped, nil},
	notParsed: {"not parsed", verdictReported, func(o *outcome) string {
		return fmt.Sprintf("%s: warning: not edited, it does not parse (%s): its defaulting webhook is not wired to the declarative defaults; "+
			"once it parses, run `kubebuilder edit --plugins %s`, or add \"<pkg>.SetObjectDefaults_<Kind>(obj)\" as the first statement of its Default method", o.at, o.detail, pluginKey)
	}},
	unknownType: {"unknown type", verdictReported, func(o *outcome) string {
		return fmt.Sprintf("%s: warning: the defaulting webhook%s is not wired to the declarative defaults: the plugin cannot tell from the source which type WithDefaulter(%s) is "+
			"(it follows &T{}, T{}, new(T), variables and the module's constructors); add %q as the first statement of that type's Default method",
			o.where, o.ofKind(), o.arg, o.call)
	}},
	noDefaultMethod: {"no Default method", verdictReported, func(o *outcome) string {
		return o.noMethod("its package declares no Default method for it")
	}},
	foreignDefaulter: {"defaulter of another module", verdictReported, func(o *outcome) string {
		return o.noMethod(o.defaulter.importPath + " is not a package of this module")
	}},
	kindMismatch: {"kind mismatch", verdictReported, func(o *outcome) string {
		return fmt.Sprintf("%s: warning: %s is not wired to the declarative defaults: it defaults a %s.%s, but WithDefaulter at %s registers it for %s.%s; "+
			"make them agree, then run `kubebuilder edit --plugins %s`", o.at, o.dm.name, o.dm.kind.importPath, o.dm.kind.name, o.where, o.builder.importPath, o.builder.name, pluginKey)
	}},
	paramCount: {"parameter count", verdictReported, func(o *outcome) string {
		return o.notWired(fmt.Sprintf("%s takes %d parameters, not (ctx context.Context, obj *<Kind>) as controller-runtime's Defaulter does", o.dm.name, o.dm.params))
	}},
	unnamedObject: {"unnamed object", verdictReported, func(o *outcome) string {
		return o.notWired(fmt.Sprintf("its object parameter has no name; name it obj and add %q as the first statement of %s", o.dm.hint, o.dm.name))
	}},
	uncheckedAssert: {"unchecked type assertion", verdictReported, func(o *outcome) string {
		return o.notWired(fmt.Sprintf("%s type-asserts %s at %s without an `if !%s { return … }` after it; add %q after that check",
			o.dm.name, o.dm.obj.name, o.dm.assertAt, o.dm.okName, o.dm.hint))
	}},
	noAssert: {"no type assertion", verdictReported, func(o *outcome) string {
		obj := nameOr(o.dm.obj.name)
		return o.notWired(fmt.Sprintf("%s takes %s %s and its body does not type-assert it to a pointer to the kind at its top level "+
			"(`x, ok := %s.(*<pkg>.<Kind>)` then `if !ok { return … }`)", o.dm.name, obj, types.ExprString(o.dm.obj.typ), obj))
	}},
	foreignKind: {"kind of another module", verdictReported, func(o *outcome) string {
		return fmt.Sprintf("%s: note: %s is left as it is: %s is not a package of this module (%s), so make generate writes no SetObjectDefaults_%s for it",
			o.at, o.dm.name, o.kind.importPath, o.detail, o.kind.name)
	}},
	noRootType: {"no root type", verdictReported, func(o *outcome) string {
		return o.notWired(fmt.Sprintf("%s declares no root type %s (a struct embedding metav1.TypeMeta), so make generate writes no SetObjectDefaults_%s; "+
			"once it does, run `kubebuilder edit --plugins %s` or add %q as the first statement of %s", o.kind.dir, o.kind.name, o.kind.name, pluginKey, o.call, o.dm.name))
	}},
	notFound: {"not found", verdictReported, func(o *outcome) string {
		at := ""
		if o.at != "" {
			at = o.at + ": "
		}
		return fmt.Sprintf("%swarning: create webhook --defaulting --kind %s --version %s: the plugin found no WithDefaulter(…) for %s in the project's Go files, "+
			"so no Default method is wired to the declarative defaults; add \"<pkg>.SetObjectDefaults_%s(obj)\" as the first statement of the Default method of the type passed to WithDefaulter",
			at, o.kind.name, o.version, o.kind.name, o.kind.name)
	}},
	markerUncovered: {"marker not accounted for", verdictReported, func(o *outcome) string {
		return o.unwiredMarker("no WithDefaulter(…) of the project registers a defaulter for it")
	}},
	markerNoSetup: {"marker without setup", verdictReported, func(o *outcome) string {
		return o.unwiredMarker("its package has no WithDefaulter(…) call")
	}},
	editUnparsable: {"edit would not parse", verdictReported, func(o *outcome) string {
		return fmt.Sprintf("%s: warning: not edited: the edit would not parse (%s); add the call by hand", o.at, o.detail)
	}},
}

func (o *outcome) ofKind() string {
	if !o.builderKnown {
		return ""
	}
	return " of " + o.builder.name
}

// notWired is the warning about a Default method that the plugin does not
// edit, and why.
func (o *outcome) notWired(why string) string {
	return fmt.Sprintf("%s: warning: %s is not wired to the declarative defaults: %s", o.at, o.dm.name, why)
}

// noMethod is the warning about a defaulter without a Default method to
// edit, and why.
func (o *outcome) noMethod(why string) string {
	return fmt.Sprintf("%s: warning: the defaulting webhook%s is not wired to the declarative defaults: %s, passed to WithDefaulter at %s, has no Default method the plugin can edit (%s); "+
		"add %q as the first statement of (*%s).Default", o.at, o.ofKind(), o.defaulter.name, o.where, why, o.call, o.defaulter.name)
}

// unwiredMarker is the warning about a mutating webhook marker, and why.
func (o *outcome) unwiredMarker(why string) string {
	return fmt.Sprintf("%s: warning: a mutating webhook (resources=%s, versions=%s) that the plugin cannot wire to the declarative defaults: %s. "+
		"The plugin edits the Default method of types passed to controller-runtime's WithDefaulter; if this webhook defaults a kind of this module, "+
		"add \"<pkg>.SetObjectDefaults_<Kind>(obj)\" as the first statement of its Default method", o.at, o.resource, o.version, why)
}

// messages are the lines printed for the outcomes, in order.
func messages(outcomes []outcome) []string {
	var logs []string
	for i := range outcomes {
		if m := reasonTable[outcomes[i].reason].message; m != nil {
			logs = append(logs, m(&outcomes[i]))
		}
	}
	return logs
}

// setup is one WithDefaulter call.
type setup struct {
	call  *ast.CallExpr
	sc    scope
	kind  typeRef
	known bool // kind
}

// setups is what findSetups reads of the project.
type setups struct {
	// calls are the WithDefaulter calls, in file order.
	calls []setup
	// unparsed are the files with WithDefaulter that do not parse.
	unparsed []*goFile
	// dirs are the packages with a file with WithDefaulter that parses.
	dirs map[string]bool
}

// findSetups finds the WithDefaulter calls of the project, and the kind of
// the builder each is part of.
func (p *project) findSetups() setups {
	found := setups{dirs: map[string]bool{}}
	var names []string
	for name, src := range p.universe {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !skippedDir(name) && strings.Contains(src, "WithDefaulter") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		gf := p.file(name)
		if gf.err != nil {
			found.unparsed = append(found.unparsed, gf)
			continue
		}
		found.dirs[path.Dir(name)] = true
		for _, d := range gf.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				found.calls = append(found.calls, p.setupsIn(scope{file: gf, fn: fd})...)
			}
		}
	}
	return found
}

// setupsIn are the WithDefaulter calls of the function of sc.
func (p *project) setupsIn(sc scope) []setup {
	parents := map[ast.Expr]*ast.CallExpr{}
	var calls []*ast.CallExpr
	ast.Inspect(sc.fn.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.CallExpr); ok {
			parents[x] = c
		}
		if sel.Sel.Name == "WithDefaulter" && len(c.Args) == 1 {
			calls = append(calls, c)
		}
		return true
	})
	var out []setup
	for _, c := range calls {
		s := setup{call: c, sc: sc}
		s.kind, s.known = p.builderKind(c, parents, sc)
		out = append(out, s)
	}
	return out
}

// relevant: a file that cannot be analysed concerns this command.
func (f defaulterFilter) relevant(src string) bool {
	return f.kind == "" || strings.Contains(src, f.kind)
}

// matches: the kind t is the one the command is about.
func (f defaulterFilter) matches(t typeRef) bool {
	if f.kind == "" {
		return true
	}
	pkgPath := t.dir
	if pkgPath == "" {
		pkgPath = t.importPath
	}
	return t.name == f.kind && (f.version == "" || path.Base(pkgPath) == f.version) &&
		(f.group == "" || t.dir == "" || path.Base(path.Dir(pkgPath)) == f.group)
}

// planDefaulters decides an outcome for each file that does not parse and
// each setup, then, for create webhook --defaulting, whether the kind's
// defaulter was found at all and, for edit, which mutating webhook markers
// no setup accounts for.
func (p *project) planDefaulters(found setups, filter defaulterFilter) []outcome {
	var out []outcome
	for _, gf := range found.unparsed {
		o := outcome{at: gf.path, detail: firstLine(gf.err)}
		if filter.relevant(gf.src) {
			out = append(out, o.with(notParsed))
		} else {
			out = append(out, o.with(skipOtherKind))
		}
	}
	seen := map[*ast.FuncDecl]bool{}
	for _, s := range found.calls {
		out = append(out, p.planSetup(s, filter, seen))
	}
	if filter.kind != "" && filter.defaulting && !matched(out) {
		out = append(out, p.planNotFound(filter))
	}
	if filter.kind == "" {
		var accounted []typeRef
		for _, o := range out {
			accounted = append(accounted, o.accounts...)
		}
		out = append(out, p.unwiredMarkers(found.dirs, accounted)...)
	}
	return out
}

// matched: an outcome is about a defaulter of the filter's kind (wired,
// already wired, or reported).
func matched(outcomes []outcome) bool {
	for _, o := range outcomes {
		if o.reason != skipOtherKind && o.reason != skipSeen {
			return true
		}
	}
	return false
}

// planSetup decides what to do with the Default method of the value that
// the setup s passes to WithDefaulter. seen holds the methods planned so
// far: one method is planned once.
func (p *project) planSetup(s setup, filter defaulterFilter, seen map[*ast.FuncDecl]bool) outcome {
	o := outcome{
		// The line of WithDefaulter, not of the chain it ends.
		where:   p.at(s.call.Fun.(*ast.SelectorExpr).Sel.Pos()),
		arg:     types.ExprString(s.call.Args[0]),
		builder: s.kind, builderKnown: s.known,
		call: "<pkg>.SetObjectDefaults_<Kind>(obj)",
	}
	if s.known {
		o.call = callText(importName(s.sc.file.f, s.kind.importPath, path.Dir(s.sc.file.path) == s.kind.dir), s.kind.name, "obj")
		o.accounts = append(o.accounts, s.kind)
	}
	other := s.known && !filter.matches(s.kind) || !s.known && !filter.relevant(s.sc.file.src)
	t, ok := p.typeOfValue(s.call.Args[0], s.sc, 0)
	switch {
	case !ok && other:
		return o.with(skipOtherKind)
	case !ok:
		return o.with(unknownType)
	}
	o.defaulter = t
	gf, fd := p.method(t, "Default")
	switch {
	case fd == nil && other:
		return o.with(skipOtherKind)
	case fd == nil:
		if o.at = p.declaredAt(t); o.at == "" {
			o.at = o.where
		}
		if t.dir == "" {
			return o.with(foreignDefaulter)
		}
		return o.with(noDefaultMethod)
	case seen[fd]:
		return o.with(skipSeen)
	}
	seen[fd] = true
	return p.planDefault(o, s, filter, gf, fd)
}

// planDefault decides what to do with the Default method fd of the setup
// s, whose outcome so far is o.
func (p *project) planDefault(o outcome, s setup, filter defaulterFilter, gf *goFile, fd *ast.FuncDecl) outcome {
	dm := p.analyseDefault(gf, fd)
	o.dm, o.kind = &dm, dm.kind
	if !dm.kindKnown {
		o.kind = s.kind
	}
	if (dm.kindKnown || s.known) && !filter.matches(o.kind) || !dm.kindKnown && !s.known && !filter.relevant(gf.src+s.sc.file.src) {
		return o.with(skipOtherKind)
	}
	if dm.kindKnown {
		o.accounts = append(o.accounts, dm.kind)
	}
	o.at = p.at(fd.Pos())
	switch {
	case dm.kindKnown && s.known && !dm.kind.same(s.kind):
		return o.with(kindMismatch)
	case dm.problem != 0:
		return o.with(dm.problem)
	}
	o.call = callText(dm.qual, o.kind.name, dm.objVar)
	switch {
	case o.kind.dir == "":
		o.detail = p.module
		return o.with(foreignKind)
	case !declaresKind(p.universe, o.kind.dir, o.kind.name):
		return o.with(noRootType)
	case callsDefaults(fd.Body, o.kind.name):
		return o.with(skipAlreadyCalls)
	}
	o.file = gf.path
	o.offset, o.text = insertionPoint(p.fset, gf.src, fd.Body, dm.after, o.call)
	return o.with(wired)
}

// planNotFound is the outcome of create webhook --defaulting when no
// WithDefaulter of its kind was found: it names the scaffolded webhook file
// if there is one.
func (p *project) planNotFound(filter defaulterFilter) outcome {
	o := outcome{kind: typeRef{name: filter.kind}, version: filter.version}
	for _, dir := range []string{path.Join("internal/webhook", filter.group, filter.version), path.Join("api", filter.group, filter.version)} {
		if name := path.Join(dir, strings.ToLower(filter.kind)+"_webhook.go"); p.universe[name] != "" {
			o.at = name
			break
		}
	}
	return o.with(notFound)
}

// unwiredMarkers is an outcome for each +kubebuilder:webhook marker with
// mutating=true whose resource no WithDefaulter of the project accounts
// for: for example a go/v3 Default() on the API type, which
// controller-runtime no longer calls.
func (p *project) unwiredMarkers(setupDirs map[string]bool, accounted []typeRef) []outcome {
	var out []outcome
	dirs := make([]string, 0, len(p.byDir))
	for d := range p.byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		for _, name := range p.byDir[dir] {
			src := p.universe[name]
			if !strings.Contains(src, "mutating=true") {
				continue
			}
			for i, l := range strings.Split(src, "\n") {
				l = strings.TrimSpace(l)
				if !mutatingMarker.MatchString(l) {
					continue
				}
				o := outcome{at: fmt.Sprintf("%s:%d", name, i+1), resource: markerArg(l, "resources"), version: markerArg(l, "versions")}
				switch {
				case covered(o.resource, o.version, accounted):
				case !setupDirs[dir]:
					out = append(out, o.with(markerNoSetup))
				default:
					out = append(out, o.with(markerUncovered))
				}
			}
		}
	}
	return out
}

// covered: one of the kinds accounted for is the marker's resource in its
// version.
func covered(resource, version string, accounted []typeRef) bool {
	for _, k := range accounted {
		lk := strings.ToLower(k.name)
		pkgPath := k.dir
		if pkgPath == "" {
			pkgPath = k.importPath
		}
		if strings.HasPrefix(resource, lk[:len(lk)-1]) && (version == "" || path.Base(pkgPath) == version) {
			return true
		}
	}
	return false
}

// applyEdits makes the insertions of the wired outcomes, file by file: in
// the file's line endings, gofmt'd if the file was, and only if the result
// parses (else an editUnparsable outcome). It returns the files changed,
// path → content.
func applyEdits(universe map[string]string, outcomes []outcome) (map[string]string, []outcome) {
	edits := map[string][]outcome{}
	for _, o := range outcomes {
		if o.reason == wired {
			edits[o.file] = append(edits[o.file], o)
		}
	}
	names := make([]string, 0, len(edits))
	for name := range edits {
		names = append(names, name)
	}
	sort.Strings(names)
	changed := map[string]string{}
	var failed []outcome
	for _, name := range names {
		out, err := insertAll(name, universe[name], edits[name])
		if err != nil {
			failed = append(failed, outcome{reason: editUnparsable, at: name, detail: firstLine(err)})
			continue
		}
		changed[name] = out
	}
	return changed, failed
}

// insertAll makes the insertions ins into src, the file name: from the
// last, so that offsets hold, with CRLF line endings if src has them, and
// gofmt'd if src was (otherwise only the inserted lines are new). The error
// is the parser's when the result does not parse.
func insertAll(name, src string, ins []outcome) (string, error) {
	sort.Slice(ins, func(i, j int) bool { return ins[i].offset > ins[j].offset })
	crlf := strings.Contains(src, "\r\n")
	out := src
	for _, in := range ins {
		text := in.text
		if crlf {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		out = out[:in.offset] + text + out[in.offset:]
	}
	if formatted, err := format.Source([]byte(src)); err == nil && bytes.Equal(formatted, []byte(src)) {
		if b, err := format.Source([]byte(out)); err == nil {
			out = string(b)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), name, out, parser.SkipObjectResolution); err != nil {
		return "", err
	}
	return out, nil
}
