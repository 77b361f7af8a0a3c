// Package v1 turns implicit defaults off for the whole package; explicit
// +default markers still apply.
// +groupName=optout.example.com
// +implicitDefaults=false
package v1
