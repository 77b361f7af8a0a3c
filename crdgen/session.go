package crdgen

import "github.com/controller-gen-default/controller-gen-default/internal/engine"

// Session is the work that the crd and defaults generators of one run
// share, as controller-tools' genall shares the loaded packages: the CRDs
// are built and every default decided once, for both, and each finding is
// printed once, whichever generator prints it. The command builds one
// Session per run and gives it to both generators (Generator.WithSession,
// defaultgen.Generator.WithSession); a generator without one makes its own
// for each Generate, so that generators share nothing they are not given.
// Diagnostics receives the findings, in go vet style; nil is os.Stderr.
type Session = engine.Session
