// Package crdgen is controller-gen's crd generator with KEP-1929 declarative
// defaults: it builds schemas with controller-tools' crd.Parser, injects the
// explicit, type-level and implicit defaults into each flattened version
// schema (the build is the module's generation engine's, shared with the
// defaults generator through a Session), checks the result with the
// apiserver's own code (package normalize), and writes nothing when any
// check fails.
package crdgen

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/engine"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
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
	// AllFindings lists every warning one by one: the repetitive ones
	// (omitempty-struct, and the notes of defaults added or changed in a
	// CRD file), which are otherwise one line per rule and CRD, and those
	// in types from other modules, otherwise one line in all. Default
	// false.
	AllFindings *bool `marker:",optional"`
	// Verbose is AllFindings with the notes. Default false.
	Verbose *bool `marker:",optional"`
	// Explain prints, for each field of the generated modules, the default
	// its property got and where it came from, or why it got none. Default
	// false.
	Explain *bool `marker:",optional"`

	// session is the work shared with the defaults generator of the same
	// run (WithSession); nil for a Session of each Generate's own.
	session *Session
}

// WithSession is g sharing s with the other generators of its run: the
// defaults generator reads g's build, and each finding is printed once,
// to s.Diagnostics.
func (g Generator) WithSession(s *Session) Generator {
	g.session = s
	return g
}

// sessionOf is s, or a new session when s is nil: a generator given
// none shares nothing.
func sessionOf(s *Session) *Session {
	if s == nil {
		return &Session{}
	}
	return s
}

// Help describes the generator and its options for `-h` and `-w`.
func (Generator) Help() *ctmarkers.DefinitionHelp {
	h := *crd.Generator{}.Help()
	h.Summary = "generates CustomResourceDefinition objects with KEP-1929 declarative defaults."
	fields := make(map[string]ctmarkers.DetailedHelp, len(h.FieldHelp)+4)
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
	fields["AllFindings"] = ctmarkers.DetailedHelp{
		Summary: "lists every finding one by one, rather than one line per rule and CRD for repetitive ones.",
		Details: "Default false: omitempty-struct warnings and the notes of defaults added or changed in a CRD file are one line per rule and CRD, " +
			"with their number and the first of them; findings in types from other modules one line in all. Errors are always listed.",
	}
	fields["Verbose"] = ctmarkers.DetailedHelp{
		Summary: "lists every finding one by one, as allFindings, and the notes.",
	}
	fields["Explain"] = ctmarkers.DetailedHelp{
		Summary: "prints, for each field of the generated modules, the default it got and why, or why it got none.",
		Details: "One note per field and property, in go vet style; the defaults generator follows the same decisions.",
	}
	h.FieldHelp = fields
	return &h
}

// CheckFilter asks genall for type-checked packages.
func (Generator) CheckFilter() loader.NodeFilter { return model.CheckFilter() }

// RegisterMarkers registers controller-tools' CRD markers, then ours over
// them (model.RegisterMarkers: the lint reads the same).
func (Generator) RegisterMarkers(into *ctmarkers.Registry) error { return model.RegisterMarkers(into) }

