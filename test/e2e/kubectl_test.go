package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/controller-gen-default/controller-gen-default/internal/normalize"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// The file differential: the same file given to `kubectl create -f` (the
// real kubectl, built with the envtest binaries) and to normalize. Reading
// the file is kubectl's part of a request: which documents are objects
// (empty and null ones are not), what a List stands for, and which
// namespace each object is sent to. normalize must send the same objects
// (the live apiserver then stores what normalize prints), refuse what
// kubectl refuses with the same words, and warn as the apiserver warns.
var _ = Describe("requests through kubectl: documents, Lists and namespaces", Ordered, func() {
	crdArgs := []string{"--crd", "testdata/notes.yaml", "--crd", "../../internal/apiserver/objectpath/testdata/crds/clusterthings.yaml"}
	var dir string
	// kubectl runs kubectl as a cluster admin (system:masters), as envtest's
	// own client is
	var kubectl func(args ...string) (stdout, stderr io.Reader, err error)

	BeforeAll(func() {
		if _, err := os.Stat(testEnv.ControlPlane.KubectlPath); testEnv.ControlPlane.KubectlPath == "" || err != nil {
			if os.Getenv("CI") != "" {
				Fail("kubectl is not in KUBEBUILDER_ASSETS: e2e/assets/build.sh builds it")
			}
			Skip("kubectl is not in KUBEBUILDER_ASSETS (e2e/assets/build.sh builds it)")
		}
		dir = GinkgoT().TempDir()
		admin, err := testEnv.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
		Expect(err).NotTo(HaveOccurred())
		k, err := admin.Kubectl()
		Expect(err).NotTo(HaveOccurred())
		kubectl = k.Run
		// the request tests install the CRDs too; whichever runs first does
		for _, f := range []string{"testdata/notes.yaml", "../../internal/apiserver/objectpath/testdata/crds/clusterthings.yaml"} {
			stdout, stderr, err := kubectl("apply", "--server-side", "-f", f)
			Expect(err).NotTo(HaveOccurred(), "%s%s", read(stdout), read(stderr))
		}
		stdout, stderr, err := kubectl("wait", "--for=condition=Established", "crd/notes.requests.example.com", "crd/clusterthings.example.com")
		Expect(err).NotTo(HaveOccurred(), "%s%s", read(stdout), read(stderr))
		ensureNamespace("team")
	})

	// both runs kubectl create and normalize on the same file with the same
	// flags (kubectl's --validate=warn is normalize's default, and its
	// --validate=strict is --strict), and returns what each said.
	both := func(name, content string, flags ...string) (live, offline fileRun) {
		GinkgoHelper()
		file := filepath.Join(dir, name+".yaml")
		Expect(os.WriteFile(file, []byte(content), 0o644)).To(Succeed())
		kubectlFlags := []string{"create", "-f", file}
		normalizeFlags := append(slices.Clone(crdArgs), "-o", "json")
		validate := "--validate=warn"
		for i := 0; i < len(flags); i++ {
			switch flags[i] {
			case "--strict":
				validate = "--validate=strict"
				normalizeFlags = append(normalizeFlags, "--strict")
			case "-n":
				kubectlFlags = append(kubectlFlags, "-n", flags[i+1])
				normalizeFlags = append(normalizeFlags, "-n", flags[i+1])
				i++
			}
		}
		stdout, stderr, err := kubectl(append(kubectlFlags, validate)...)
		live = fileRun{ok: err == nil, stdout: read(stdout), stderr: read(stderr)}
		var out, errb bytes.Buffer
		cmd := exec.Command(testkit.Binary(GinkgoT(), testkit.Objects), append([]string{"normalize"}, append(normalizeFlags, file)...)...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := 0
		if err := cmd.Run(); err != nil {
			ee, ok := errors.AsType[*exec.ExitError](err)
			Expect(ok).To(BeTrue(), "normalize: %v", err)
			code = ee.ExitCode()
		}
		offline = fileRun{ok: code == normalize.ExitOK, code: code, stdout: out.String(), stderr: errb.String()}
		fmt.Fprintf(GinkgoWriter, "%s\n  kubectl:   ok=%v %q %q\n  normalize: exit %d %q\n", name, live.ok, live.stdout, live.stderr, code, offline.stderr)
		return live, offline
	}

	// storedAsPrinted expects the live apiserver to hold each object that
	// normalize printed, as normalize printed it.
	storedAsPrinted := func(offline fileRun) int {
		GinkgoHelper()
		objs := printedObjects(offline.stdout)
		for _, o := range objs {
			u := &unstructured.Unstructured{}
			u.SetAPIVersion(o["apiVersion"].(string))
			u.SetKind(o["kind"].(string))
			m := o["metadata"].(map[string]any)
			ns, _ := m["namespace"].(string)
			Expect(k8s.Get(bg(), client.ObjectKey{Namespace: ns, Name: m["name"].(string)}, u)).To(Succeed(),
				"kubectl did not create %s %s/%s, which normalize printed", o["kind"], ns, m["name"])
			Expect(withoutServerSet(u.Object)).To(Equal(withoutServerSet(o)))
		}
		return len(objs)
	}

	It("skips empty, comment-only and null documents", func() {
		live, offline := both("empty-documents", "---\n---\n# only a comment\n---\nnull\n---\n"+
			"apiVersion: requests.example.com/v1\nkind: Note\nmetadata:\n  name: among-empty-documents\n---\n---\n")
		Expect(live.ok).To(BeTrue())
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(live.stdout).To(Equal("note.requests.example.com/among-empty-documents created\n"))
		Expect(storedAsPrinted(offline)).To(Equal(1))
	})

	It("sends nothing for a file of only separators", func() {
		live, offline := both("only-separators", "---\n---\n")
		// kubectl then complains that there was nothing to create;
		// normalize prints nothing (no JSON line) and exits 0
		Expect(live.stderr).To(Equal("error: no objects passed to create\n"))
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(offline.stdout).To(BeEmpty())
	})

	It("sends the items of a List and of a <Kind>List; a cluster-scoped object loses its namespace", func() {
		live, offline := both("lists", `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: requests.example.com/v1
  kind: Note
  metadata:
    name: list-item
- apiVersion: example.com/v2
  kind: ClusterThing
  metadata:
    name: list-item
    namespace: kustomized
  spec:
    data: x
---
apiVersion: requests.example.com/v1
kind: NoteList
items:
- metadata:
    name: kind-list-item
    namespace: team
  spec:
    size: L
`)
		Expect(live.ok).To(BeTrue())
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(storedAsPrinted(offline)).To(Equal(3))
	})

	// kubectl create clears a resourceVersion before it sends an object
	// (cli-runtime's resource.Helper.CreateWithOptions, modify true): a
	// kubectl get -o yaml dump, whose objects carry the server's metadata,
	// is created, not refused with "resourceVersion should not be set on
	// objects to be created".
	It("clears a dump's resourceVersion before the create, as kubectl create does", func() {
		live, offline := both("resource-version", `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: requests.example.com/v1
  kind: Note
  metadata:
    name: dumped-item
    namespace: team
    resourceVersion: "4242"
    uid: 1b4e28ba-2fa1-11d2-883f-0016d3cca427
    creationTimestamp: "2026-01-02T03:04:05Z"
    generation: 3
  spec:
    text: t
  status:
    phase: Running
---
apiVersion: requests.example.com/v1
kind: Note
metadata:
  name: dumped-alone
  resourceVersion: "17"
`)
		Expect(live.ok).To(BeTrue(), live.stderr)
		Expect(offline.code).To(Equal(normalize.ExitOK), offline.stderr)
		Expect(storedAsPrinted(offline)).To(Equal(2))
	})

	// -R, --recursive: a directory's subdirectories are read too, in the
	// order kubectl's filepath.Walk visits them (tree/b/ before tree/b.yaml)
	It("reads a directory's subdirectories with -R, in kubectl's order", func() {
		tree := filepath.Join(dir, "tree")
		for name, obj := range map[string]string{"b.yaml": "tree-b", "b/a.yaml": "tree-b-a", "a/z/z.yaml": "tree-a-z-z"} {
			p := filepath.Join(tree, name)
			Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
			Expect(os.WriteFile(p, []byte("apiVersion: requests.example.com/v1\nkind: Note\nmetadata:\n  name: "+obj+"\n"), 0o644)).To(Succeed())
		}
		stdout, stderr, err := kubectl("create", "-R", "-f", tree)
		live := read(stdout)
		Expect(err).NotTo(HaveOccurred(), "%s%s", live, read(stderr))
		var out, errb bytes.Buffer
		cmd := exec.Command(testkit.Binary(GinkgoT(), testkit.Objects), append([]string{"normalize"}, append(slices.Clone(crdArgs), "-o", "json", "-R", tree)...)...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		Expect(cmd.Run()).To(Succeed(), errb.String())
		var created []string
		for line := range strings.Lines(live) {
			created = append(created, strings.TrimSuffix(strings.TrimPrefix(line, "note.requests.example.com/"), " created\n"))
		}
		var printed []string
		for _, o := range printedObjects(out.String()) {
			printed = append(printed, o["metadata"].(map[string]any)["name"].(string))
		}
		Expect(printed).To(Equal(created))
		Expect(printed).To(Equal([]string{"tree-a-z-z", "tree-b-a", "tree-b"}))
		Expect(storedAsPrinted(fileRun{stdout: out.String()})).To(Equal(3))
	})

	It("sends an object without a namespace to -n's", func() {
		live, offline := both("namespace-flag", "apiVersion: requests.example.com/v1\nkind: Note\nmetadata:\n  name: in-team\n", "-n", "team")
		Expect(live.ok).To(BeTrue())
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(storedAsPrinted(offline)).To(Equal(1))
		Expect(printedObjects(offline.stdout)[0]["metadata"].(map[string]any)["namespace"]).To(Equal("team"))
	})

	It("refuses, with -n, an object of another namespace, in kubectl's words", func() {
		live, offline := both("namespace-mismatch", "apiVersion: requests.example.com/v1\nkind: Note\nmetadata:\n  name: mismatch\n  namespace: team\n", "-n", "default")
		Expect(live.ok).To(BeFalse())
		Expect(offline.code).To(Equal(normalize.ExitUnusable))
		msg := strings.TrimPrefix(strings.TrimSpace(live.stderr), "error: ")
		Expect(offline.stderr).To(HaveSuffix(": " + msg + "\n"))
	})

	It("warns of unknown fields with --validate=warn, and refuses them with --validate=strict", func() {
		obj := "apiVersion: requests.example.com/v1\nkind: Note\nmetadata:\n  name: %s\nspec:\n  extra: 1\n  text: t\n"
		live, offline := both("unknown-warn", fmt.Sprintf(obj, "unknown-warn"))
		Expect(live.ok).To(BeTrue())
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(warnings(offline.stderr)).To(Equal(warnings(live.stderr)))
		Expect(warnings(live.stderr)).To(Equal([]string{`unknown field "spec.extra"`}))
		Expect(storedAsPrinted(offline)).To(Equal(1))

		live, offline = both("unknown-strict", fmt.Sprintf(obj, "unknown-strict"), "--strict")
		Expect(live.ok).To(BeFalse())
		Expect(offline.code).To(Equal(normalize.ExitInvalid))
		Expect(live.stderr).To(ContainSubstring(`strict decoding error: unknown field "spec.extra"`))
		Expect(offline.stderr).To(HaveSuffix(`: error: unknown field "spec.extra"` + "\n"))

		// In a List, kubectl checks strict field validation itself, against
		// the server's OpenAPI schema, and sends no fieldValidation, so the
		// server warns (its default): the same verdicts in other words.
		list := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: requests.example.com/v1\n  kind: Note\n  metadata:\n    name: %s\n  spec:\n    extra: 1\n"
		live, offline = both("unknown-strict-list", fmt.Sprintf(list, "unknown-strict-list"), "--strict")
		Expect(live.ok).To(BeFalse())
		Expect(offline.code).To(Equal(normalize.ExitInvalid))
		Expect(live.stderr).To(ContainSubstring(`ValidationError(Note.spec): unknown field "extra"`))
		Expect(offline.stderr).To(HaveSuffix(`:1:1: error: unknown field "spec.extra"` + "\n"))

		live, offline = both("unknown-warn-list", fmt.Sprintf(list, "unknown-warn-list"))
		Expect(live.ok).To(BeTrue())
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(warnings(offline.stderr)).To(Equal(warnings(live.stderr)))
		Expect(warnings(live.stderr)).To(Equal([]string{`unknown field "spec.extra"`}))
		Expect(storedAsPrinted(offline)).To(Equal(1))
	})

	// kubectl decodes the file and sends the object it decoded, one value
	// per field: the apiserver never sees a duplicate that kubectl read.
	// normalize reports it as the apiserver reports the file's bytes (the
	// request tests check those words), and stores the same last value.
	It("sends the last value of a field given twice, without a word; normalize reports it", func() {
		obj := "apiVersion: requests.example.com/v1\nkind: Note\nmetadata:\n  name: %s\nspec:\n  text: a\n  text: b\n"
		live, offline := both("duplicate-warn", fmt.Sprintf(obj, "duplicate-warn"))
		Expect(live.ok).To(BeTrue())
		Expect(warnings(live.stderr)).To(BeEmpty())
		Expect(offline.code).To(Equal(normalize.ExitOK))
		Expect(warnings(offline.stderr)).To(Equal([]string{`duplicate field "spec.text"`}))
		Expect(storedAsPrinted(offline)).To(Equal(1))
		Expect(printedObjects(offline.stdout)[0]["spec"].(map[string]any)["text"]).To(Equal("b"))

		live, offline = both("duplicate-strict", fmt.Sprintf(obj, "duplicate-strict"), "--strict")
		Expect(live.ok).To(BeTrue(), "kubectl --validate=strict sends no duplicate")
		Expect(offline.code).To(Equal(normalize.ExitInvalid))
		Expect(offline.stderr).To(HaveSuffix(`: error: duplicate field "spec.text"` + "\n"))
	})
})

// fileRun is what kubectl or normalize did with a file.
type fileRun struct {
	ok             bool
	code           int
	stdout, stderr string
}

func read(r io.Reader) string {
	if r == nil {
		return ""
	}
	b, _ := io.ReadAll(r)
	return string(b)
}

// printedObjects are the objects of normalize -o json: one JSON object per
// line.
func printedObjects(stdout string) []map[string]any {
	GinkgoHelper()
	var objs []map[string]any
	for line := range strings.Lines(stdout) {
		var obj map[string]any
		Expect(json.Unmarshal([]byte(line), &obj)).To(Succeed(), "not a line of one JSON object: %q", line)
		Expect(obj).NotTo(BeNil(), "not a line of one JSON object: %q", line)
		objs = append(objs, obj)
	}
	return objs
}

var warningLine = regexp.MustCompile(`(?m)^(?:Warning: |[^ ]+:\d+(?::\d+)?: warning: )(.*)$`)

// warnings are the warnings kubectl (Warning: ...) or normalize
// (FILE:DOC: warning: ...) printed, sorted.
func warnings(stderr string) []string {
	var out []string
	for _, m := range warningLine.FindAllStringSubmatch(stderr, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}
