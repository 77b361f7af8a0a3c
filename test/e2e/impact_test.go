package e2e

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// randomUpgrades is the number of random CRD upgrades per run.
const randomUpgrades = 10

// The impact command's predictions against a live apiserver: install OLD,
// create the objects, replace the CRDs with NEW, then GET each object and
// send it back unchanged, then changed at each value predicted to be held
// only by ratcheting. What GET returns and whether each update is refused
// (and for which fields) must be what impact predicted.
var _ = Describe("impact: predictions against the live apiserver", func() {
	It("agrees on the fixed upgrade of internal/impact/testdata", func() {
		old, err := crdcheck.LoadCRDs("../../internal/impact/testdata/old.yaml")
		Expect(err).NotTo(HaveOccurred())
		new, err := crdcheck.LoadCRDs("../../internal/impact/testdata/new.yaml")
		Expect(err).NotTo(HaveOccurred())
		objects := readObjects("../../internal/impact/testdata/objects.yaml", "../../internal/impact/testdata/list.yaml")
		n := checkUpgrade("fixed", old, new, objects, map[string]int{})
		fmt.Fprintf(GinkgoWriter, "impact fixed upgrade: %d objects checked\n", n)
	})

	It("agrees that dropping a stored version is refused", func() {
		// new-refused.yaml drops Gadget's v1beta1, OLD's storage version;
		// new-removed.yaml holds NEW's Widget. Another group than the case
		// above, whose CRDs may still be terminating.
		old, err := crdcheck.LoadCRDs("../../internal/impact/testdata/old.yaml")
		Expect(err).NotTo(HaveOccurred())
		new, err := crdcheck.LoadCRDs("../../internal/impact/testdata/new-removed.yaml", "../../internal/impact/testdata/new-refused.yaml")
		Expect(err).NotTo(HaveOccurred())
		objects := readObjects("../../internal/impact/testdata/objects.yaml")
		const group = "refused.impact.example.com"
		old, new, objects = regroup(old, group), regroup(new, group), regroupObjects(objects, group)
		n := checkUpgrade("refused", old, new, objects, map[string]int{})
		fmt.Fprintf(GinkgoWriter, "impact refused upgrade: %d objects checked\n", n)
	})

	It(fmt.Sprintf("agrees on %d random upgrades", randomUpgrades), func() {
		seed := uint64(time.Now().UnixNano())
		if s := os.Getenv("E2E_SEED"); s != "" {
			var err error
			seed, err = strconv.ParseUint(s, 10, 64)
			Expect(err).NotTo(HaveOccurred())
		}
		fmt.Fprintf(GinkgoWriter, "impact seed: %d (replay with E2E_SEED=%d)\n", seed, seed)
		AddReportEntry("impact seed", seed)
		r := rand.New(rand.NewPCG(seed, 1))
		checked, categories := 0, map[string]int{}
		for i := 0; i < randomUpgrades; i++ {
			u := randomUpgrade(r, fmt.Sprintf("r%d-%d.impact.example.com", i, seed%100000))
			checked += checkUpgrade(fmt.Sprintf("seed %d, upgrade %d", seed, i), []*apiextensionsv1.CustomResourceDefinition{u.old},
				[]*apiextensionsv1.CustomResourceDefinition{u.new}, u.objects, categories)
		}
		fmt.Fprintf(GinkgoWriter, "impact random upgrades: %d objects checked; categories %v\n", checked, categories)
		Expect(checked).To(BeNumerically(">", randomUpgrades), "too few objects were valid under OLD")
	})
})

// readObjects reads the objects of files as the command reads them
// (internal/input/manifest).
func readObjects(files ...string) []map[string]any {
	GinkgoHelper()
	var out []map[string]any
	for _, f := range files {
		file, err := os.Open(f)
		Expect(err).NotTo(HaveOccurred())
		for o, err := range manifest.All(f, file) {
			Expect(err).NotTo(HaveOccurred())
			out = append(out, o.Object)
		}
		Expect(file.Close()).To(Succeed())
	}
	return out
}

// regroup moves CRDs to another API group.
func regroup(crds []*apiextensionsv1.CustomResourceDefinition, group string) []*apiextensionsv1.CustomResourceDefinition {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, c := range crds {
		c = c.DeepCopy()
		c.Spec.Group = group
		c.Name = c.Spec.Names.Plural + "." + group
		out = append(out, c)
	}
	return out
}

