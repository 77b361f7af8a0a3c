// Package e2e runs the generated CRDs against a real kube-apiserver and etcd
// (envtest), built from Go modules by `make envtest-assets`.
package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

var (
	testEnv *envtest.Environment
	k8s     client.Client
	// crdDir holds the CRDs the real binary generated from testdata/api.
	crdDir string
	// generator is the controller-gen-default binary under test.
	generator  string
	suiteStart time.Time
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "controller-gen-default e2e")
}

var _ = BeforeSuite(func() {
	suiteStart = time.Now()
	logf.SetLogger(GinkgoLogr) // client-go's warnings (unknown fields) go to the Ginkgo log
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		if os.Getenv("CI") != "" {
			Fail("KUBEBUILDER_ASSETS is not set: `make test` sets it from `make envtest-assets`")
		}
		Skip("KUBEBUILDER_ASSETS is not set: run `make envtest-assets` and export its last line, or use `make test`")
	}

	tmp, err := os.MkdirTemp("", "cgd-e2e-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, tmp)

	By("building controller-gen-default and generating the testdata CRDs with it")
	// built once for the go test run (internal/testsupport/testkit), with
	// controller-gen-default-objects next to it
	generator = testkit.Binary(GinkgoT(), testkit.Generator)
	crdDir = filepath.Join(tmp, "crd")
	run(filepath.Join("..", ".."), generator, "crd", "paths=./testdata/api/...", "output:crd:dir="+crdDir)

	By("starting kube-apiserver and etcd from " + assets)
	scheme := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(scheme)).To(Succeed())
	Expect(apiextensionsv1.AddToScheme(scheme)).To(Succeed())
	testEnv = &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDDirectoryPaths:     []string{crdDir},
		ErrorIfCRDPathMissing: true,
		Scheme:                scheme,
	}
	start := time.Now()
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred(), "the live apiserver must accept every CRD the generator writes")
	fmt.Fprintf(GinkgoWriter, "envtest started in %s\n", time.Since(start).Round(time.Millisecond))
	k8s, err = client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
})

var _ = AfterSuite(func() {
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
	fmt.Fprintf(os.Stderr, "e2e suite took %s\n", time.Since(suiteStart).Round(time.Second))
})

// run runs a command in dir and fails with its output.
func run(dir, name string, args ...string) {
	GinkgoHelper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s %v:\n%s", name, args, out)
}

func bg() context.Context { return context.Background() }
