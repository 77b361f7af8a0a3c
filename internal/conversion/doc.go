// Package conversion is what `controller-gen-default conversion` runs: it
// finds, with an API's own Go conversion code, the fields that a round
// trip between versions loses or changes and the defaults that disagree across
// versions, at the Go fields that declare them.
//
// An API with several versions converts in Go: the hub version's root
// type implements controller-runtime's conversion.Hub, the spokes'
// conversion.Convertible (ConvertTo, ConvertFrom), or a
// conversion.Converter is registered for the kind with the webhook
// builder's WithConverter (or a Registry's RegisterConverter), and the
// conversion webhook (sigs.k8s.io/controller-runtime/pkg/webhook/conversion)
// serves them to the apiserver. The apiserver (k8s.io/apiextensions-apiserver
// pkg/apiserver/customresource_handler.go) defaults a request's object at
// the version it is sent at, converts it to the storage version and
// stores it; it defaults what it reads from storage at the storage
// version, then converts it to the version a client asks for, and prunes
// every converted object with the target version's schema, without
// defaulting it again.
//
// The command takes the pieces from where they are:
//
//   - the conversions' code, found by structure in the packages given
//     (./... at the module's root; convprog.Discover): when nothing
//     converts, the command says so and stops, building nothing. The calls
//     of main that set state the conversions read are noted; without
//     --setup, the failed conversions of the run are one
//     conversion-needs-setup finding per such call
//     (convprog.Program.FailuresUnknown; setup.go);
//   - the API's packages (those of the converted kinds' Go types), loaded
//     as the crd generator loads them, and
//     their CRDs, generated in memory by the crd generator (or read with
//     --crd); the crd generator's field model (package internal/model)
//     places each finding at the Go field of its JSON path;
//   - the conversions, from a program built against the user's module
//     that serves them with controller-runtime's own
//     conversion.NewWebhookHandler (package internal/convprog), which also
//     says which kinds have a hub and spokes;
//   - the apiserver's handling, from its own code: the request decoder's
//     pruning and defaulting and the registry strategy's validation
//     (package internal/apiserver/objectpath, Version.Create), the converter's and
//     the storage codec's pruning (Version.Coerce) and the storage codec's
//     defaulting (Version.Default).
//
// Random objects of every version are filled from the CRD's structural
// schema (no Go test code per type) and made valid at their version; the
// rules are one function each: roundTrip (conversion-lost-field), Defaults
// (conversion-default-mismatch), and the refusals convert collects
// (conversion-failed). Run returns the findings of Options, Write writes
// them, and Report does both and returns the exit status; the command, its
// flags and usage, is package cmd/internal/objects/conversioncmd.
// docs/conversion.md describes the command.
package conversion
