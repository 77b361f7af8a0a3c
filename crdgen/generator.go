// Package crdgen is controller-gen's crd generator with KEP-1929 declarative
// defaults: it builds schemas with controller-tools' crd.Parser, injects the
// explicit, type-level and implicit defaults into each flattened version
// schema, checks the result with the apiserver's own code (package
// normalize), and writes nothing when any check fails.
package crdgen

import (
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// Generator generates CustomResourceDefinitions with KEP-1929 defaults. Its
// options are crd.Generator's, plus ImplicitDefaults, Check and Verbose.
type Generator struct {
	IgnoreUnexportedFields                              *bool    `marker:",optional"`
	AllowDangerousTypes                                 *bool    `marker:",optional"`
	MaxDescLen                                          *int     `marker:",optional"`
	CRDVersions                                         []string `marker:"crdVersions,optional"`
	GenerateEmbeddedObjectMeta                          *bool    `marker:",optional"`
	HeaderFile                                          string   `marker:",optional"`
	Year                                                string   `marker:",optional"`
	DeprecatedV1beta1CompatibilityPreserveUnknownFields *bool    `marker:",optional"`
	OmitToolVersion                                     *bool    `marker:",optional"`

	// ImplicitDefaults turns on KEP-1929's implicit defaults: `default: {}`
	// on non-pointer struct fields and zero-value defaults on scalars
	// without omitempty. Default true.
	ImplicitDefaults *bool `marker:",optional"`
	// Check runs the apiserver's CRD validation and the nested-default
	// checks on every generated CRD before anything is written. Default true.
	Check *bool `marker:",optional"`
	// Verbose lists each finding in types from other modules instead of a
	// one-line summary. Default false.
	Verbose *bool `marker:",optional"`
}

// Help describes the generator and its options for `-h` and `-w`.
func (Generator) Help() *ctmarkers.DefinitionHelp {
	h := *crd.Generator{}.Help()
	h.Summary = "generates CustomResourceDefinition objects with KEP-1929 declarative defaults."
	fields := make(map[string]ctmarkers.DetailedHelp, len(h.FieldHelp)+3)
	for k, v := range h.FieldHelp {
		fields[k] = v
	}
	fields["ImplicitDefaults"] = ctmarkers.DetailedHelp{
		Summary: "adds default: {} to non-pointer struct fields and zero-value defaults to scalars without omitempty.",
		Details: "Default true. With false, only explicit +default / +kubebuilder:default markers apply.",
	}
	fields["Check"] = ctmarkers.DetailedHelp{
		Summary: "validates every CRD with the apiserver's own code before writing it.",
		Details: "Default true. false skips the checks, for speed or bisecting.",
	}
	fields["Verbose"] = ctmarkers.DetailedHelp{
		Summary: "reports each finding in types from other modules instead of one summary line.",
	}
	h.FieldHelp = fields
	return &h
}

// CheckFilter asks genall for type-checked packages.
func (Generator) CheckFilter() loader.NodeFilter { return crd.Generator{}.CheckFilter() }

// RegisterMarkers registers controller-tools' CRD markers, then ours over them.
func (Generator) RegisterMarkers(into *ctmarkers.Registry) error {
	if err := (crd.Generator{}).RegisterMarkers(into); err != nil {
		return err
	}
	return markers.Register(into)
}

func boolOpt(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// ControllerToolsVersion is the controller-tools version in go.mod; a test
// keeps the two equal. Version uses it where the build has no module
// information (go test binaries).
const ControllerToolsVersion = "v0.23.0"

// Version returns the version of controller-tools this binary is built with.
// It is what controller-gen writes in its version annotation, so that CRDs
// generated with implicitDefaults=false match controller-gen's byte for byte.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "sigs.k8s.io/controller-tools" {
				if dep.Replace != nil && dep.Replace.Version != "" {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	return ControllerToolsVersion
}

// Generate builds every CRD in the roots, applies defaults, checks and writes
// them. Nothing is written when any CRD has an error.
func (g Generator) Generate(ctx *genall.GenerationContext) error {
	parser := &crd.Parser{
		Collector:                  ctx.Collector,
		Checker:                    ctx.Checker,
		IgnoreUnexportedFields:     boolOpt(g.IgnoreUnexportedFields, false),
		AllowDangerousTypes:        boolOpt(g.AllowDangerousTypes, false),
		GenerateEmbeddedObjectMeta: boolOpt(g.GenerateEmbeddedObjectMeta, false),
	}
	crd.AddKnownTypes(parser)
	for _, root := range ctx.Roots {
		parser.NeedPackage(root)
	}
	metav1Pkg := crd.FindMetav1(ctx.Roots)
	if metav1Pkg == nil {
		return nil
	}
	kinds := crd.FindKubeKinds(parser, metav1Pkg)
	if len(kinds) == 0 {
		return nil
	}
	header, err := g.header(ctx)
	if err != nil {
		return err
	}

	d := newDefaulter(parser, ctx.Collector, ctx.Roots, options{
		implicit: boolOpt(g.ImplicitDefaults, true),
		verbose:  boolOpt(g.Verbose, false),
	})
	// Each CRD is rendered as soon as it is generated, while its checks run,
	// and the files are written only when every check has passed.
	var staged atomicout.Staging
	rctx := *ctx
	rctx.OutputRule = staged.Rule(ctx.OutputRule)
	var werr error
	crds := make([]apiextensionsv1.CustomResourceDefinition, 0, len(kinds))
	checks := newChecker(context.Background(), len(kinds))
	for _, gk := range kinds {
		parser.NeedCRDFor(gk, g.MaxDescLen)
		c, ok := parser.CustomResourceDefinitions[gk] // NeedCRDFor made it from a deep copy
		if !ok {
			continue
		}
		if !boolOpt(g.OmitToolVersion, false) {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations["controller-gen.kubebuilder.io/version"] = Version()
		}
		crd.FixTopLevelMetadata(c)
		d.applyCRD(&c, rootTypes(parser, gk))
		crds = append(crds, c) // capacity is len(kinds): &crds[i] stays valid
		if boolOpt(g.Check, true) {
			checks.start(&crds[len(crds)-1])
		}
		if werr == nil {
			werr = g.write(&rctx, crds[len(crds)-1:], header)
		}
	}
	checks.generatorDone()
	checks.report(d)
	if d.diags.report(d.opts.verbose) {
		return fmt.Errorf("crd: errors in defaults; no CRD was written")
	}
	if werr != nil {
		return werr
	}
	return staged.Commit()
}

func (g Generator) header(ctx *genall.GenerationContext) (string, error) {
	var text string
	if g.HeaderFile != "" {
		b, err := ctx.ReadFile(g.HeaderFile)
		if err != nil {
			return "", err
		}
		text = string(b)
	}
	return strings.ReplaceAll(text, " YEAR", " "+g.Year), nil
}

// rootTypes maps each version name of gk to its root Go type.
func rootTypes(p *crd.Parser, gk schema.GroupKind) map[string]crd.TypeIdent {
	out := map[string]crd.TypeIdent{}
	for pkg, gv := range p.GroupVersions {
		if gv.Group != gk.Group {
			continue
		}
		id := crd.TypeIdent{Package: pkg, Name: gk.Kind}
		if p.Types[id] != nil {
			out[gv.Version] = id
		}
	}
	return out
}

// write emits the CRDs as crd.Generator does: same file names, transforms
// and annotation.
func (g Generator) write(ctx *genall.GenerationContext, crds []apiextensionsv1.CustomResourceDefinition, header string) error {
	versions := g.CRDVersions
	if len(versions) == 0 {
		versions = []string{"v1"}
	}
	opts := []*genall.WriteYAMLOptions{
		genall.WithTransform(func(obj map[string]any) error { delete(obj, "status"); return nil }),
		genall.WithTransform(genall.TransformRemoveCreationTimestamp),
	}
	if p := g.DeprecatedV1beta1CompatibilityPreserveUnknownFields; p != nil {
		v := *p
		opts = append(opts, genall.WithTransform(func(obj map[string]any) error {
			if spec, ok := obj["spec"].(map[string]any); ok {
				spec["preserveUnknownFields"] = v
			}
			return nil
		}))
	}
	for _, c := range crds {
		for i, ver := range versions {
			conv, err := asVersion(&c, ver)
			if err != nil {
				return err
			}
			name := fmt.Sprintf("%s_%s.yaml", c.Spec.Group, c.Spec.Names.Plural)
			if i > 0 {
				name = fmt.Sprintf("%s_%s.%s.yaml", c.Spec.Group, c.Spec.Names.Plural, ver)
			}
			if err := ctx.WriteYAML(name, header, []any{conv}, opts...); err != nil {
				return err
			}
		}
	}
	return nil
}

// asVersion returns c as crd.Generator writes it in version ver, without
// the root metadata description. For v1, the version c is in, it is a copy
// that shares all but the root schemas with c, rather than crd.AsVersion's
// round trip through the internal type, which for v1 is the identity
// (compat/ checks the bytes against controller-gen's) and costs a third of
// what writing the CRDs allocates.
func asVersion(c *apiextensionsv1.CustomResourceDefinition, ver string) (*apiextensionsv1.CustomResourceDefinition, error) {
	if ver != apiextensionsv1.SchemeGroupVersion.Version {
		conv, err := crd.AsVersion(*c, schema.GroupVersion{Group: apiextensionsv1.SchemeGroupVersion.Group, Version: ver})
		if err != nil {
			return nil, err
		}
		out := conv.(*apiextensionsv1.CustomResourceDefinition)
		removeMetadataDescription(out)
		return out, nil
	}
	out := *c
	out.Spec.Versions = slices.Clone(c.Spec.Versions)
	for i := range out.Spec.Versions {
		v := &out.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		root := *v.Schema.OpenAPIV3Schema
		root.Properties = maps.Clone(root.Properties)
		v.Schema = &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &root}
	}
	removeMetadataDescription(&out)
	return &out, nil
}

// removeMetadataDescription drops the root metadata description, as
// crd.Generator does.
func removeMetadataDescription(c *apiextensionsv1.CustomResourceDefinition) {
	for _, v := range c.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		props := v.Schema.OpenAPIV3Schema.Properties
		if m, ok := props["metadata"]; ok && m.Description != "" {
			m.Description = ""
			props["metadata"] = m
		}
	}
}
