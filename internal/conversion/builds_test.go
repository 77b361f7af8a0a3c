//go:build !mutation

package conversion

// buildsLeftOut: the tests that build a conversion program (or download
// cluster-api to build one) run, unless -short (skipBuilds).
const buildsLeftOut = false
