// Package normalize calls the apiserver's own code
// (k8s.io/apiextensions-apiserver) to do, offline, what the apiserver does
// with a CRD. Nothing here re-implements the apiserver: every step is the
// upstream function its doc comment names, but for the ten lines of the CRD
// registry strategy's PrepareForCreate, restated so that the generator does
// not link the storage layer and tested against the strategy itself
// (prepareForCreate).
//
//   - ValidateCRD: the validation of a CRD on create.
//   - CheckDefaults: the defaults the apiserver accepts but whose objects
//     then fail, because it validates each default alone while it stores it
//     with the nested defaults applied, never validates defaults under
//     additionalProperties, never checks list-type uniqueness in defaults,
//     and ignores `default: null`.
//   - LoadCRDs: CRDs from files and directories, read by internal/input/manifest
//     as objects are (a List of CRDs is its items), refusing those the
//     apiserver would not all serve (namesConflicts, sameNameConflict);
//     ServedCRDs is that rule on CRDs in memory, CRDSet on several kinds
//     of source (files, a git tree, a cluster), ReadCRDs one stream.
//
// Package internal/input/manifest reads objects from files as kubectl reads them.
// The decode and create path of objects, and the normalize command, are in
// package internal/apiserver/objectpath: they call the apiserver's custom-resource
// registry strategy, which links the apiserver's storage layer, and this
// package is linked into every generator run.
package crdcheck
