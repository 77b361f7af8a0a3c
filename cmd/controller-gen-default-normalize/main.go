// Command controller-gen-default-normalize prints objects as the apiserver
// would store them on create, and validates them as it would. It is what
// `controller-gen-default normalize` runs, and takes the same arguments:
//
//	controller-gen-default-normalize --crd config/crd/bases config/samples/my_v1_tour.yaml
//
// See package normalize/pipeline for the steps, the output and the exit
// statuses. It is not part of the controller-gen-default binary because the
// apiserver's custom-resource registry strategy it calls links the
// apiserver's storage layer, which a generator has no use for.
package main

import (
	"os"

	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

func main() {
	os.Exit(pipeline.RunCLI(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
