package impact

import (
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// definition is one CRD as the apiserver serves it: what its handler
// builds once per CRD (customresource_handler.go,
// getOrCreateServingInfoFor). As there, what a version needs is built when
// the first object of that version needs it, once, whichever worker asks
// first: a version no object uses costs nothing but its entry.
type definition struct {
	crd            *apiextensionsv1.CustomResourceDefinition
	storageVersion string
	// versions holds every version of spec.versions, served or not: the
	// storage codec decodes objects of any of them.
	versions map[string]*version
	// internal is the CRD as the apiserver holds it (crdcheck.ToInternal),
	// converted once, for the versions' schemas.
	internalOnce sync.Once
	internalCRD  *apiextensions.CustomResourceDefinition
	internalErr  error
	// onBuild, when set, is told what the definition builds (schemas and
	// pipelines), for the tests that check a version no object uses is
	// never built; each test sets it on its own Analyzer's definitions
	// before the first object. nil in production.
	onBuild func(what, version string)
}

// version is one version of a definition.
type version struct {
	def    *definition
	name   string
	served bool
	// structural is the version's schema as the storage codec uses it
	// (objectpath.StorageSchema), built on first use.
	structuralOnce sync.Once
	structural     *structuralschema.Structural
	structuralErr  error
	// pipe is the create and request-decode path, built on first use: it
	// compiles the version's CEL rules.
	pipeOnce sync.Once
	pipe     *objectpath.Pipeline
	pipeErr  error
	// alike compares this version of OLD with NEW's (rulesAgainst), built
	// on first use.
	alikeOnce sync.Once
	alike     alikeRules
}

// built tells onBuild, if set, that the definition builds what for version.
func (d *definition) built(what, version string) {
	if d.onBuild != nil {
		d.onBuild(what, version)
	}
}

// newDefinition indexes a valid CRD; nothing is built yet.
func newDefinition(crd *apiextensionsv1.CustomResourceDefinition) (*definition, error) {
	d := &definition{crd: crd, versions: map[string]*version{}}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			d.storageVersion = v.Name
		}
		d.versions[v.Name] = &version{def: d, name: v.Name, served: v.Served}
	}
	return d, nil
}

// internal is the CRD as the apiserver holds it, converted on first use.
func (d *definition) internal() (*apiextensions.CustomResourceDefinition, error) {
	d.internalOnce.Do(func() {
		if d.internalCRD, d.internalErr = crdcheck.ToInternal(d.crd); d.internalErr != nil {
			d.internalErr = fmt.Errorf("CRD %s: %w", d.crd.Name, d.internalErr)
		}
	})
	return d.internalCRD, d.internalErr
}

// schema is the version's structural schema as the storage codec uses it:
// structural, with its defaults pruned (PruneDefaults), unless the legacy
// spec.preserveUnknownFields. Built on first use, once.
func (v *version) schema() (*structuralschema.Structural, error) {
	v.structuralOnce.Do(func() {
		internal, err := v.def.internal()
		if err != nil {
			v.structuralErr = err
			return
		}
		v.def.built("schema", v.name)
		if v.structural, err = objectpath.StorageSchema(internal, v.name); err != nil {
			v.structuralErr = fmt.Errorf("CRD %s version %s: %w", v.def.crd.Name, v.name, err)
		}
	})
	return v.structural, v.structuralErr
}

// groupKind is the group and kind of the definition's objects.
func (d *definition) groupKind() schema.GroupKind {
	return schema.GroupKind{Group: d.crd.Spec.Group, Kind: d.crd.Spec.Names.Kind}
}

// apiVersion is group/version for one of the definition's versions.
func (d *definition) apiVersion(version string) string {
	return d.crd.Spec.Group + "/" + version
}

// pipeline is the create and request-decode path of a served version,
// built when the first object of the version needs it, once, whichever
// worker asks first.
func (v *version) pipeline() (*objectpath.Pipeline, error) {
	v.pipeOnce.Do(func() {
		v.def.built("pipeline", v.name)
		v.pipe, v.pipeErr = objectpath.New(v.def.crd, v.name)
	})
	return v.pipe, v.pipeErr
}
