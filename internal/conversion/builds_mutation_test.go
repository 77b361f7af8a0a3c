//go:build mutation

package conversion

// buildsLeftOut: under build tag mutation (make mutation, see
// docs/testing.md, "Mutation testing") the tests that build a conversion
// program or download cluster-api are left out: each took from seconds to
// minutes of every mutant's run, and none is the test of a rule.
const buildsLeftOut = true
