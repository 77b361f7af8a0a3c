package engine

import (
	"runtime/debug"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/decision"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// Build is the CRDs of one run, with the defaults decided and written.
type Build struct {
	col  *ctmarkers.Collector
	opts BuildOptions
	d    *schemaWalker
	// crds are the CRDs, nil once released.
	crds     []*apiextensionsv1.CustomResourceDefinition
	released bool
	// kinds are the root types of every version of every CRD.
	kinds []crd.TypeIdent
}

// BuildOptions are the crd generator's options that change what is built.
// They are values, so that two builds with equal options are ==.
type BuildOptions struct {
	IgnoreUnexportedFields, AllowDangerousTypes, GenerateEmbeddedObjectMeta bool
	// LimitDescLen is whether maxDescLen is set, MaxDescLen its value.
	LimitDescLen bool
	MaxDescLen   int
	// OmitToolVersion leaves out the controller-gen.kubebuilder.io/version
	// annotation (Version).
	OmitToolVersion bool
	// ImplicitDefaults turns on KEP-1929's implicit defaults; Explain
	// keeps, for each field, why it got its default or none.
	ImplicitDefaults, Explain bool
}

// maxDescLen is crd.Parser's maxDescLen: nil for no limit.
func (o BuildOptions) maxDescLen() *int {
	if !o.LimitDescLen {
		return nil
	}
	return &o.MaxDescLen
}

// Release drops what only the crd generator needs, the schemas and CRDs,
// once it has written them: the defaults generator of the same run reads
// the model, whose types stay.
func (b *Build) Release() {
	b.crds, b.released = nil, true
	p := b.d.parser
	p.Schemata, p.FlattenedSchemata, p.CustomResourceDefinitions = nil, nil, nil
	clear(b.d.origins)
}

// reuses is the rule for sharing a build: the session's build serves a
// generator that runs on the same loaded packages (the same marker
// collector) with the same options that change what is built (for the
// defaults generator, implicitDefaults alone: the others only change the
// CRDs' schemas, which it does not read), and, for the crd generator, only
// until it is released.
func (b *Build) reuses(ctx *genall.GenerationContext, opts BuildOptions, decisionsOnly bool) bool {
	if b == nil || b.col != ctx.Collector {
		return false
	}
	if decisionsOnly {
		return b.opts.ImplicitDefaults == opts.ImplicitDefaults
	}
	return !b.released && b.opts == opts
}

// newBuild is build without a session.
func newBuild(ctx *genall.GenerationContext, opts BuildOptions, each func(*apiextensionsv1.CustomResourceDefinition)) *Build {
	parser := &crd.Parser{
		Collector:                  ctx.Collector,
		Checker:                    ctx.Checker,
		IgnoreUnexportedFields:     opts.IgnoreUnexportedFields,
		AllowDangerousTypes:        opts.AllowDangerousTypes,
		GenerateEmbeddedObjectMeta: opts.GenerateEmbeddedObjectMeta,
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
	b := &Build{col: ctx.Collector, opts: opts, d: newSchemaWalker(parser, ctx.Collector, ctx.Roots, options{implicit: opts.ImplicitDefaults, explain: opts.Explain})}
	for _, gk := range kinds {
		parser.NeedCRDFor(gk, opts.maxDescLen())
		c, ok := parser.CustomResourceDefinitions[gk] // NeedCRDFor made it from a deep copy
		if !ok {
			continue
		}
		if !opts.OmitToolVersion {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations["controller-gen.kubebuilder.io/version"] = Version()
		}
		crd.FixTopLevelMetadata(c)
		roots := rootTypes(parser, gk)
		for _, id := range roots {
			b.kinds = append(b.kinds, id)
		}
		b.d.diags.SetCRD(c.Name)
		b.d.applyCRD(&c, roots)
		b.d.diags.SetCRD("")
		b.crds = append(b.crds, &c)
		each(&c)
	}
	return b
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

// ControllerToolsVersion is crdgen.ControllerToolsVersion: the
// controller-tools version in go.mod.
const ControllerToolsVersion = "v0.23.0"

// Version is crdgen.Version: the version of controller-tools this binary
// is built with, which the CRDs' version annotation holds, or
// ControllerToolsVersion where the build has no module information.
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

// CRDs are the build's CRDs, in the order they were built; nil once
// released.
func (b *Build) CRDs() []*apiextensionsv1.CustomResourceDefinition { return b.crds }

// Findings are the findings of the build: the decisions', and those of
// the walk (versions that differ); a generator adds its own.
func (b *Build) Findings() *model.Diagnostics { return b.d.diags }

// Model is the field model with every default decided.
func (b *Build) Model() *decision.Model { return b.d.model }

// Recursive are the findings about recursive types, which only the crd
// generator reports: the CRD cannot express them, the Go defaulter can.
func (b *Build) Recursive() []model.Finding { return b.d.recursive }

// RequiredMismatch are the fields where model.SchemaRequired, which the
// lint and the Go-only checks use, disagrees with the `required` that
// controller-gen wrote; the decision follows the schema, and tests
// require none.
func (b *Build) RequiredMismatch() []string { return b.d.requiredMismatch }

// Origin is where the default at the schema path spath
// (properties[spec].items) of a version of a CRD came from, when the build
// wrote one there; none once released.
func (b *Build) Origin(crdName, version, spath string) (Origin, bool) {
	o, ok := b.d.origins[originKey(crdName, version, spath)]
	return o, ok
}

// Locate is the Go source of the deepest property on the schema path
// spath of a version of a CRD; false when the version has no root type.
func (b *Build) Locate(crdName, version, spath string) (Node, bool) {
	return b.d.locate(crdName, version, spath)
}

// Root is the Go source of a CRD's root type.
func (b *Build) Root(crdName string) Node { return b.d.roots[crdName] }

// BelowRecursion reports a schema path at or below a property that a
// recursive type left without a type: the apiserver's errors there are
// the recursive-type finding's.
func (b *Build) BelowRecursion(crdName, version, spath string) bool {
	return b.d.belowRecursion(crdName, version, spath)
}