// regroupObjects moves objects to another API group.
func regroupObjects(objects []map[string]any, group string) []map[string]any {
	var out []map[string]any
	for _, o := range objects {
		o = runtime.DeepCopyJSON(o)
		_, version, _ := strings.Cut(o["apiVersion"].(string), "/")
		o["apiVersion"] = group + "/" + version
		out = append(out, o)
	}
	return out
}

// probeField is a root field that only NEW has, with a default: GET shows
// it once the apiserver serves the object with NEW.
const probeField = "impactProbe"

// withProbe adds probeField, defaulted to token, to every version of each
// CRD: the apiserver applies a stored object's defaults with the schema of
// the version it is stored at.
func withProbe(crds []*apiextensionsv1.CustomResourceDefinition, token string) []*apiextensionsv1.CustomResourceDefinition {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, c := range crds {
		c = c.DeepCopy()
		for i := range c.Spec.Versions {
			s := c.Spec.Versions[i].Schema.OpenAPIV3Schema
			s.Properties[probeField] = apiextensionsv1.JSONSchemaProps{Type: "string",
				Default: &apiextensionsv1.JSON{Raw: []byte(strconv.Quote(token))}}
		}
		out = append(out, c)
	}
	return out
}

// checkUpgrade runs one upgrade through impact and the live apiserver and
// returns the number of objects compared after the upgrade, counting the
// records' categories into categories.
func checkUpgrade(name string, old, new []*apiextensionsv1.CustomResourceDefinition, objects []map[string]any, categories map[string]int) int {
	GinkgoHelper()
	token := fmt.Sprintf("p%d", time.Now().UnixNano())
	plain, err := impact.New(bg(), old, new) // for the categories, without the probe
	Expect(err).NotTo(HaveOccurred(), "%s: impact refuses the CRDs", name)
	new = withProbe(new, token)
	a, err := impact.New(bg(), old, new)
	Expect(err).NotTo(HaveOccurred(), "%s: impact refuses the CRDs", name)

	for _, c := range old {
		installCRD(c)
	}
	DeferCleanup(func() {
		for _, c := range old {
			_ = k8s.Delete(bg(), c.DeepCopy())
		}
	})

	var live []*impact.Record
	for i, obj := range objects {
		if ns, _, _ := unstructured.NestedString(obj, "metadata", "namespace"); ns != "" {
			ensureNamespace(ns)
		}
		rec, err := a.Object(bg(), obj)
		Expect(err).NotTo(HaveOccurred())
		if p, err := plain.Object(bg(), obj); err == nil {
			for _, c := range p.Categories {
				categories[c]++
			}
		}
		if createLive(fmt.Sprintf("%s, object %d", name, i), obj, rec) {
			live = append(live, rec)
		}
	}

	refused := map[string]bool{}
	for _, f := range a.Findings() {
		if f.Rule == impact.FindingUpdateRefused {
			refused[f.CRD] = true
		}
	}
	for _, c := range new {
		updateCRD(name, c, refused[c.Name])
	}

	checked := 0
	for _, rec := range live {
		if rec.Read == nil {
			continue
		}
		what := fmt.Sprintf("%s: %s %s", name, rec.Kind, rec.Name)
		got := readLive(rec, token)
		Expect(withoutMetadata(got)).To(Equal(withoutMetadata(rec.Read)), "%s: GET after the upgrade is not what impact predicted", what)
		checkNoopUpdate(what, got, rec, hasStatusSubresource(new, rec))
		checkTouches(what, rec)
		checked++
	}
	return checked
}

// ensureNamespace creates a namespace unless it exists.
func ensureNamespace(name string) {
	GinkgoHelper()
	ns := &corev1.Namespace{}
	ns.Name = name
	if err := k8s.Create(bg(), ns); err != nil && !apierrors.IsAlreadyExists(err) {
		Expect(err).NotTo(HaveOccurred())
	}
}

// installCRD creates a CRD and waits until it is established.
func installCRD(c *apiextensionsv1.CustomResourceDefinition) {
	GinkgoHelper()
	Expect(k8s.Create(bg(), c.DeepCopy())).To(Succeed())
	Eventually(func() bool {
		var got apiextensionsv1.CustomResourceDefinition
		return k8s.Get(bg(), keyOf(c.Name), &got) == nil && established(&got)
	}, 30*time.Second, 100*time.Millisecond).Should(BeTrue())
}

