// Package findings holds the warning budgets of controller-gen-default on
// real API modules (internal/testsupport/realapis): what a user running the module's
// own Makefile invocation sees on stderr, counted as test/bench/ counts it. The
// test fetches the module through the Go module proxy once; later runs are
// offline. There is no code here, only findings_test.go.
package findings
