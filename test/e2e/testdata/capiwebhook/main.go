// Command capiwebhook serves cluster-api v1.14.2's conversion webhook as
// its managers do: controller-runtime's webhook server with
// conversion.NewWebhookHandler at /convert, and cluster-api's 17
// Converters (the vars of core/webhooks/conversion,
// bootstrap/kubeadm/webhooks/conversion and
// controlplane/kubeadm/webhooks/conversion) registered in a
// conversion.NewRegistry() under their GroupKinds, as controller-runtime's
// webhook builder (WithConverter, then Complete) registers them.
//
//	capiwebhook --cert-dir DIR --kubeconfig FILE [--host 127.0.0.1] [--port 9443]
//
// DIR holds tls.crt and tls.key. FILE is the cluster whose CRDs the
// APIVersionGetter reads (cluster-api's contract labels), as cluster-api's
// internal/test/envtest/environment.go sets it with the manager's client.
// The server runs until SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/go-logr/logr/funcr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	k8sversion "k8s.io/apimachinery/pkg/version"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager/signals"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	addonsv1beta1 "sigs.k8s.io/cluster-api/api/addons/v1beta1"
	addonsv1 "sigs.k8s.io/cluster-api/api/addons/v1beta2"
	bootstrapv1beta1 "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta1"
	bootstrapv1 "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta2"
	controlplanev1beta1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta1"
	controlplanev1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta2"
	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	ipamv1alpha1 "sigs.k8s.io/cluster-api/api/ipam/v1alpha1"
	ipamv1beta1 "sigs.k8s.io/cluster-api/api/ipam/v1beta1"
	ipamv1 "sigs.k8s.io/cluster-api/api/ipam/v1beta2"
	runtimev1alpha1 "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
	runtimev1 "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
	bootstrapconversion "sigs.k8s.io/cluster-api/bootstrap/kubeadm/webhooks/conversion"
	controlplaneconversion "sigs.k8s.io/cluster-api/controlplane/kubeadm/webhooks/conversion"
	coreconversion "sigs.k8s.io/cluster-api/core/webhooks/conversion"
	"sigs.k8s.io/cluster-api/util/contract"
)

// converters are cluster-api's Converters by the hub type each
// SetupWebhookWithManager passes to ctrl.NewWebhookManagedBy.
var converters = []struct {
	hub client.Object
	new func(*runtime.Scheme) (conversion.Converter, error)
}{
	{&clusterv1.Cluster{}, coreconversion.Cluster},
	{&clusterv1.ClusterClass{}, coreconversion.ClusterClass},
	{&addonsv1.ClusterResourceSet{}, coreconversion.ClusterResourceSet},
	{&addonsv1.ClusterResourceSetBinding{}, coreconversion.ClusterResourceSetBinding},
	{&runtimev1.ExtensionConfig{}, coreconversion.ExtensionConfig},
	{&ipamv1.IPAddress{}, coreconversion.IPAddress},
	{&ipamv1.IPAddressClaim{}, coreconversion.IPAddressClaim},
	{&clusterv1.Machine{}, coreconversion.Machine},
	{&clusterv1.MachineDeployment{}, coreconversion.MachineDeployment},
	{&clusterv1.MachineDrainRule{}, coreconversion.MachineDrainRule},
	{&clusterv1.MachineHealthCheck{}, coreconversion.MachineHealthCheck},
	{&clusterv1.MachinePool{}, coreconversion.MachinePool},
	{&clusterv1.MachineSet{}, coreconversion.MachineSet},
	{&bootstrapv1.KubeadmConfig{}, bootstrapconversion.KubeadmConfig},
	{&bootstrapv1.KubeadmConfigTemplate{}, bootstrapconversion.KubeadmConfigTemplate},
	{&controlplanev1.KubeadmControlPlane{}, controlplaneconversion.KubeadmControlPlane},
	{&controlplanev1.KubeadmControlPlaneTemplate{}, controlplaneconversion.KubeadmControlPlaneTemplate},
}