// updateCRD replaces the spec of the live CRD with c's; refused says that
// impact predicts the apiserver refuses it.
func updateCRD(name string, c *apiextensionsv1.CustomResourceDefinition, refused bool) {
	GinkgoHelper()
	var cur apiextensionsv1.CustomResourceDefinition
	if err := k8s.Get(bg(), keyOf(c.Name), &cur); apierrors.IsNotFound(err) {
		installCRD(c)
		return
	}
	cur.Spec = *c.Spec.DeepCopy()
	err := k8s.Update(bg(), &cur)
	if refused {
		Expect(err).To(HaveOccurred(), "%s: impact predicts the update of CRD %s is refused", name, c.Name)
	} else {
		Expect(err).NotTo(HaveOccurred(), "%s: impact predicts the update of CRD %s is accepted", name, c.Name)
	}
}

// createLive creates obj as a client would (without server-set metadata),
// writes its status through /status if it has one and the version has the
// subresource, and checks the outcome against step 1 of rec: refused by
// OLD, or stored as predicted. It returns whether the object exists.
func createLive(what string, obj map[string]any, rec *impact.Record) bool {
	GinkgoHelper()
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"} {
		unstructured.RemoveNestedField(u.Object, "metadata", f)
	}
	u.SetNamespace(rec.Namespace)
	status, hasStatus := u.Object["status"]
	err := k8s.Create(bg(), u)
	if err == nil && hasStatus && u.Object["status"] == nil {
		u.Object["status"] = status
		err = k8s.Status().Update(bg(), u)
	}
	if len(rec.InvalidUnderOld) > 0 {
		Expect(err).To(HaveOccurred(), "%s: impact predicts OLD refuses it: %v", what, rec.InvalidUnderOld)
		if u.GetUID() != "" {
			Expect(k8s.Delete(bg(), u)).To(Succeed())
		}
		return false
	}
	Expect(err).NotTo(HaveOccurred(), "%s: impact predicts OLD accepts it", what)
	got := getLive(rec.APIVersion, rec)
	Expect(withoutMetadata(got)).To(Equal(withoutMetadata(rec.Stored)), "%s: stored under OLD differently than predicted", what)
	return true
}

// getLive GETs the object at apiVersion.
func getLive(apiVersion string, rec *impact.Record) map[string]any {
	GinkgoHelper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(rec.Kind)
	Expect(k8s.Get(bg(), client.ObjectKey{Namespace: rec.Namespace, Name: rec.Name}, u)).To(Succeed())
	return u.Object
}

// readLive GETs the object at the version impact reads it at, once the
// apiserver serves it with NEW (the probe field is set).
func readLive(rec *impact.Record, token string) map[string]any {
	GinkgoHelper()
	apiVersion := rec.Read["apiVersion"].(string)
	var got map[string]any
	Eventually(func() any {
		got = getLive(apiVersion, rec)
		return got[probeField]
	}, 30*time.Second, 100*time.Millisecond).Should(Equal(token))
	return got
}

// checkNoopUpdate sends got back unchanged (and its status through /status
// when the version has the subresource): refused if and only if impact
// predicts it, with errors at the same fields.
func checkNoopUpdate(what string, got map[string]any, rec *impact.Record, statusSubresource bool) {
	GinkgoHelper()
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(got)}
	err := k8s.Update(bg(), u)
	fields := errorFields(err)
	if _, ok := got["status"]; ok && statusSubresource {
		s := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(got)}
		if err == nil {
			s.SetResourceVersion(u.GetResourceVersion())
		}
		fields = append(fields, errorFields(k8s.Status().Update(bg(), s))...)
	}
	Expect(rec.Update).NotTo(BeNil())
	Expect(sortedSet(fields)).To(Equal(sortedSet(problemFields(rec.Update.Problems))),
		"%s: the no-op update's refusals differ from impact's (%v)", what, rec.Update.Problems)
}

