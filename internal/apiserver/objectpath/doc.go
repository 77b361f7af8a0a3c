// Package pipeline is the apiserver's decode and create path for objects of
// a CRD, called offline (package normalize holds the CRD checks):
//
//   - Pipeline: the decode and create path of one object of one served CRD
//     version, in the apiserver's order: pruning, removal of non-nullable
//     nulls, metadata coercion, defaulting, then validation (OpenAPI,
//     metadata, list sets and maps, CEL with the server's cost budget).
//   - Pipeline.Create: a whole create request: the body limit, strict
//     field validation, the create handler's and registry's metadata steps
//     (namespaces, system fields, generateName), rest.BeforeCreate's steps,
//     the storage's checks (resourceVersion, etcd's size limits), and the
//     object as the storage reads it back. Normalize is Create as kubectl
//     sends the object (KubectlRequest: its namespace, and no
//     resourceVersion).
//   - Run: what `controller-gen-default normalize` does with its Options:
//     the objects of the files created on several workers and printed in
//     input order, their messages on stderr, and the exit status. The
//     command, its flags and usage, is package
//     cmd/internal/objects/normalizecmd, run by
//     controller-gen-default-objects.
//   - Pipeline.Strategies: the version's registry strategies, built as the
//     handler builds them, whose updates package internal/impact runs.
//
// It is a package of its own because its registry strategy
// (customresource.NewStrategy) links the apiserver's storage layer (etcd's
// client, gRPC, informers), which the generator has no use for.
//
// # The normalize command
//
//	controller-gen-default normalize --crd PATH [--crd PATH]... [-o yaml|json] [--strict] [--skip-other-groups] [-n NAMESPACE] [-R] [FILE|-]...
//
// Every CRD is first validated with normalize.ValidateCRD. The input (no
// FILE or - is stdin) is read as kubectl create -f reads it (package
// internal/input/manifest): empty and null documents are skipped, and a List
// stands for its items. Each object is matched by apiVersion and kind to a
// served version of a CRD (with --skip-other-groups, an object whose API
// group no CRD has is skipped instead), and created as kubectl sends it:
// a namespaced object without metadata.namespace goes to -n's namespace
// (default); with -n, an object of another namespace is refused as
// kubectl refuses it.
//
// stderr gets one line per finding, prefixed `FILE:DOC:`, where DOC is the
// 1-based index of the document among the file's non-empty documents (FILE
// is - for stdin), or `FILE:DOC:ITEM:` for an item of a List:
//
//   - `FILE:DOC: warning: TEXT` first, for an object of a deprecated
//     version: the warning the apiserver sends with every request at it
//     (Pipeline.DeprecationWarning);
//   - `FILE:DOC: field.path: message` for each validation error, in the
//     apiserver's words, sorted by field path;
//   - `FILE:DOC: message` for a request the apiserver refuses otherwise (a
//     body over 3 MiB, a resourceVersion, an object too large for etcd);
//   - `FILE:DOC: warning: unknown field "spec.x"` for each pruned field, in
//     the words of the apiserver's warning; with --strict,
//     `FILE:DOC: error: unknown field "spec.x"`, and the exit code is 1, as
//     fieldValidation=Strict rejects the object (and checks nothing else);
//   - `FILE:DOC: warning: ...` for the strategy's warnings (finalizer
//     names);
//   - with --skip-other-groups, `FILE:DOC: skipped (no CRD has the group):
//     apiVersion "v1", kind "Namespace"` for each object skipped, which is
//     not printed on stdout.
//
// Exit codes, and what stdout holds (the choice made for this command):
//
//   - 0: every object is created. stdout holds each object as the
//     apiserver would store it on create, in input order: one object as
//     itself, several as a YAML stream (each after a `---` line) or, with
//     -o json, JSON lines (one compact object per line). Each object is
//     printed as soon as it and those before it are done.
//   - 1: an object is refused, or has unknown fields with --strict. stdout
//     still holds every object, as above, each as it would have been
//     stored had validation passed, so that the errors on stderr can be read
//     against the defaulted objects. Do not apply it: the exit code says
//     the apiserver would refuse some of it.
//   - 2: the input is unusable: bad flags, a CRD that cannot be read or is
//     invalid (`CRD name: field.path: message`, ValidateCRD's errors), an
//     input that cannot be read or parsed, a document that is not an
//     object, an object that no CRD serves (with --skip-other-groups, only
//     one of a group some CRD has), or one that kubectl would not
//     send (-n and another namespace). The run ends there: stdout holds
//     the objects before it, already printed, and nothing after it.
//
// Stored objects do not carry what the server invents on create: uid,
// creationTimestamp, resourceVersion, managedFields, or a name generated
// from metadata.generateName. They do carry metadata.generation 1, and lose
// status when the status subresource is on (the registry's
// PrepareForCreate), getting its default back when read from storage.
package objectpath
