//go:build tools

// Package kubebuilder pins the kubebuilder CLI used by the e2e test of
// cmd/kubebuilder-plugin.
package kubebuilder

import (
	_ "sigs.k8s.io/kubebuilder/v4"
)