// checkTouches sends, for each value impact says is held only by
// ratcheting, the update that changes it: refused as predicted.
func checkTouches(what string, rec *impact.Record) {
	GinkgoHelper()
	for _, h := range rec.Ratcheted {
		if h.Touch == nil {
			continue
		}
		got := getLive(rec.Read["apiVersion"].(string), rec)
		v, err := jsonValue(h.Touch.Value)
		Expect(err).NotTo(HaveOccurred())
		Expect(setPath(got, h.Problem.Field, v)).To(Succeed())
		u := &unstructured.Unstructured{Object: got}
		if h.Touch.Subresource == "status" {
			err = k8s.Status().Update(bg(), u)
		} else {
			err = k8s.Update(bg(), u)
		}
		Expect(sortedSet(errorFields(err))).To(Equal(sortedSet(problemFields(h.Touch.Problems))),
			"%s: an update setting %s to %v: live %v, impact %v", what, h.Touch.Path, h.Touch.Value, err, h.Touch.Problems)
	}
}

// setPath sets the value at a field path of the form impact reports
// (`spec.a`, `status.b`: the touched values are fields of objects here).
func setPath(obj map[string]any, fieldPath string, v any) error {
	if err := unstructured.SetNestedField(obj, v, strings.Split(fieldPath, ".")...); err != nil {
		return fmt.Errorf("%s: %w", fieldPath, err)
	}
	return nil
}

// jsonValue is v as the JSON decoding of unstructured objects holds it.
func jsonValue(v any) (any, error) {
	var out any
	err := jsonUnmarshal([]byte(toJSON(v)), &out)
	if f, ok := out.(float64); ok && f == float64(int64(f)) {
		return int64(f), err
	}
	return out, err
}

// errorFields are the fields of a 422's causes ("" for other errors).
func errorFields(err error) []string {
	if err == nil {
		return nil
	}
	var status *apierrors.StatusError
	if !errors.As(err, &status) || status.ErrStatus.Details == nil || len(status.ErrStatus.Details.Causes) == 0 {
		return []string{"<" + err.Error() + ">"}
	}
	var out []string
	for _, c := range status.ErrStatus.Details.Causes {
		out = append(out, c.Field)
	}
	return out
}

func problemFields(ps []impact.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Field)
	}
	return out
}

func sortedSet(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// hasStatusSubresource says whether NEW's version the record is read at
// has the status subresource.
func hasStatusSubresource(crds []*apiextensionsv1.CustomResourceDefinition, rec *impact.Record) bool {
	for _, c := range crds {
		if c.Name != rec.CRD {
			continue
		}
		for _, v := range c.Spec.Versions {
			if v.Name == rec.ReadVersion && v.Subresources != nil && v.Subresources.Status != nil {
				return true
			}
		}
	}
	return false
}

// upgrade is a random CRD change with objects to store before it.
type upgrade struct {
	old, new *apiextensionsv1.CustomResourceDefinition
	objects  []map[string]any
}

// The changes a random upgrade makes to a field.
var fieldChanges = []string{"none", "add-default", "change-default", "remove-default", "remove-field", "tighten"}

// randomUpgrade builds a one-version CRD with eight string or integer
// fields under spec and two under spec.nested, changes each at random (see
// fieldChanges; tighten drops enum values of a string, or raises the
// minimum of an integer), maybe adds `default: {}` to spec.nested, and
// makes six objects with random values (some invalid under OLD).
func randomUpgrade(r *rand.Rand, group string) upgrade {
	oldSpec := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{}}
	newSpec := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{}}
	oldNested := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{}}
	newNested := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{}}
	var fields []randomField
	for i := 0; i < 10; i++ {
		f := newRandomField(r, fmt.Sprintf("f%d", i))
		fields = append(fields, f)
		o, n := &oldSpec, &newSpec
		if i >= 8 {
			o, n = &oldNested, &newNested
		}
		o.Properties[f.name] = f.old
		if f.new != nil {
			n.Properties[f.name] = *f.new
		}
	}
	if r.IntN(3) == 0 {
		newNested.Default = &apiextensionsv1.JSON{Raw: []byte(`{}`)}
	}
	oldSpec.Properties["nested"], newSpec.Properties["nested"] = oldNested, newNested
	u := upgrade{old: crdWithSpec(group, oldSpec), new: crdWithSpec(group, newSpec)}
	for i := 0; i < 6; i++ {
		spec, nested := map[string]any{}, map[string]any{}
		for j, f := range fields {
			if r.IntN(5) < 2 {
				continue
			}
			if j >= 8 {
				nested[f.name] = f.value(r)
			} else {
				spec[f.name] = f.value(r)
			}
		}
		if len(nested) > 0 || r.IntN(2) == 0 {
			spec["nested"] = nested
		}
		u.objects = append(u.objects, map[string]any{
			"apiVersion": group + "/v1", "kind": "Thing",
			"metadata": map[string]any{"name": fmt.Sprintf("thing-%d", i), "namespace": "default"},
			"spec":     spec,
		})
	}
	return u
}

