// Package convprog builds and runs a small program against a user's Go
// module that converts objects between the versions of its APIs with the
// API's own Go code: the conversion.Hub and conversion.Convertible methods
// of sigs.k8s.io/controller-runtime/pkg/conversion, served by
// controller-runtime's conversion webhook handler
// (sigs.k8s.io/controller-runtime/pkg/webhook/conversion,
// NewWebhookHandler), exactly as a kubebuilder project's webhook server
// serves the apiserver's ConversionReviews for a CRD with
// spec.conversion.strategy: Webhook.
//
// # Building
//
// Build loads package patterns (./api/...) of the module that holds
// Options.Dir with golang.org/x/tools/go/packages, keeps the packages that
// declare AddToScheme (kubebuilder's groupversion_info.go), and generates a
// main package that imports only those: it runs only code from the
// packages it was given. The program lives in a temporary module that
// requires the user's module at v0.0.0, replaced by its directory, and
// every requirement, replacement and exclusion of the user's go.mod (local
// replacements made absolute), with the user's go.sum: it builds with
// exactly the user's dependency versions. go build -mod=mod runs there
// with GOWORK=off (packages the program itself imports, such as
// k8s.io/apiextensions-apiserver's ConversionReview, are added from the
// module graph if the user's go.mod does not list them); the rest of
// GOFLAGS applies.
//
// A compile error is a *BuildError whose text names the user's files as
// go vet does: file:line:col relative to the current directory.
//
// # Cache
//
// The binary is cached by content, under
// os.UserCacheDir()/controller-gen-default/convprog: its name is a SHA-256
// of the user's go.mod and go.sum, every Go (and embedded or other) file of
// the packages the program depends on that belong to the user's module or
// to a directory it replaces a module with, the Go version and target
// (go env GOVERSION GOOS GOARCH ...), and the generated source. A change to
// any of them builds again; nothing else does (Program.Cached says which).
// A binary is written beside its final name and renamed over it, so a
// concurrent run never sees half of one. The environment variable
// CONTROLLER_GEN_DEFAULT_CONVPROG_CACHE=off turns the cache off (every
// Build builds, into a temporary directory that Program.Close removes);
// set to a directory, it caches there.
//
// # Protocol
//
// The program reads JSON lines on stdin and answers each with one line on
// stdout:
//
//   - an apiextensions.k8s.io/v1 ConversionReview (kind ConversionReview)
//     is served by conversion.NewWebhookHandler(scheme) through
//     net/http/httptest, and answered with the ConversionReview the
//     handler writes (its response);
//   - {"kind":"Kinds"} is answered with {"kind":"Kinds","kinds":[...]}:
//     each group/kind the scheme holds from the given packages (lists
//     aside), its hub version and spoke versions (the types that implement
//     conversion.Hub and conversion.Convertible), and whether
//     controller-runtime finds it convertible (IsConvertible);
//   - anything else is answered with {"kind":"Error","message":"..."}.
//
// # Use
//
//	prog, err := convprog.Build(ctx, convprog.Options{Patterns: []string{"./api/..."}})
//	if err != nil { ... } // a *BuildError names the user's file:line:col
//	defer prog.Close()
//	proc, err := prog.Start(ctx)
//	if err != nil { ... }
//	defer proc.Close()
//	for _, k := range proc.Kinds() { ... } // hub and spokes per group/kind
//	out, err := proc.Convert(ctx, objs, "conv.example.com/v1")
//
// A Process is safe for concurrent use; its requests are answered one at a
// time, in order. Convert sends all its objects in one ConversionReview.
// Handler serves ConversionReviews over HTTP through the process, for a
// client that calls webhooks itself (the apiserver's webhook converter).
package convprog
