// Command controller-gen-default-normalize is the former name of
// controller-gen-default-objects, kept so that the Makefiles that install
// it (and `controller-gen-default normalize`, which looks for either
// name) keep working: the same program, the same arguments. See package
// cmd/internal/objects.
//
//	controller-gen-default-normalize --crd config/crd/bases config/samples/
package main

import "github.com/controller-gen-default/controller-gen-default/cmd/internal/objects"

func main() { objects.Main() }