// randomField is one field of a random upgrade: its schema in OLD and in
// NEW (nil: removed).
type randomField struct {
	name     string
	isString bool
	old      apiextensionsv1.JSONSchemaProps
	new      *apiextensionsv1.JSONSchemaProps
}

var letters = []string{"a", "b", "c", "d", "e"}

func newRandomField(r *rand.Rand, name string) randomField {
	f := randomField{name: name, isString: r.IntN(2) == 0}
	// OLD: maybe an enum (strings) or a minimum (integers), maybe a default
	// that satisfies it.
	if f.isString {
		f.old = apiextensionsv1.JSONSchemaProps{Type: "string"}
		if r.IntN(3) == 0 {
			for _, l := range letters[:4] {
				f.old.Enum = append(f.old.Enum, apiextensionsv1.JSON{Raw: []byte(strconv.Quote(l))})
			}
		}
	} else {
		f.old = apiextensionsv1.JSONSchemaProps{Type: "integer"}
		if r.IntN(3) == 0 {
			m := float64(r.IntN(3))
			f.old.Minimum = &m
		}
	}
	if r.IntN(3) == 0 {
		f.old.Default = f.validDefault(r, &f.old)
	}
	n := *f.old.DeepCopy()
	switch fieldChanges[r.IntN(len(fieldChanges))] {
	case "add-default", "change-default":
		n.Default = f.validDefault(r, &n)
	case "remove-default":
		n.Default = nil
	case "remove-field":
		return f
	case "tighten":
		f.tighten(r, &n)
	}
	f.new = &n
	return f
}

// tighten drops one to three letters from a string's enum (adding one of
// the remaining letters if it had none), or raises an integer's minimum by
// one to eight; a default the new rule refuses is replaced.
func (f randomField) tighten(r *rand.Rand, s *apiextensionsv1.JSONSchemaProps) {
	if f.isString {
		keep := letters[:5-1-r.IntN(3)]
		s.Enum = nil
		for _, l := range keep {
			s.Enum = append(s.Enum, apiextensionsv1.JSON{Raw: []byte(strconv.Quote(l))})
		}
	} else {
		m := float64(1 + r.IntN(8))
		if s.Minimum != nil {
			m += *s.Minimum
		}
		s.Minimum = &m
	}
	if s.Default != nil && !f.allows(s, s.Default) {
		s.Default = f.validDefault(r, s)
	}
}

// validDefault is a random value that s allows.
func (f randomField) validDefault(r *rand.Rand, s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.JSON {
	for {
		d := &apiextensionsv1.JSON{Raw: []byte(toJSON(f.value(r)))}
		if f.allows(s, d) {
			return d
		}
	}
}

func (f randomField) allows(s *apiextensionsv1.JSONSchemaProps, v *apiextensionsv1.JSON) bool {
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e apiextensionsv1.JSON) bool { return string(e.Raw) == string(v.Raw) }) {
		return false
	}
	if s.Minimum != nil {
		n, err := strconv.ParseFloat(string(v.Raw), 64)
		return err == nil && n >= *s.Minimum
	}
	return true
}

// value is a random value of the field's type: a letter, or -1 to 11.
func (f randomField) value(r *rand.Rand) any {
	if f.isString {
		return letters[r.IntN(len(letters))]
	}
	return int64(r.IntN(13) - 1)
}

// crdWithSpec is a namespaced one-version CRD of kind Thing in group.
func crdWithSpec(group string, spec apiextensionsv1.JSONSchemaProps) *apiextensionsv1.CustomResourceDefinition {
	c := &apiextensionsv1.CustomResourceDefinition{}
	c.Name = "things." + group
	c.Spec = apiextensionsv1.CustomResourceDefinitionSpec{
		Group: group,
		Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: "Thing", ListKind: "ThingList", Plural: "things", Singular: "thing"},
		Scope: apiextensionsv1.NamespaceScoped,
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
			Name: "v1", Served: true, Storage: true,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
				Type:       "object",
				Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": spec},
			}},
		}},
	}
	return c
}
