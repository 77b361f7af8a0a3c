package crdgen

import (
	"io"
	"os"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/crdsession"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// Session is the work that the crd and defaults generators of one run
// share, as controller-tools' genall shares the loaded packages: the CRDs
// are built and every default decided once, for both, and each finding is
// printed once, whichever generator prints it. The command builds one
// Session per run and gives it to both generators (Generator.WithSession,
// defaultgen.Generator.WithSession); a generator without one makes its own
// for each Generate, so that generators share nothing they are not given.
type Session struct {
	// Diagnostics receives the findings, in go vet style; nil is
	// os.Stderr.
	Diagnostics io.Writer

	mu sync.Mutex
	// b is the session's build, nil before the first.
	b *built
}

// Output is where the session's findings go: Diagnostics, or os.Stderr.
func (s *Session) Output() io.Writer {
	if s.Diagnostics == nil {
		return os.Stderr
	}
	return s.Diagnostics
}

// built is the CRDs of one run, with the defaults decided and written.
type built struct {
	col  *ctmarkers.Collector
	opts buildOptions
	d    *schemaWalker
	// crds are the CRDs, nil once released.
	crds     []*apiextensionsv1.CustomResourceDefinition
	released bool
	// kinds are the root types of every version of every CRD.
	kinds []crd.TypeIdent
}

// release drops what only the crd generator needs, the schemas and CRDs,
// once it has written them: the defaults generator of the same run reads
// the model, whose types stay.
func (b *built) release() {
	b.crds, b.released = nil, true
	p := b.d.parser
	p.Schemata, p.FlattenedSchemata, p.CustomResourceDefinitions = nil, nil, nil
	clear(b.d.origins)
}

// reuses is the rule for sharing a build: the session's build serves a
// generator that runs on the same loaded packages (the same marker
// collector) with the same options that change what is built (for the
// defaults generator, implicitDefaults alone: the others only change the
// CRDs' schemas, which it does not read), and, for the crd generator, only
// until it is released.
func (b *built) reuses(ctx *genall.GenerationContext, opts buildOptions, decisionsOnly bool) bool {
	if b == nil || b.col != ctx.Collector {
		return false
	}
	if decisionsOnly {
		return b.opts.implicit == opts.implicit
	}
	return !b.released && b.opts == opts
}

// build generates every CRD of ctx's roots and decides its defaults, or
// takes the session's build when it serves (reuses); each is called with
// every CRD, in order, as soon as it is built. It returns nil when the
// roots declare no kind, and an error when the marker registry does not
// hold this tool's +default (markers.Registered).
func (s *Session) build(ctx *genall.GenerationContext, opts buildOptions, decisionsOnly bool, each func(*apiextensionsv1.CustomResourceDefinition)) (*built, error) {
	if err := markers.Registered(ctx.Collector.Registry); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b.reuses(ctx, opts, decisionsOnly) {
		for _, c := range s.b.crds {
			each(c)
		}
		return s.b, nil
	}
	s.b = newBuild(ctx, opts, each)
	return s.b, nil
}

// newBuild is build without a session.
func newBuild(ctx *genall.GenerationContext, opts buildOptions, each func(*apiextensionsv1.CustomResourceDefinition)) *built {
	parser := &crd.Parser{
		Collector:                  ctx.Collector,
		Checker:                    ctx.Checker,
		IgnoreUnexportedFields:     opts.ignoreUnexported,
		AllowDangerousTypes:        opts.allowDangerous,
		GenerateEmbeddedObjectMeta: opts.embeddedMeta,
	}
	crd.AddKnownTypes(parser)
	for _, root := range ctx.Roots {
		parser.NeedPackage(root)
	}
	metav1Pkg := crd.FindMetav1(ctx.Roots)
	if metav1Pkg == nil {
		return nil
	}
	kinds := crd.FindKubeKinds(parser, metav1Pkg)
	if len(kinds) == 0 {
		return nil
	}
	b := &built{col: ctx.Collector, opts: opts, d: newSchemaWalker(parser, ctx.Collector, ctx.Roots, options{implicit: opts.implicit, explain: opts.explain})}
	for _, gk := range kinds {
		parser.NeedCRDFor(gk, opts.maxDescLen())
		c, ok := parser.CustomResourceDefinitions[gk] // NeedCRDFor made it from a deep copy
		if !ok {
			continue
		}
		if !opts.omitToolVersion {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations["controller-gen.kubebuilder.io/version"] = Version()
		}
		crd.FixTopLevelMetadata(c)
		roots := rootTypes(parser, gk)
		for _, id := range roots {
			b.kinds = append(b.kinds, id)
		}
		b.d.diags.SetCRD(c.Name)
		b.d.applyCRD(&c, roots)
		b.d.diags.SetCRD("")
		b.crds = append(b.crds, &c)
		each(&c)
	}
	return b
}

func init() {
	crdsession.Decide = func(session any, ctx *genall.GenerationContext, opts crdsession.Options) (*crdsession.Decisions, error) {
		return session.(*Session).decide(ctx, opts)
	}
}

// decide is crdsession.Decide: it builds the CRDs of ctx's roots and
// decides every default, without the apiserver checks and without writing
// anything; when the crd generator of the session has built them already,
// with the same implicitDefaults, its decisions are reused. It returns nil
// when the roots declare no kind, and an error when the marker registry
// does not hold this tool's +default.
func (s *Session) decide(ctx *genall.GenerationContext, opts crdsession.Options) (*crdsession.Decisions, error) {
	b, err := s.build(ctx, buildOptions{implicit: opts.ImplicitDefaults, allowDangerous: opts.AllowDangerousTypes}, true,
		func(*apiextensionsv1.CustomResourceDefinition) {})
	if b == nil || err != nil {
		return nil, err
	}
	return &crdsession.Decisions{Model: b.d.model, Findings: b.d.diags, Kinds: b.kinds}, nil
}
