// Package engine is the generation engine of the crd and defaults
// generators: it owns one run's build, the CRDs that controller-tools'
// crd.Parser generates from the roots, walked beside their Go types
// (walk.go) with every default decided and written into them, and the
// Session that shares that build between the generators of a run.
//
// The rule of flow is one way: markers (the +default and
// +implicitDefaults markers) → internal/model (the Go field model and the
// KEP-1929 rules) and internal/decision (a rule's default held against the
// schema and the apiserver) → engine (the build, one per run) → crdgen and
// defaultgen, the genall adapters that check and write the build's CRDs
// (crdgen) or write Go defaulters from its decisions (defaultgen). The
// conversion checks read the decisions too. engine imports none of those
// adapters: they call it (BuildCRDs, Decide), in process, and
// internal/genrun gives the generators of a run one Session.
//
// What engine does not own: the apiserver's checks of the CRDs and the
// writing of files (crdgen), and the Go code (defaultgen).
package engine

import (
	"io"
	"os"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/internal/decision"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// Session is the work that the crd and defaults generators of one run
// share, as controller-tools' genall shares the loaded packages: the CRDs
// are built and every default decided once, for both, and each finding is
// printed once, whichever generator prints it. The command builds one
// Session per run and gives it to both generators (internal/genrun: the
// generators' WithSession); a generator without one makes its own for
// each Generate, so that generators share nothing they are not given.
//
// crdgen.Session is this type: its exported fields and methods are
// crdgen's public API, so they name no internal type; what the
// generators read of it (BuildCRDs, Decide) is functions of this package.
type Session struct {
	// Diagnostics receives the findings, in go vet style; nil is
	// os.Stderr.
	Diagnostics io.Writer

	mu sync.Mutex
	// b is the session's build, nil before the first.
	b *Build
}

// Output is where the session's findings go: Diagnostics, or os.Stderr.
func (s *Session) Output() io.Writer {
	if s.Diagnostics == nil {
		return os.Stderr
	}
	return s.Diagnostics
}

// BuildCRDs generates every CRD of ctx's roots and decides its defaults,
// as the crd generator asks, or takes s's build when it serves (the
// reuses rule); each is called with every CRD, in order, as soon as it is
// built. It returns nil when the roots declare no kind, and an error when
// the marker registry does not hold this tool's +default
// (markers.Registered). A nil s is a session of this call's own.
func BuildCRDs(s *Session, ctx *genall.GenerationContext, opts BuildOptions, each func(*apiextensionsv1.CustomResourceDefinition)) (*Build, error) {
	return s.build(ctx, opts, false, each)
}

// Options are the crd generator's options the defaults generator is run
// with: the same as crd's where both run, so that both read one build.
type Options struct {
	ImplicitDefaults    bool
	AllowDangerousTypes bool
}

// Decisions are the defaults of a run's CRDs, as the defaults generator
// and the conversion checks read them.
type Decisions struct {
	Model *decision.Model
	// Findings are the findings about the fields of the CRDs; a report
	// prints each once, whichever generator prints it.
	Findings *model.Diagnostics
	// Kinds are the root types of the CRDs' versions.
	Kinds []crd.TypeIdent
}

// Decide builds the CRDs of ctx's roots in s and decides every default,
// without the apiserver checks and without writing anything; when the crd
// generator of the session has built them already, with the same
// ImplicitDefaults, its decisions are reused. It returns nil when the roots
// declare no kind, and an error when the marker registry does not hold this
// tool's +default. A nil s is a session of this call's own.
func Decide(s *Session, ctx *genall.GenerationContext, opts Options) (*Decisions, error) {
	b, err := s.build(ctx, BuildOptions{ImplicitDefaults: opts.ImplicitDefaults, AllowDangerousTypes: opts.AllowDangerousTypes}, true,
		func(*apiextensionsv1.CustomResourceDefinition) {})
	if b == nil || err != nil {
		return nil, err
	}
	return &Decisions{Model: b.d.model, Findings: b.d.diags, Kinds: b.kinds}, nil
}

// build generates every CRD of ctx's roots and decides its defaults, or
// takes the session's build when it serves (reuses); each is called with
// every CRD, in order, as soon as it is built. It returns nil when the
// roots declare no kind, and an error when the marker registry does not
// hold this tool's +default (markers.Registered).
func (s *Session) build(ctx *genall.GenerationContext, opts BuildOptions, decisionsOnly bool, each func(*apiextensionsv1.CustomResourceDefinition)) (*Build, error) {
	if err := markers.Registered(ctx.Collector.Registry); err != nil {
		return nil, err
	}
	if s == nil {
		s = &Session{} // shares nothing
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