func main() {
	certDir := flag.String("cert-dir", "", "directory that holds the serving certificate tls.crt and its key tls.key")
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster whose CRDs the APIVersionGetter reads")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", webhook.DefaultPort, "port to listen on")
	flag.Parse()
	if *certDir == "" || *kubeconfig == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	logf.SetLogger(funcr.New(func(prefix, args string) {
		fmt.Fprintln(os.Stderr, prefix, args)
	}, funcr.Options{}))

	// The scheme of cluster-api's core, kubeadm bootstrap and kubeadm
	// control plane managers (their main.go), together.
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme,
		clusterv1beta1.AddToScheme, clusterv1.AddToScheme,
		addonsv1beta1.AddToScheme, addonsv1.AddToScheme,
		runtimev1alpha1.AddToScheme, runtimev1.AddToScheme,
		ipamv1alpha1.AddToScheme, ipamv1beta1.AddToScheme, ipamv1.AddToScheme,
		bootstrapv1beta1.AddToScheme, bootstrapv1.AddToScheme,
		controlplanev1beta1.AddToScheme, controlplanev1.AddToScheme,
	} {
		utilruntime.Must(add(scheme))
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	utilruntime.Must(err)
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	utilruntime.Must(err)
	getter := func(ctx context.Context, gk schema.GroupKind) (string, error) {
		return getAPIVersion(ctx, c, gk)
	}
	controlplaneconversion.SetAPIVersionGetter(getter)
	coreconversion.SetAPIVersionGetter(getter)

	registry := conversion.NewRegistry()
	for _, cv := range converters {
		gvks, _, err := scheme.ObjectKinds(cv.hub)
		utilruntime.Must(err)
		converter, err := cv.new(scheme)
		utilruntime.Must(err)
		utilruntime.Must(registry.RegisterConverter(gvks[0].GroupKind(), converter))
	}

	server := webhook.NewServer(webhook.Options{Host: *host, Port: *port, CertDir: *certDir})
	server.Register("/convert", conversion.NewWebhookHandler(scheme, registry))
	if err := server.Start(signals.SetupSignalHandler()); err != nil {
		fmt.Fprintln(os.Stderr, "capiwebhook:", err)
		os.Exit(1)
	}
}

// getAPIVersion is cluster-api v1.14.2's internal/contract GetAPIVersion
// (which this module cannot import): the latest apiVersion of gk that the
// contract labels of its CRD name, for the contract v1beta2 and the
// contracts compatible with it (v1beta1).
func getAPIVersion(ctx context.Context, c client.Reader, gk schema.GroupKind) (string, error) {
	meta := &metav1.PartialObjectMetadata{}
	meta.SetName(contract.CalculateCRDName(gk.Group, gk.Kind))
	meta.SetGroupVersionKind(apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"))
	if err := c.Get(ctx, client.ObjectKeyFromObject(meta), meta); err != nil {
		return "", fmt.Errorf("failed to get apiVersion for kind %s: failed to get CustomResourceDefinition metadata: %w", gk.Kind, err)
	}
	labels := meta.GetLabels()
	for _, contractVersion := range []string{clusterv1.GroupVersion.Version, "v1beta1"} {
		supported, ok := labels[clusterv1.GroupVersion.Group+"/"+contractVersion]
		if !ok || supported == "" {
			continue
		}
		versions := strings.Split(supported, "_")
		sort.Slice(versions, func(i, j int) bool {
			return k8sversion.CompareKubeAwareVersionStrings(versions[i], versions[j]) < 0
		})
		return schema.GroupVersion{Group: gk.Group, Version: versions[len(versions)-1]}.String(), nil
	}
	return "", fmt.Errorf("failed to get apiVersion for kind %s: cannot find any versions matching contract versions [v1beta2 v1beta1] for CRD %s as contract version label(s) are either missing or empty", gk.Kind, meta.GetName())
}
