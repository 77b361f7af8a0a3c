// Package markers defines the KEP-1929 default markers that
// controller-gen-default adds to controller-tools' marker registry.
//
// Markers are parsed here and nothing more: they keep the text the user wrote
// so that the crd generator can report a bad value with the field's position
// and Go path. The generator (package crdgen) decides what each marker does
// to the schema.
package markers

import (
	"fmt"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// Names of the markers defined here and of the controller-tools markers the
// generator reads.
const (
	// DefaultName is `+default=<json>`, also `+default=ref(Name)`.
	DefaultName = "default"
	// ImplicitName is `+implicitDefaults=false`.
	ImplicitName = "implicitDefaults"
	// KubebuilderDefaultName is controller-tools' `+kubebuilder:default=`.
	KubebuilderDefaultName = "kubebuilder:default"
	// K8sDefaultName is `+k8s:default=<json>`, declarative validation's
	// name for KEP-1929's marker (kubernetes/code-generator's
	// validation-gen; kube-api-linter's defaults analyzer reads it too). It
	// is read as `+default`, and must agree with it.
	K8sDefaultName = "k8s:default"
)

// RequiredNames are the markers by which an author says that clients must
// send a field. Each suppresses the field's implicit default.
var RequiredNames = []string{"required", "kubebuilder:validation:Required", "k8s:required"}

// Default is `+default=<json>` on a named type, and the value of
// `+default=<json>` on a field (FieldDefault) (KEP-1929 "Marker format").
// The value is one-line JSON, or `ref(Name)` / `ref(import/path.Name)`
// naming a Go constant.
//
// On a type it sets the default of every property of that type: fields of
// the type (unless the field has its own default), items of lists of it and
// values of maps of it. It never touches the type's own schema, which
// controller-gen's flattener would merge with a field's default into a
// non-structural `allOf`.
//
// The marker keeps the text after `=` verbatim.
type Default string

// FieldDefault is `+default=<json>` on a field: it sets the field's OpenAPI
// `default`.
//
// It writes the value into the field's schema as controller-tools' own
// `+default` does, plus ref() values, so that generators that build schemas
// with controller-tools (schemapatch) keep field defaults. A value that does
// not evaluate is left out here; the crd and defaults generators report it.
type FieldDefault struct{ Default }

// ApplyToSchema sets the field's default, as controller-tools' +default.
func (d FieldDefault) ApplyToSchema(ctx *crdmarkers.SchemaContext, s *apiextensionsv1.JSONSchemaProps) error {
	if ctx == nil || ctx.Package == nil {
		return nil
	}
	raw, _, err := d.Evaluate(ctx.Package)
	if err != nil || string(raw) == "null" {
		return nil // reported with the field's position by crd and defaults
	}
	s.Default = &apiextensionsv1.JSON{Raw: raw}
	return nil
}

// ApplyPriority is controller-tools' +default's: before +kubebuilder:default,
// which wins where both are set.
func (FieldDefault) ApplyPriority() crdmarkers.ApplyPriority {
	return crdmarkers.ApplyPriorityDefault - 1
}

// ParseMarker keeps the raw text. Parsing and validation happen in the
// generator, where the field, its position and its schema are known.
func (d *Default) ParseMarker(_, _, rest string) error {
	*d = Default(strings.TrimSpace(rest))
	return nil
}

// Ref returns the constant named by a `ref(...)` value.
func (d Default) Ref() (name string, ok bool) {
	v := string(d)
	if !strings.HasPrefix(v, "ref(") || !strings.HasSuffix(v, ")") {
		return "", false
	}
	return strings.TrimSpace(v[len("ref(") : len(v)-1]), true
}

// Help describes +default for `controller-gen-default crd -ww`.
func (Default) Help() *ctmarkers.DefinitionHelp {
	return &ctmarkers.DefinitionHelp{
		Category: "CRD defaults (KEP-1929)",
		DetailedHelp: ctmarkers.DetailedHelp{
			Summary: "sets the OpenAPI default of a field, or of every use of a type.",
			Details: "The value is one-line JSON (`+default=\"TCP\"`, `+default=3`, `+default={\"port\": 80}`),\n" +
				"or ref(Name) / ref(import/path.Name) naming a Go constant.\n" +
				"On a type it applies to fields of that type, items of lists of it and values of maps of it.\n" +
				"A non-pointer struct field may only default to {}; a scalar without omitempty only to its zero value.",
		},
	}
}

// k8sDefaultHelp describes +k8s:default for `controller-gen-default crd -ww`.
func k8sDefaultHelp() *ctmarkers.DefinitionHelp {
	h := Default("").Help()
	h.Summary = "is +default under declarative validation's name: the same value, the same rules; where both are written they must agree."
	return h
}

// Implicit is `+implicitDefaults=false` on a package, a type or a field. It
// turns off the implicit defaults of KEP-1929 (`default: {}` on non-pointer
// structs, zero-value defaults on scalars without omitempty) for the fields
// of that package, of that type, or for that field and everything below it.
// `+implicitDefaults=true` turns them back on below a field or type.
// Explicit `+default` markers still apply.
type Implicit bool

// Help describes +implicitDefaults for `controller-gen-default crd -ww`.
func (Implicit) Help() *ctmarkers.DefinitionHelp {
	return &ctmarkers.DefinitionHelp{
		Category: "CRD defaults (KEP-1929)",
		DetailedHelp: ctmarkers.DetailedHelp{
			Summary: "turns implicit defaults off (=false) or on (=true) for a package, a type, or a field and its subtree.",
			Details: "Use it on a field that embeds a large upstream type such as corev1.PodTemplateSpec\n" +
				"when defaults inside it would churn a hash your controller computes.",
		},
	}
}

// definitions are the markers defined here, by name and target.
var definitions = []struct {
	name   string
	target ctmarkers.TargetType
	output any
	help   *ctmarkers.DefinitionHelp
}{
	{DefaultName, ctmarkers.DescribesField, FieldDefault{}, Default("").Help()},
	{DefaultName, ctmarkers.DescribesType, Default(""), Default("").Help()},
	{K8sDefaultName, ctmarkers.DescribesField, Default(""), k8sDefaultHelp()},
	{K8sDefaultName, ctmarkers.DescribesType, Default(""), k8sDefaultHelp()},
	{ImplicitName, ctmarkers.DescribesField, Implicit(false), Implicit(false).Help()},
	{ImplicitName, ctmarkers.DescribesType, Implicit(false), Implicit(false).Help()},
	{ImplicitName, ctmarkers.DescribesPackage, Implicit(false), Implicit(false).Help()},
}

// Register adds the definitions to reg, replacing controller-tools' own
// `+default` field marker (which drops ref() values and ignores types).
// controller-tools' Registry.Register keeps the last definition of a name
// silently, and every generator that registers controller-tools' CRD
// markers (crd, schemapatch, applyconfiguration) registers its +default
// again: call Register after every generator has registered its markers;
// the generators that read +default refuse a registry where another came
// after (Registered).
func Register(reg *ctmarkers.Registry) error {
	for _, d := range definitions {
		def, err := ctmarkers.MakeDefinition(d.name, d.target, d.output)
		if err != nil {
			return err
		}
		if err := reg.Register(def); err != nil {
			return err
		}
		reg.AddHelp(def, d.help)
	}
	return nil
}

// Registered is the rule that the markers a generator reads are the ones
// defined here: each of `+default` and `+implicitDefaults`, on fields,
// types and packages where defined here, is this package's definition in
// reg. Otherwise, when another definition of the same name was registered
// after Register (controller-tools' `+default`, by a generator registered
// later), it is an error that names the marker and its definition, rather
// than generation that silently reads the other definition.
func Registered(reg *ctmarkers.Registry) error {
	for _, d := range definitions {
		def := reg.Lookup("+"+d.name, d.target)
		want := reflect.TypeOf(d.output)
		switch {
		case def == nil:
			return fmt.Errorf("the marker registry has no +%s %s marker: call markers.Register after every generator has registered its markers", d.name, targetName(d.target))
		case def.Output != want:
			return fmt.Errorf("the marker registry's +%s %s marker is %s.%s, not %s.%s: a generator registered its markers after markers.Register; call markers.Register after every generator has registered its markers", d.name, targetName(d.target), def.Output.PkgPath(), def.Output.Name(), want.PkgPath(), want.Name())
		}
	}
	return nil
}

// targetName is what a marker target is, in words.
func targetName(t ctmarkers.TargetType) string {
	switch t {
	case ctmarkers.DescribesField:
		return "field"
	case ctmarkers.DescribesType:
		return "type"
	default:
		return "package"
	}
}
