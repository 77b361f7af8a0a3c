// Package cgdsetup is what a cluster-api maintainer adds to run
// controller-gen-default's impact with cluster-api's Converters
// (`impact --convert ./... --setup sigs.k8s.io/cluster-api/hack/cgdsetup.Setup`):
// the e2e (test/e2e/capi_test.go) copies it into a copy of cluster-api v1.14.2's
// module, at hack/cgdsetup.
//
// cluster-api's conversions from v1beta2 to v1beta1 ask an APIVersionGetter
// for the apiVersion of each reference (the latest version the contract
// labels of the referenced kind's CRD name); its managers set it with the
// manager's client (internal/test/envtest/environment.go:
// contract.GetAPIVersion(ctx, mgr.GetClient(), gk)). Without a cluster,
// Setup answers from the CRD files of the directories of
// $CGD_CAPI_CRDS (a path list), as deployed (with their labels), through
// the same contract.GetAPIVersion on a fake client that holds them.
package cgdsetup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	controlplaneconversion "sigs.k8s.io/cluster-api/controlplane/kubeadm/webhooks/conversion"
	coreconversion "sigs.k8s.io/cluster-api/core/webhooks/conversion"
	"sigs.k8s.io/cluster-api/internal/contract"
)

// Setup sets the APIVersionGetter of cluster-api's core and kubeadm
// control plane conversions.
func Setup() error {
	scheme := runtime.NewScheme()
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		return err
	}
	var objs []client.Object
	for _, dir := range filepath.SplitList(os.Getenv("CGD_CAPI_CRDS")) {
		crds, err := readCRDs(dir)
		if err != nil {
			return fmt.Errorf("cgdsetup: %w", err)
		}
		objs = append(objs, crds...)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
	getter := func(ctx context.Context, gk schema.GroupKind) (string, error) {
		return contract.GetAPIVersion(ctx, c, gk)
	}
	controlplaneconversion.SetAPIVersionGetter(getter)
	coreconversion.SetAPIVersionGetter(getter)
	return nil
}

// readCRDs reads the CRDs of the .yaml files of dir (name and labels).
func readCRDs(dir string) ([]client.Object, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var out []client.Object
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		d := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(r), 4096)
		for {
			var crd apiextensionsv1.CustomResourceDefinition
			err := d.Decode(&crd)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				r.Close()
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if crd.Kind != "CustomResourceDefinition" || strings.TrimSpace(crd.Name) == "" {
				continue
			}
			out = append(out, &apiextensionsv1.CustomResourceDefinition{
				ObjectMeta: crd.ObjectMeta,
			})
		}
		r.Close()
	}
	return out, nil
}
