// Package v2 is one of two versions of a kind in a protected group
// (*.k8s.io), which the apiserver refuses without an approval annotation.
// The error is about the whole CRD; it is reported once, at the root type
// of the first version.
// +groupName=protected.k8s.io
package v2
