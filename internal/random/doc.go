// Package random draws random values for the object commands and the
// property tests: objects and values of a CRD's structural schema, strings
// that match a schema's pattern, and JSON values over a vocabulary. It is
// a leaf: it imports no package of the module (crdgen's
// TestImportDirection pins it).
//
// # Determinism
//
// Every generator draws only from the *rand.Rand it is given, in an order
// fixed by its input (an object's properties in sorted order, never a
// map's order), so the same seed and the same input give the same value,
// on every run and every platform. The fixed-seed tests (conversion's,
// objectpath's TestLazyIsEager, impact's TestFastPathIsFullPath) and the
// conversion command's --seed, which replays a run's objects, rely on it.
// A change to the draws of Filler or PatternString changes the objects
// `conversion --seed=N` makes: keep their sequence of draws, or say so
// where the change is made. JSON's draws are for tests only.
//
// # The generators
//
//   - Object, Value and Filler: a random object or value of a structural
//     schema (k8s.io/apiextensions-apiserver's structuralschema.Structural,
//     as the apiserver reads a CRD's schema). Required properties are
//     always set, others one time in two (none with Filler.OnlyRequired);
//     enum, format, minimum and maximum (exclusive or not), multipleOf,
//     minLength and maxLength, minItems and maxItems, minProperties, list
//     sets and maps (no duplicate item or key), uniqueItems, embedded
//     resources and int-or-string are kept, and a pattern through
//     PatternString. Zero values (0, "", which omitempty loses) come often.
//     Below depth 8 of an object, objects are empty and lists hold their
//     minItems only (a value deep in an object starts at the depth of its
//     path, Filler.Value). What it cannot satisfy (CEL rules, oneOf, anyOf,
//     allOf, not, a pattern it fails to match) it ignores: the value may
//     then be refused, and callers validate it (conversion's Version.Valid
//     drops the fields refused).
//   - PatternString: a string that matches a pattern (Go's regexp, as the
//     apiserver checks it) within length bounds, from the pattern's syntax
//     tree; ok is false when none of a few tries matches.
//   - JSON and Vocabulary: a random JSON value (null, booleans, numbers,
//     strings, objects, arrays) nested at most a given depth, its keys,
//     strings and number ranges from a Vocabulary: values that are mostly
//     not of a schema, for tests that compare two paths on any input.
//
// Other random generators of the project stay where they are used:
// internal/testsupport/randapitest writes random Go API packages (types,
// markers and defaults) and is the test suite over that space of types
// (TestRuleOfThumb, TestDropIn), not a value generator;
// internal/testsupport/equivtest fills Go objects with sigs.k8s.io/randfill;
// internal/testsupport/mutants derives objects from others; internal/impact's
// TestCreatedAsReadRandomSchemas and test/e2e's randomUpgrade draw random
// schemas and their changes for their own checks.
package random
