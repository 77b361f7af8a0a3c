// Command controller-gen-default-vet runs the KEP-1929 lint analyzers of
// package lint under go vet:
//
//	go vet -vettool=$(which controller-gen-default-vet) ./api/...
//
// Flags select analyzers as go vet's do (-omitemptystruct=false, ...);
// `controller-gen-default-vet help` lists them.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

func main() { unitchecker.Main(lint.Analyzers...) }
