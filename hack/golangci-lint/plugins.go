package main

// The module plugins, as `golangci-lint custom` writes this file from
// .custom-gcl.yml.

import (
	_ "github.com/controller-gen-default/controller-gen-default/lint/plugin"
	_ "sigs.k8s.io/kube-api-linter"
)
