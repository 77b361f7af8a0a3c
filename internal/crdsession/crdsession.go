// Package crdsession is how this module's generators read the decisions of
// the crd generator's session (crdgen.Session): the field model with every
// default decided, the findings, and the kinds. They are internal types
// (internal/decision, internal/model), so crdgen's exported API does not
// name them; crdgen sets Decide when it is initialized, as
// golang.org/x/tools' go/packages sets the functions of its
// internal/packagesinternal. Decide is set once, before main runs, and holds
// no state: the state is the session's.
package crdsession

import (
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/internal/decision"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

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

// Options are the crd generator's options the defaults generator is run
// with: the same as crd's where both run, so that both read one build.
type Options struct {
	ImplicitDefaults    bool
	AllowDangerousTypes bool
}

// Decide builds the CRDs of ctx's roots in session, a *crdgen.Session, and
// decides every default, without the apiserver checks and without writing
// anything; when the crd generator of the session has built them already,
// with the same ImplicitDefaults, its decisions are reused. It returns nil
// when the roots declare no kind, and an error when the marker registry
// does not hold this tool's +default. crdgen sets it; it panics when
// session is not a *crdgen.Session.
var Decide func(session any, ctx *genall.GenerationContext, opts Options) (*Decisions, error)
