// Package dropin holds API shapes from real modules on which controller-gen
// v0.23.0 succeeds and controller-gen-default once failed: crdgen's
// TestDropInShapes checks the drop-in invariant on each.
package dropin
