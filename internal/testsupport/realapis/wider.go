package realapis

// The modules that widen the acceptance test beyond Default and Others:
// more projects that run controller-gen to make their CRDs. Each Source
// quotes the project's own command line (crd options and paths), read in the
// module's zip in the module cache unless it says otherwise ("the GitHub
// repository's": a copy of the repository, of another commit than the tag,
// when the Makefile is outside the module). Where the command line names
// whole-module paths (paths="./..."), Packages are the module's packages that
// hold a +groupName: the crd generator writes CRDs for those only, so the
// files are the same.
//
// Versions: the newest release the Go module proxy serves whose go directive
// Go 1.26.8 satisfies (GOTOOLCHAIN=local). Passed over: karpenter v1.14.3
// and v1.15.0 (go 1.26.10, 1.26.9), flux image-reflector-controller/api and
// image-automation-controller/api v1.3.0 (go 1.27.0); lws v0.10.0 (the proxy
// refuses it: 403). Left out: cluster-api-provider-vsphere v1.16.1 (its
// go.mod requires sigs.k8s.io/cluster-api v0.0.0 and replaces it, which a
// dependent module ignores), argo-rollouts v1.10.1 (its API packages import
// k8s.io/kubernetes, whose k8s.io/kubelet v0.0.0 only the replaces of its
// own go.mod resolve),
// open-cluster-management.io/api (schemapatch, not crd), volcano.sh/apis (the
// proxy refuses every version tried), vertical-pod-autoscaler (its
// hack/generate-crd-yaml.sh ignores controller-gen's non-zero exit),
// mcs-api (schemapatch).
var (
	// Jobset's Makefile manifests target.
	Jobset = Module{
		Name:       "jobset",
		Path:       "sigs.k8s.io/jobset",
		Version:    "v0.12.0",
		Packages:   []string{"api/..."},
		CRDOptions: []string{"generateEmbeddedObjectMeta=true"},
		Source:     `Makefile manifests: controller-gen rbac:roleName=manager-role ... crd:generateEmbeddedObjectMeta=true output:crd:artifacts:config=config/components/crd/bases paths="./api/..."`,
	}
	// LWS v0.10.0 is refused by the module proxy (403); v0.9.0 is served.
	LWS = Module{
		Name:       "lws",
		Path:       "sigs.k8s.io/lws",
		Version:    "v0.9.0",
		Packages:   []string{"api/..."},
		CRDOptions: []string{"generateEmbeddedObjectMeta=true"},
		Source: `Makefile manifests: controller-gen rbac:roleName=manager-role ... crd:generateEmbeddedObjectMeta=true output:crd:artifacts:config=config/crd/bases webhook ... paths="{./api/..., ./pkg/...}" ` +
			`(./pkg/... holds no +groupName)`,
	}
	GatewayAPIInferenceExtension = Module{
		Name:     "gateway-api-inference-extension",
		Path:     "sigs.k8s.io/gateway-api-inference-extension",
		Version:  "v1.6.0",
		Packages: []string{"api/...", "apix/..."},
		Source:   `Makefile generate: controller-gen crd output:dir="./config/crd/bases" paths="./..." (+groupName in api/v1 and apix/v1alpha1 only)`,
	}
	// NetworkPolicyAPI, like gateway-api, writes its release CRDs with its
	// own generator (pkg/generator); hack/crd-e2e.sh runs plain
	// controller-gen on the same packages, which is the invocation used here.
	NetworkPolicyAPI = Module{
		Name:     "network-policy-api",
		Path:     "sigs.k8s.io/network-policy-api",
		Version:  "v0.3.0",
		Packages: []string{"apis/..."},
		Source:   `hack/crd-e2e.sh: go run sigs.k8s.io/controller-tools/cmd/controller-gen rbac:roleName=manager-role crd paths=./apis/... output:crd:dir=./config/crd/bases`,
	}
	KWOK = Module{
		Name:       "kwok",
		Path:       "sigs.k8s.io/kwok",
		Version:    "v0.8.0",
		Packages:   []string{"pkg/apis/v1alpha1"},
		CRDOptions: []string{"allowDangerousTypes=true"},
		Source:     `hack/update-controllergen.sh: controller-gen rbac:roleName=kwok-controller crd:allowDangerousTypes=true paths=./pkg/apis/v1alpha1/ output:crd:artifacts:config=kustomize/crd/bases`,
	}
	// Karpenter v1.14.3 and v1.15.0 say go 1.26.10 and go 1.26.9.
	Karpenter = Module{
		Name:     "karpenter",
		Path:     "sigs.k8s.io/karpenter",
		Version:  "v1.14.1",
		Packages: []string{"pkg/apis/..."},
		Source:   `pkg/apis/apis.go: //go:generate go tool controller-gen crd object:headerFile=... paths="./..." output:crd:artifacts:config=crds`,
	}
	HierarchicalNamespaces = Module{
		Name:     "hierarchical-namespaces",
		Path:     "sigs.k8s.io/hierarchical-namespaces",
		Version:  "v1.1.0",
		Packages: []string{"api/..."},
		Source: `Makefile manifests: controller-gen crd rbac:roleName=manager-role webhook paths="./api/..." paths="./cmd/..." paths="./internal/..." output:crd:artifacts:config=config/crd/bases ` +
			`(./cmd and ./internal hold no +groupName)`,
	}
	SecretsStoreCSIDriver = Module{
		Name:       "secrets-store-csi-driver",
		Path:       "sigs.k8s.io/secrets-store-csi-driver",
		Version:    "v1.6.0",
		Packages:   []string{"apis/..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source: `Makefile manifests: controller-gen "crd:crdVersions=v1" rbac:roleName=secretproviderclasses-role object:... paths="./apis/..." paths="./controllers" output:crd:artifacts:config=config/crd/bases ` +
			`(./controllers holds no +groupName)`,
	}
	// SchedulerPlugins generates, besides its own API, the CRDs of four
	// API packages of other modules its go.mod requires.
	SchedulerPlugins = Module{
		Name:     "scheduler-plugins",
		Path:     "sigs.k8s.io/scheduler-plugins",
		Version:  "v0.34.7",
		Packages: []string{"apis/scheduling/v1alpha1/..."},
		Imports: []string{
			"github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2",
			"github.com/diktyo-io/appgroup-api/pkg/apis/...",
			"github.com/diktyo-io/networktopology-api/pkg/apis/...",
			"sigs.k8s.io/security-profiles-operator/api/seccompprofile/v1beta1/...",
		},
		Source: `hack/verify-crdgen.sh: controller-gen crd paths="./apis/scheduling/v1alpha1/...;github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2;` +
			`github.com/diktyo-io/appgroup-api/pkg/apis/...;github.com/diktyo-io/networktopology-api/pkg/apis/...;sigs.k8s.io/security-profiles-operator/api/seccompprofile/v1beta1/..." output:dir="./manifests/crds"`,
	}

	// The cluster-api providers and operator.
	ClusterAPIOperator = Module{
		Name:       "cluster-api-operator",
		Path:       "sigs.k8s.io/cluster-api-operator",
		Version:    "v0.29.0",
		Packages:   []string{"api/..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source: `Makefile generate-manifests: controller-gen paths=./cmd paths=./api/... paths=./internal/controller/... paths=./internal/webhook/... crd:crdVersions=v1 rbac:roleName=manager-role output:crd:dir=./config/crd/bases ... ` +
			`(only ./api/... holds a +groupName)`,
	}
	ClusterAPIProviderAWS = Module{
		Name:    "cluster-api-provider-aws",
		Path:    "sigs.k8s.io/cluster-api-provider-aws/v2",
		Version: "v2.13.0",
		Packages: []string{"api/...", "exp/api/...", "bootstrap/eks/api/...", "controlplane/eks/api/...",
			"controlplane/rosa/api/...", "iam/api/..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source: `Makefile generate-go-apis: controller-gen paths=./ paths=./api/... paths=./exp/api/... paths=./bootstrap/eks/api/... paths=./controlplane/eks/api/... paths=./controlplane/rosa/api/... paths=./iam/api/... ` +
			`paths=<four controllers directories> output:crd:dir=config/crd/bases object:... crd:crdVersions=v1 rbac:roleName=manager-role webhook (the root and controllers hold no +groupName)`,
	}
	ClusterAPIProviderAzure = Module{
		Name:       "cluster-api-provider-azure",
		Path:       "sigs.k8s.io/cluster-api-provider-azure",
		Version:    "v1.26.0",
		Packages:   []string{"api/...", "exp/api/..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source: `Makefile generate-manifests: controller-gen paths=./api/... paths=./exp/api/... paths=./internal/webhooks/... paths=./internal/exp/webhooks/... crd:crdVersions=v1 rbac:roleName=base-manager-role output:crd:dir=... webhook ` +
			`(the webhooks hold no +groupName)`,
	}
	ClusterAPIProviderOpenStack = Module{
		Name:       "cluster-api-provider-openstack",
		Path:       "sigs.k8s.io/cluster-api-provider-openstack",
		Version:    "v0.14.7",
		Packages:   []string{"api/..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `Makefile generate-manifests: controller-gen paths=./api/... crd:crdVersions=v1 output:crd:dir=$(CRD_ROOT)`,
	}
	// Metal3BareMetalOperator is baremetal-operator's apis module; the
	// Makefile is the root module's (github.com/metal3-io/baremetal-operator
	// v0.13.2, read in the module cache).
	Metal3BareMetalOperator = Module{
		Name:       "metal3-baremetal-operator",
		Path:       "github.com/metal3-io/baremetal-operator/apis",
		Version:    "v0.13.2",
		Packages:   []string{"..."},
		CRDOptions: []string{"allowDangerousTypes=true", "crdVersions=v1"},
		Source:     `github.com/metal3-io/baremetal-operator@v0.13.2 Makefile manifests-generate: cd apis; controller-gen "crd:allowDangerousTypes=true,crdVersions=v1" rbac:roleName=manager-role webhook paths="./..." output:crd:artifacts:config=...`,
	}

	// CNCF and other operators.
	KubeRay = Module{
		Name:       "kuberay",
		Path:       "github.com/ray-project/kuberay/ray-operator",
		Version:    "v1.5.0",
		Packages:   []string{"apis/..."},
		CRDOptions: []string{"maxDescLen=0", "generateEmbeddedObjectMeta=true", "allowDangerousTypes=true"},
		Source: `Makefile manifests: controller-gen "crd:maxDescLen=0,generateEmbeddedObjectMeta=true,allowDangerousTypes=true" rbac:roleName=kuberay-operator webhook paths="./..." output:crd:artifacts:config=config/crd/bases ` +
			`(+groupName in apis/ only)`,
	}
	// KubeflowTrainingOperator is the v1 training operator (its last
	// release, before kubeflow trainer v2).
	KubeflowTrainingOperator = Module{
		Name:       "kubeflow-training-operator",
		Path:       "github.com/kubeflow/training-operator",
		Version:    "v1.8.1",
		Packages:   []string{"pkg/apis/..."},
		CRDOptions: []string{"generateEmbeddedObjectMeta=true", "maxDescLen=400"},
		Source: `Makefile manifests: controller-gen "crd:generateEmbeddedObjectMeta=true,maxDescLen=400" rbac:roleName=training-operator webhook paths="./pkg/..." output:crd:artifacts:config=manifests/base/crds ... ` +
			`(+groupName in pkg/apis only)`,
	}
	SparkOperator = Module{
		Name:       "spark-operator",
		Path:       "github.com/kubeflow/spark-operator/v2",
		Version:    "v2.5.2",
		Packages:   []string{"api/..."},
		CRDOptions: []string{"generateEmbeddedObjectMeta=true"},
		Source: `Makefile manifests: controller-gen crd:generateEmbeddedObjectMeta=true rbac:roleName=spark-operator-controller webhook paths="./..." output:crd:artifacts:config=config/crd/bases ` +
			`(+groupName in api/ only)`,
	}
	KEDA = Module{
		Name:       "keda",
		Path:       "github.com/kedacore/keda/v2",
		Version:    "v2.21.0",
		Packages:   []string{"apis/..."},
		CRDOptions: []string{"crdVersions=v1", "generateEmbeddedObjectMeta=true"},
		Source: `Makefile manifests: controller-gen crd:crdVersions=v1,generateEmbeddedObjectMeta=true rbac:roleName=keda-operator paths="./apis/..." paths="./controllers/..." paths="./pkg/..." output:crd:artifacts:config=config/crd/bases ` +
			`(+groupName in apis/ only)`,
	}
	// Velero runs controller-gen once per API version with the same
	// options; the two packages' kinds differ, so one run writes the same
	// files.
	Velero = Module{
		Name:       "velero",
		Path:       "github.com/vmware-tanzu/velero",
		Version:    "v1.18.3",
		Packages:   []string{"pkg/apis/velero/v1/...", "pkg/apis/velero/v2alpha1/..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source: `hack/update-3generated-crd-code.sh: controller-gen crd:crdVersions=v1 paths=./pkg/apis/velero/v1/... paths=./pkg/controller/... output:crd:artifacts:config=config/crd/v1/bases object ..., ` +
			`and the same with v2alpha1 (./pkg/controller holds no +groupName)`,
	}
	// Kyverno's codegen-crds-kyverno, -policyreport and -reports targets
	// run controller-gen with the same crd options on ./api/kyverno/{v1,
	// v1beta1,v2,v2alpha1,v2beta1}/..., ./api/policyreport/... and
	// ./api/reports/...; their groups differ, so one run writes the same
	// files. (codegen-crds-policies names another module,
	// github.com/kyverno/api.)
	Kyverno = Module{
		Name:       "kyverno",
		Path:       "github.com/kyverno/kyverno",
		Version:    "v1.19.1",
		Packages:   []string{"api/kyverno/v1/...", "api/kyverno/v1beta1/...", "api/kyverno/v2/...", "api/kyverno/v2alpha1/...", "api/kyverno/v2beta1/...", "api/policyreport/...", "api/reports/..."},
		CRDOptions: []string{"crdVersions=v1", "ignoreUnexportedFields=true", "generateEmbeddedObjectMeta=false"},
		Source: `Makefile codegen-crds-kyverno, codegen-crds-policyreport, codegen-crds-reports: controller-gen paths=./api/kyverno/<v1,v1beta1,v2,v2alpha1,v2beta1>/... | paths=./api/policyreport/... | paths=./api/reports/... ` +
			`crd:crdVersions=v1,ignoreUnexportedFields=true,generateEmbeddedObjectMeta=false output:dir=...`,
	}
	ExternalSnapshotter = Module{
		Name:     "external-snapshotter",
		Path:     "github.com/kubernetes-csi/external-snapshotter/client/v8",
		Version:  "v8.7.0",
		Packages: []string{"apis/..."},
		Source:   `hack/update-crd.sh: controller-gen crd paths=${SCRIPT_ROOT}/apis/...`,
	}
	Kro = Module{
		Name:     "kro",
		Path:     "github.com/kubernetes-sigs/kro",
		Version:  "v0.9.4",
		Packages: []string{"api/..."},
		Source:   `Makefile manifests: controller-gen crd webhook paths="./..." output:crd:artifacts:config=helm/crds (+groupName in api/ only)`,
	}
	GrafanaOperator = Module{
		Name:     "grafana-operator",
		Path:     "github.com/grafana/grafana-operator/v5",
		Version:  "v5.24.0",
		Packages: []string{"api/..."},
		Source:   `Makefile manifests: controller-gen rbac:roleName=manager-role webhook paths="./..." crd output:crd:artifacts:config=config/crd/bases (+groupName in api/ only)`,
	}
	Capsule = Module{
		Name:     "capsule",
		Path:     "github.com/projectcapsule/capsule",
		Version:  "v0.14.0",
		Packages: []string{"api/..."},
		Source:   `Makefile manifests: controller-gen crd paths="./..." output:crd:artifacts:config=charts/capsule/crds (+groupName in api/ only)`,
	}
	// Gatekeeper's mutation and expansion APIs keep "unversioned" packages
	// without +groupName, for which controller-gen writes CRDs with no
	// group (_assigns.yaml, …) that config/crd/bases commits: the one kind
	// of CRD crd writes unchecked (crd-without-group). Its command line
	// also names ./pkg/..., which holds no kind that reaches those files.
	Gatekeeper = Module{
		Name:     "gatekeeper",
		Path:     "github.com/open-policy-agent/gatekeeper/v3",
		Version:  "v3.23.1",
		Packages: []string{"apis/..."},
		Source:   `Makefile manifests: $(CONTROLLER_GEN) crd rbac:roleName=manager-role webhook paths="./apis/..." paths="./pkg/..." output:crd:artifacts:config=config/crd/bases`,
	}
	// The flux image automation API modules: the same manifests target as
	// the other flux repositories (CRD_OPTIONS ?= crd:crdVersions=v1; cd
	// api; controller-gen $(CRD_OPTIONS) rbac:roleName=manager-role
	// paths="./..."), read in copies of their GitHub repositories (the
	// proxy refuses the root modules at v1.2.5). v1.3.0 says go 1.27.0.
	FluxImageReflector = Module{
		Name:       "flux-image-reflector",
		Path:       "github.com/fluxcd/image-reflector-controller/api",
		Version:    "v1.2.5",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `github.com/fluxcd/image-reflector-controller Makefile manifests (the GitHub repository's): cd api; controller-gen crd:crdVersions=v1 rbac:roleName=manager-role paths="./..." output:crd:artifacts:config=...`,
	}
	FluxImageAutomation = Module{
		Name:       "flux-image-automation",
		Path:       "github.com/fluxcd/image-automation-controller/api",
		Version:    "v1.2.5",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `github.com/fluxcd/image-automation-controller Makefile manifests (the GitHub repository's): cd api; controller-gen crd:crdVersions=v1 rbac:roleName=manager-role paths="./..." output:crd:artifacts:config=...`,
	}
)

// Wider returns the modules above, which only the acceptance test runs.
func Wider() []Module {
	return []Module{
		Jobset, LWS, GatewayAPIInferenceExtension, NetworkPolicyAPI, KWOK, Karpenter, HierarchicalNamespaces,
		SecretsStoreCSIDriver, SchedulerPlugins,
		ClusterAPIOperator, ClusterAPIProviderAWS, ClusterAPIProviderAzure, ClusterAPIProviderOpenStack, Metal3BareMetalOperator,
		KubeRay, KubeflowTrainingOperator, SparkOperator, KEDA, Velero, Kyverno, ExternalSnapshotter, Kro,
		GrafanaOperator, Capsule, FluxImageReflector, FluxImageAutomation, Gatekeeper,
	}
}
