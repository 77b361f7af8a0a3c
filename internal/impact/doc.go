// Package impact says what objects stored under some CRDs (OLD) become
// when the CRDs are replaced (NEW), with the apiserver's own code
// (k8s.io/apiextensions-apiserver): `controller-gen-default impact`.
//
// The apiserver does not rewrite stored objects when a CRD changes. It
// reads them with the current CRD on every request, and writes back what
// it read on the next update. For each object, in the apiserver's order:
//
//  1. Stored (stored.go): the object's create under OLD, as kubectl sends
//     it (package pipeline's Create: a namespaced object without a
//     namespace goes to -n or default, a cluster-scoped one loses its
//     namespace; the request body and etcd size limits apply; the metadata
//     a dump holds from the server is left out of the request and put
//     back). With the status subresource, a status in the input is then
//     written through /status, as a controller writes it; then the storage
//     codec's write and read (storage.go). An object OLD refuses is flagged
//     and carried on as if stored, unless it was refused before it was
//     decoded (a body over 3 MiB).
//  2. Read (read.go): the storage codec of NEW decodes the stored object
//     (customresource_handler.go: schemaCoercingDecoder,
//     unstructuredSchemaCoercer.apply with dropInvalidMetadata and
//     repairGeneration, then unstructuredDefaulter; conversion to the
//     version asked for): pruned with NEW's schema, non-nullable nulls
//     dropped, defaulted. The difference from step 1 is a unified YAML
//     diff (unified.go) and lists of added, removed and changed paths
//     (diff.go).
//  3. Update (update.go, ratchet.go): the object as read, sent back
//     unchanged, through the custom-resource registry strategy
//     (registry/customresource: PrepareForUpdate, ValidateUpdate, which
//     ratchets, through rest.BeforeUpdate), and through /status when the
//     version has the subresource; the body and etcd size limits apply to
//     it, so a default that makes an object too large for etcd refuses its
//     next write. Then the values NEW refuses but the
//     no-op update keeps (held only by ratcheting) are each changed to a
//     value NEW still refuses, and that update is sent too. Writes whose
//     outcome is proven from what is already known are not sent:
//     createdasread.go (NEW judges the object's values as OLD's create
//     did) and statusfollows.go (the no-op write of the status).
//  4. Versions (versions.go): NEW no longer serving the object's version
//     (it is then read at NEW's storage version), a new storage version,
//     a removed CRD, and whether the apiserver accepts NEW as an update of
//     OLD at all (the CRD registry strategy; OLD's status.storedVersions
//     is its storage version).
//
// Conversion between versions: as with the None strategy (only apiVersion
// changes), and a CRD that uses a webhook is reported as such; or, with
// --convert PACKAGES (convert.go), through the API's own conversion code
// (Hub/Convertible methods, or Converters registered with WithConverter or
// RegisterConverter, found by convprog.Discover; --setup names a function
// the program calls first), built by package internal/convprog and called
// where the apiserver
// calls the webhook: a request is defaulted in its version and then
// converted to the storage version; a stored object is defaulted in its
// stored version, converted, and pruned (schemaCoercingConverter). Under
// --convert, afterwrite.go also reads the object at every version NEW
// serves before and after its next write (loses-fields-after-write), and
// names the versions whose LISTs and WATCHes its failed conversion breaks
// (breaks-list).
//
// Analyzer (analyze.go) runs the steps; Run (run.go) runs them on the
// objects of Options.Files, read as kubectl reads them (package
// internal/input/manifest: empty documents skipped, Lists flattened), and
// writes the report (output.go) and returns the exit status. The command,
// its flags and usage, is package
// cmd/internal/objects/impactcmd, which fills Options. Package internal/apiserver/defaultdiff lists the defaults that differ
// between OLD and NEW (the command without objects).
//
// The registry strategies link the apiserver's storage layer, which the
// controller-gen-default binary must not: the command is
// controller-gen-default-objects impact, which controller-gen-default
// impact runs.
package impact
