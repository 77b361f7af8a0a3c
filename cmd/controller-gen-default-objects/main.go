// Command controller-gen-default-objects runs the apiserver's code on
// objects: normalize (objects as the apiserver would store them on
// create), impact (what a CRD change does to stored objects) and
// conversion (what the API's conversion code loses). It is what
// `controller-gen-default normalize`, `impact` and `conversion` run, and
// takes the same arguments. See package cmd/internal/objects.
//
//	controller-gen-default-objects normalize --crd config/crd/bases config/samples/
package main

import "github.com/controller-gen-default/controller-gen-default/cmd/internal/objects"

func main() { objects.Main() }
