// Package acceptance holds the acceptance test on APIs that others wrote
// (internal/testsupport/realapis.Acceptance, 38 modules: gateway-api, prometheus-operator,
// cluster-api, kueue, six flux API modules, kubeflow trainer and training
// operator, external-secrets, cert-manager, jobset, lws,
// gateway-api-inference-extension, network-policy-api, kwok, karpenter,
// hierarchical-namespaces, secrets-store-csi-driver, scheduler-plugins,
// cluster-api-operator, cluster-api-provider-aws, -azure and -openstack,
// metal3's baremetal-operator, kuberay, spark-operator, keda, velero,
// kyverno, external-snapshotter, kro, grafana-operator, capsule and gatekeeper, each with
// the controller-gen command line of its own Makefile or script). The modules
// are prepared in the background, four at a time, and run GOMAXPROCS at a
// time. For each module it generates the CRDs with controller-gen v0.23.0,
// with controller-gen-default (default options and the project's) and with
// controller-gen-default crd:implicitDefaults=false, then checks:
//
//  0. exit status: where controller-gen exits 0, both runs of
//     controller-gen-default exit 0 (whose CRDs the apiserver's validation
//     has accepted: it checks them before it writes them); but where the
//     apiserver's validation refuses controller-gen's own CRD and
//     controller-gen-default says so (two storage versions in
//     external-snapshotter, a CEL rule over the cost budget in
//     network-policy-api): then the module's other checks are not run;
//  1. same acceptance: for every served version of every CRD, both CRDs
//     accept exactly the same objects, and refuse the others at the same
//     fields, through the apiserver's create path run in process
//     (pipeline.Create, as kubectl sends the object). The objects are the
//     repository's own samples found in the module's zip (any YAML file
//     whose apiVersion and kind are a served version of one of the module's
//     CRDs), random objects of the version's schema (conversion's filler,
//     made valid under controller-gen's CRD where it can be), and mutants of
//     both: one to three properties deleted at any depth (a required one
//     first, half of the time), one key misspelt (lowercased: the apiserver
//     prunes it as unknown, so the property is missing), and, for every
//     required property the objects have, one without it and one with its
//     key misspelt. A default that silences `required` turns a refusal into
//     an acceptance there. The required properties that controller-gen-default
//     defaults and controller-gen does not are mutated first, and those no
//     object reaches are listed in the log. Seeded: ACCEPTANCE_SEED=<n>
//     replays another run;
//  2. literals unchanged: wherever controller-gen's CRD has a default (from
//     +kubebuilder:default or +default), controller-gen-default's has the
//     same, byte for byte (the raw JSON of the CRD's apiextensionsv1.JSON);
//  3. findings: controller-gen-default's stderr, by severity and rule
//     (internal/testsupport/diaglines), and its number of lines, logged as a table;
//     struct-default-not-empty only where structDefaultFindings says why;
//  4. byte identity: with crd:implicitDefaults=false, controller-gen's
//     files byte for byte, but for the defaults of +default=ref(...)
//     markers, which controller-gen drops (realapistest.OnlyRefDefaults);
//  5. versions kept alike: the versions of a CRD whose openAPIV3Schema
//     controller-gen writes alike have equal schemas in
//     controller-gen-default's CRD too.
//
// ACCEPTANCE_MODULES=kueue,external-secrets runs those modules only (names
// of internal/testsupport/realapis). Skipped with -short. A module the Go module proxy refuses is skipped,
// and fails under CI=true. controller-gen-default is built from this
// checkout, or taken from $CGD_BIN (realapistest.OursBinary):
//
//	CGD_BIN=/path/to/controller-gen-default go test ./test/acceptance -count=1 -v
package acceptance
