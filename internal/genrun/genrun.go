// Package genrun wires the generators of one controller-gen run as this
// tool runs them: this tool's markers registered after every generator's,
// and one engine.Session shared by the crd and defaults generators. The
// command (cmd/controller-gen-default), the conversion checks' loader and
// the generators' tests all wire a run with Wire.
//
// It is the one package that knows both generators (crdgen, defaultgen)
// and the engine beneath them; internal/engine imports neither.
package genrun

import (
	"io"

	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/defaultgen"
	"github.com/controller-gen-default/controller-gen-default/internal/engine"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// Wire sets up the generators of rt, which genall has made (their markers
// registered in rt's registry), as this tool runs them: it registers this
// tool's markers after every generator's, so that they win whatever the
// order of the generators (markers.Register: schemapatch and
// applyconfiguration register controller-tools' +default again), and
// gives the crd and defaults generators of rt one Session, whose findings
// go to diags (nil is os.Stderr), so that they build and decide once and
// print each finding once; a defaults generator beside a crd generator
// also takes the options it must share with it (defaultgen.WithCRD). It
// returns the Session, whose decisions the caller may read after the run
// (engine.Decide).
func Wire(rt *genall.Runtime, diags io.Writer) (*engine.Session, error) {
	if err := markers.Register(rt.Collector.Registry); err != nil {
		return nil, err
	}
	s := &engine.Session{Diagnostics: diags}
	share(rt.Generators, s)
	return s, nil
}

// share gives the crd and defaults generators of gens the session s, and
// a defaults generator the options of the first crd generator.
func share(gens genall.Generators, s *engine.Session) {
	var crd *crdgen.Generator
	for _, g := range gens {
		if c, ok := (*g).(crdgen.Generator); ok {
			c = c.WithSession(s)
			*g = c
			if crd == nil {
				crd = &c
			}
		}
	}
	for _, g := range gens {
		if d, ok := (*g).(defaultgen.Generator); ok {
			if crd != nil {
				d = d.WithCRD(*crd)
			}
			*g = d.WithSession(s)
		}
	}
}
