package impact

import (
	"fmt"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/normalize"
	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

// definition is one CRD as the apiserver serves it: what its handler
// builds once per CRD (customresource_handler.go,
// getOrCreateServingInfoFor).
type definition struct {
	crd            *apiextensionsv1.CustomResourceDefinition
	storageVersion string
	// versions holds every version of spec.versions, served or not: the
	// storage codec decodes objects of any of them.
	versions map[string]*version
}

// version is one version of a definition.
type version struct {
	def    *definition
	name   string
	served bool
	// structural is the version's schema as the storage codec uses it:
	// structural, with its defaults pruned (PruneDefaults), unless the
	// legacy spec.preserveUnknownFields.
	structural *structuralschema.Structural
	// pipe is the create and request-decode path, built on first use: it
	// compiles the version's CEL rules.
	pipeOnce sync.Once
	pipe     *pipeline.Pipeline
	pipeErr  error
}

// newDefinition builds the definition of a valid CRD.
func newDefinition(crd *apiextensionsv1.CustomResourceDefinition) (*definition, error) {
	d := &definition{crd: crd, versions: map[string]*version{}}
	internal, err := normalize.ToInternal(crd)
	if err != nil {
		return nil, err
	}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			d.storageVersion = v.Name
		}
		s, err := pipeline.StorageSchema(internal, v.Name)
		if err != nil {
			return nil, fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
		}
		d.versions[v.Name] = &version{def: d, name: v.Name, served: v.Served, structural: s}
	}
	return d, nil
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
func (v *version) pipeline() (*pipeline.Pipeline, error) {
	v.pipeOnce.Do(func() { v.pipe, v.pipeErr = pipeline.New(v.def.crd, v.name) })
	return v.pipe, v.pipeErr
}
