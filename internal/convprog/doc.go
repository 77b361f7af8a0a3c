// Package convprog builds and runs a small program against a user's Go
// module that converts objects between the versions of its APIs with the
// API's own Go code, served by controller-runtime's conversion webhook
// handler (sigs.k8s.io/controller-runtime/pkg/webhook/conversion,
// NewWebhookHandler), exactly as a kubebuilder project's webhook server
// serves the apiserver's ConversionReviews for a CRD with
// spec.conversion.strategy: Webhook. The code is either the
// conversion.Hub and conversion.Convertible methods of the API's root
// types, or controller-runtime Converters registered for a kind (since
// controller-runtime's "Allow implementation of conversion outside of API
// packages"; cluster-api converts this way since v1.14).
//
// # Discovery
//
// Discover finds the conversions of package patterns (./... at a module's
// root finds them all) by structure, building nothing. go list -find
// lists the packages; a syntactic pass picks those that may matter:
// packages that declare AddToScheme and methods Hub, ConvertTo or
// ConvertFrom (Hub/Convertible: they, and the API packages of the same
// directory, are registered), and packages that call WithConverter or
// RegisterConverter. Only the latter are type-checked (their
// dependencies from export data): a WithConverter whose receiver is
// controller-runtime's *builder.WebhookBuilder[T] registers its argument
// for T's GroupKind (for a non-generic builder, the type of .For(...) in
// the same chain); a RegisterConverter of controller-runtime's
// conversion.Registry registers its second argument for its first. Each
// converter expression is reproduced in the generated program with its
// identifiers qualified by their packages; a local or unexported one is a
// *DiscoveryError at its file:line:col. A NewHubSpokeConverter call, in
// the expression or as the initializer of the package-level var it names,
// gives the hub and the spokes. The API packages registered are those of
// the converted kinds' Go types, wherever they are in the build list (a
// nested API module replaced by a directory). Nothing converting is
// Discovery.Empty, and Build's ErrNothingToConvert.
//
// Discover also finds, syntactically, the calls that a package main of
// the patterns makes to a function of the conversion code's packages
// whose body assigns a package-level variable of its package
// (SetupCalls: cluster-api's SetAPIVersionGetter). The program does not
// run main: Options.Setup names a function it calls first instead;
// without it, Program.MissingSetup lists those calls, and
// Program.FailuresUnknown is the rule both commands apply: a conversion
// that fails in such a program says nothing of the real webhook
// (conversion's conversion-needs-setup; impact's conversion-unknown).
//
// # controller-runtime releases
//
// Discover also reads, from source, what the controller-runtime of the
// module's build list declares in pkg/webhook/conversion
// (Discovery.ControllerRuntime), and the program is generated for that:
// NewWebhookHandler(scheme) with Hub and Convertible methods only
// (controller-runtime v0.15.0 to v0.22), or Converter, Registry,
// NewRegistry and NewWebhookHandler(scheme, registry), with the
// registered Converters (v0.23.0 on). A release with neither, such as
// v0.14 (older than MinControllerRuntime), is an *UnsupportedError, one
// line that names the version found, before anything is built. The
// declarations decide, not the version: a replace directive may give
// a fork or a commit between releases, whose source is what the program
// compiles against.
//
// # Building
//
// Build generates a main package that imports the API packages, the
// packages the converter expressions refer to and the Setup function's:
// it runs only code from the user's packages it was led to. The program
// lives in a temporary module named below the user's module path
// (<module>/zz_controller_gen_default_convprog), so that it may import the
// module's internal packages (the go command's internal rule is by import
// path), that requires the user's module at v0.0.0, replaced by its
// directory, and every requirement, replacement and exclusion of the
// user's go.mod (local replacements made absolute), with the user's
// go.sum: it builds with exactly the user's dependency versions. go build
// -v -mod=mod runs there with GOWORK=off (packages the program itself
// imports, such as k8s.io/apiextensions-apiserver's ConversionReview, are
// added from the module graph if the user's go.mod does not list them);
// the rest of GOFLAGS applies. Options.Log gets what is built and why the
// first build is long, and go build -v's progress: a counter on a
// terminal, a line every 100 packages otherwise.
//
// A compile error is a *BuildError whose text names the user's files as
// go vet does: file:line:col relative to the current directory. When
// every error is in the generated code (BuildError.Generated), the text
// says that the user has nothing to fix, and names the controller-runtime
// the program was built against.
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
// The program reads requests on stdin, each a line of an id (decimal), a
// space and JSON, and serves each in its own goroutine, as a webhook
// server serves the apiserver's requests concurrently; it answers each
// with one line on stdout, written one at a time: a token (from
// TokenEnv: what the API's code prints is not taken for an answer), the
// request's id, a space and JSON:
//
//   - an apiextensions.k8s.io/v1 ConversionReview (kind ConversionReview)
//     is served by conversion.NewWebhookHandler (with the registry of
//     Converters, from controller-runtime v0.23.0) through
//     net/http/httptest, and answered with the ConversionReview the
//     handler writes (its response);
//   - {"kind":"Kinds"} is answered with {"kind":"Kinds","kinds":[...]}:
//     each group/kind the scheme holds from the given packages (lists
//     aside) with all its versions, and how it converts: for a registered
//     Converter, how and where the user's code registers it (via,
//     where), its hub when known and the other versions as spokes, and
//     the error of its constructor if any; otherwise its hub version and
//     spoke versions (the types that implement conversion.Hub and
//     conversion.Convertible), and whether controller-runtime finds it
//     convertible (IsConvertible); and the Converters the Registry
//     refused because one is registered for their group/kind already,
//     which Start returns as a *DuplicateError naming both registrations
//     (the manager does not start with them);
//   - anything else is answered with {"kind":"Error","message":"..."}.
//
// # Use
//
//	d, err := convprog.Discover(ctx, convprog.Options{Patterns: []string{"./..."}})
//	if err != nil { ... } // a *DiscoveryError names the user's file:line:col
//	if d.Empty() { ... }  // nothing converts: nothing to build
//	prog, err := convprog.Build(ctx, convprog.Options{Patterns: []string{"./..."}, Discovery: d})
//	if err != nil { ... } // a *BuildError names the user's file:line:col
//	defer prog.Close()
//	proc, err := prog.Start(ctx)
//	if err != nil { ... }
//	defer proc.Close()
//	for _, k := range proc.Kinds() { ... } // hub and spokes per group/kind
//	out, err := proc.Convert(ctx, objs, "conv.example.com/v1")
//
// A Process is safe for concurrent use, and the program answers its
// requests concurrently. A request the API's code fails fails alone,
// whatever is in flight beside it: one that does not answer within
// Process.Timeout fails with the timeout (the program goes on); when the
// program exits (os.Exit, a panic, out of memory), the request that was
// alone in flight fails with the reason, and the others are run again,
// each alone in a program started for it, so that only the request that
// makes it exit fails. The next request starts it again, until requests
// have made it exit MaxRestarts times. Each run has a memory limit
// (Program.MemoryLimit, DefaultMemoryLimit: RLIMIT_DATA on Linux, with
// three quarters of it as GOMEMLIMIT; GOMEMLIMIT only elsewhere), and a
// request it fails is a *ProgramError with OutOfMemory. A line of the
// program's output longer than an answer may be (answerFactor times the
// largest request, and at least 12 MiB: four times the apiserver's 3 MiB
// request limit) is not read: the program is stopped, and the request
// fails saying that the API's code writes to standard output. Convert
// sends all its objects in one ConversionReview. Handler serves
// ConversionReviews over HTTP through the process, for a client that calls
// webhooks itself (the apiserver's webhook converter).
package convprog