func boolOpt(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// ControllerToolsVersion is the controller-tools version in go.mod; a test
// keeps the two equal. Version uses it where the build has no module
// information (go test binaries).
const ControllerToolsVersion = engine.ControllerToolsVersion

// Version returns the version of controller-tools this binary is built with.
// It is what controller-gen writes in its version annotation, so that CRDs
// generated with implicitDefaults=false match controller-gen's byte for byte.
func Version() string { return engine.Version() }

// Generate builds every CRD in the roots, applies defaults, checks and writes
// them. Nothing is written when any CRD has an error.
func (g Generator) Generate(ctx *genall.GenerationContext) error {
	header, err := g.header(ctx)
	if err != nil {
		return err
	}
	// Each CRD is rendered as soon as it is generated, while its checks run,
	// and the files are written only when every check has passed.
	var staged atomicout.Staging
	rctx := *ctx
	rctx.OutputRule = staged.Rule(ctx.OutputRule)
	s := sessionOf(g.session)
	var werr error
	checks := newChecker(context.Background())
	var ungrouped []string
	b, err := engine.BuildCRDs(s, ctx, g.buildOptions(), func(c *apiextensionsv1.CustomResourceDefinition) {
		switch {
		case c.Spec.Group == "":
			ungrouped = append(ungrouped, c.Name)
		case boolOpt(g.Check, true):
			checks.start(c)
		}
		if werr == nil {
			werr = g.write(&rctx, []apiextensionsv1.CustomResourceDefinition{*c}, header)
		}
	})
	checks.generatorDone()
	if err != nil {
		return fmt.Errorf("crd: %w", err)
	}
	if b == nil {
		return nil
	}
	if packagesFailed(ctx.Roots) {
		checks.wg.Wait()
		b.Release()
		return fmt.Errorf("crd: the packages do not load (their errors follow); no CRD was written")
	}
	checks.report(b)
	diags := b.Findings()
	for _, name := range ungrouped {
		diags.Add(withoutGroup(b.Root(name), name))
	}
	for _, f := range b.Recursive() {
		diags.Add(f) // the CRD's, not the Go defaulter's: defaults does not report them
	}
	defer b.Release()
	out := s.Output()
	if boolOpt(g.Explain, false) {
		b.Model().Explain(out)
		for _, m := range b.RequiredMismatch() {
			fmt.Fprintf(out, "note: %s, not as the Go code predicts it (lint and defaults follow the Go code): please report it [explain-required]\n", m)
		}
	}
	ropts := g.reportOptions()
	if diags.Report(out, ropts) {
		return checks.failure(diags)
	}
	if werr != nil {
		return werr
	}
	noteChanges(b, out, ropts, ctx.OutputRule, &staged, b.CRDs())
	return staged.Commit()
}

// packagesFailed is the rule for packages that do not load: when a root
// package, or a package it imports, has an error that controller-gen's
// runtime prints after the generators (loader.PrintErrors: every error but
// the type checker's, such as controller-tools' "unknown type X" for a
// field of an undefined type), that error is the one report. The CRDs
// built from such packages lack what failed (a property without a type),
// and the apiserver's errors about them would say the same thing again, at
// the same field; they are not checked, and nothing is written.
func packagesFailed(roots []*loader.Package) bool {
	raw := make([]*packages.Package, len(roots))
	for i, p := range roots {
		raw[i] = p.Package
	}
	failed := false
	packages.Visit(raw, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind != packages.TypeError {
				failed = true
			}
		}
	})
	return failed
}

// reportOptions are how much the generator lists: crd:allFindings=true
// every finding, crd:verbose=true the notes too.
func (g Generator) reportOptions() model.ReportOptions {
	verbose := boolOpt(g.Verbose, false)
	return model.ReportOptions{All: verbose || boolOpt(g.AllFindings, false), Notes: verbose, Hint: "crd:allFindings=true"}
}

// buildOptions are the options that change the CRDs' schemas and defaults.
func (g Generator) buildOptions() engine.BuildOptions {
	o := engine.BuildOptions{
		IgnoreUnexportedFields:     boolOpt(g.IgnoreUnexportedFields, false),
		AllowDangerousTypes:        boolOpt(g.AllowDangerousTypes, false),
		GenerateEmbeddedObjectMeta: boolOpt(g.GenerateEmbeddedObjectMeta, false),
		OmitToolVersion:            boolOpt(g.OmitToolVersion, false),
		ImplicitDefaults:           boolOpt(g.ImplicitDefaults, true),
		Explain:                    boolOpt(g.Explain, false),
	}
	if g.MaxDescLen != nil {
		o.LimitDescLen, o.MaxDescLen = true, *g.MaxDescLen
	}
	return o
}

func (g Generator) header(ctx *genall.GenerationContext) (string, error) {
	return Header(ctx, g.HeaderFile, g.Year)
}

// Header is the text of file (none when file is ""), with " YEAR"
// replaced by year, as controller-gen's generators write it at the top of
// their files.
func Header(ctx *genall.GenerationContext, file, year string) (string, error) {
	var text string
	if file != "" {
		b, err := ctx.ReadFile(file)
		if err != nil {
			return "", err
		}
		text = string(b)
	}
	return strings.ReplaceAll(text, " YEAR", " "+year), nil
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
// (test/compat/ checks the bytes against controller-gen's) and costs a third of
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
