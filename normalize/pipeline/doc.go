// Package pipeline is the apiserver's decode and create path for objects of
// a CRD, called offline (package normalize holds the CRD checks):
//
//   - Pipeline: the decode and create path of one object of one served CRD
//     version, in the apiserver's order: pruning, removal of non-nullable
//     nulls, metadata coercion, defaulting, then validation (OpenAPI,
//     metadata, list sets and maps, CEL with the server's cost budget).
//   - RunCLI: `controller-gen-default normalize`, which runs the command
//     controller-gen-default-normalize.
//   - Pipeline.Strategies: the version's registry strategies, built as the
//     handler builds them, whose updates package normalize/impact runs.
//
// It is a package of its own because its registry strategy
// (customresource.NewStrategy) links the apiserver's storage layer (etcd's
// client, gRPC, informers), which the generator has no use for.
//
// # The normalize command
//
//	controller-gen-default normalize --crd PATH [--crd PATH]... [-o yaml|json] [--strict] [FILE|-]...
//
// Every CRD is first validated with normalize.ValidateCRD. Each document of the input
// (a multi-document YAML stream, or JSON; no FILE or - is stdin) is matched
// by apiVersion and kind to a served version of a CRD and run through its
// Pipeline. An object of a namespaced kind without metadata.namespace is
// created in "default", as kubectl would send it.
//
// stderr gets one line per finding, prefixed `FILE:DOC:`, where DOC is the
// 1-based index of the document among the file's non-empty documents (FILE
// is - for stdin):
//
//   - `FILE:DOC: field.path: message` for each validation error, in the
//     apiserver's words, sorted by field path;
//   - `FILE:DOC: warning: unknown field "spec.x"` for each pruned field, in
//     the words of the apiserver's warning; with --strict,
//     `FILE:DOC: error: unknown field "spec.x"`, and the exit code is 1, as
//     kubectl's fieldValidation=Strict would reject the object.
//
// Exit codes, and what stdout holds (the choice made for this command):
//
//   - 0: every document is valid. stdout holds each document as the
//     apiserver would store it on create, in input order: one document as
//     itself, several as a YAML stream (each after a `---` line) or, with
//     -o json, a JSON array.
//   - 1: a document is invalid, or has unknown fields with --strict. stdout
//     still holds every document, as above, each as it would have been
//     stored had validation passed, so that the errors on stderr can be read
//     against the defaulted objects. Do not apply it: the exit code says
//     the apiserver would refuse some of it.
//   - 2: the input is unusable: bad flags, a CRD that cannot be read or is
//     invalid (`CRD name: field.path: message`, ValidateCRD's errors), an
//     input that cannot be read or parsed, or a document that no CRD
//     serves. stdout is empty.
//
// Stored objects do not carry what the server invents on create: uid,
// creationTimestamp, resourceVersion, managedFields, or a name generated
// from metadata.generateName. They do carry metadata.generation 1, and lose
// status when the status subresource is on (the registry's
// PrepareForCreate), getting its default back when read from storage.
package pipeline
