// Package findings holds the warning budgets of controller-gen-default on
// real API modules (internal/realapis): what a user running the module's
// own Makefile invocation sees on stderr, counted as bench/ counts it. The
// test fetches the module through the Go module proxy once; later runs are
// offline. There is no code here, only findings_test.go.
package findings
