// Package compat holds the byte-identity test: with
// crd:implicitDefaults=false, controller-gen-default must write exactly the
// files controller-gen v0.23.0 writes, on real API modules fetched through
// the Go module proxy (see internal/testsupport/realapis).
//
// The test needs controller-gen v0.23.0; `make controller-gen-ref` installs
// it into bin/controller-gen-v0.23.0/ and `make test` passes its path in
// CONTROLLER_GEN_REF. Run it alone with `make compat`.
package compat
