package crdcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// ValidateCRD validates a CRD as the apiserver does on create:
//
//  1. the v1 defaults the decoder applies
//     (SetObjectDefaults_CustomResourceDefinition);
//  2. conversion to the internal type
//     (Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition);
//  3. the registry strategy's PrepareForCreate (prepareForCreate);
//  4. its Validate, which is validation.ValidateCustomResourceDefinition
//     (pkg/apis/apiextensions/validation/validation.go).
//
// Error paths are the apiserver's: spec.validation.openAPIV3Schema… when
// every version has the same schema (the conversion moves it there), else
// spec.versions[i].schema.openAPIV3Schema…. The input is not modified.
func ValidateCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) field.ErrorList {
	internal, err := ToInternal(crd)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return validation.ValidateCustomResourceDefinition(ctx, internal)
}

// ToInternal is steps 1 to 3 of ValidateCRD: the CRD as the apiserver holds
// it when it validates a create request. It shares the schemas of crd, which
// must not change while the result is in use.
func ToInternal(crd *apiextensionsv1.CustomResourceDefinition) (*apiextensions.CustomResourceDefinition, error) {
	// SetObjectDefaults writes to names, conversion and status only: copy
	// those rather than the whole CRD with its schemas.
	c := *crd
	c.Spec.Conversion = crd.Spec.Conversion.DeepCopy()
	crd.Status.DeepCopyInto(&c.Status)
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&c)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&c, internal, nil); err != nil {
		return nil, err
	}
	prepareForCreate(internal)
	return internal, nil
}

// prepareForCreate is the CRD registry strategy's PrepareForCreate
// (pkg/registry/customresourcedefinition/strategy.go): status is the
// server's, generation starts at 1, and the storage version is the first
// stored version. Its last step, dropDisabledFields, clears fields of
// disabled feature gates; with the gates' defaults it changes nothing, which
// TestPrepareForCreateIsTheStrategys checks against the strategy itself.
//
// It is restated here, not called, because the registry package links the
// apiserver's storage layer (etcd client, gRPC, informers): 13 MiB of
// resident memory in every generator run, for ten lines.
func prepareForCreate(crd *apiextensions.CustomResourceDefinition) {
	crd.Status = apiextensions.CustomResourceDefinitionStatus{}
	crd.Generation = 1
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			if !apiextensions.IsStoredVersion(crd, v.Name) {
				crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
			}
			break
		}
	}
}

// LoadCRDs reads CRDs from files and directories of YAML (multi-document) or
// JSON files, as kubectl reads a manifest (ReadCRDs). Documents of other
// kinds are skipped. CRDs that the
// apiserver would not all serve are refused (a *CRDConflictError: see
// sameNameConflict and namesConflicts); a CRD given twice, identical, is
// kept once (dedupeIdentical).
func LoadCRDs(paths ...string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var set CRDSet
	if err := set.AddFiles(paths...); err != nil {
		return nil, err
	}
	return set.Served()
}

// CRDSet is LoadCRDs on CRDs from several kinds of source (files, an
// fs.FS, memory), in the order they are added: each CRD keeps where it
// was read, so that a conflict between a file and a git tree names both
// as FILE:DOC.
type CRDSet struct{ loaded []sourcedCRD }

// AddFiles adds the CRDs of files and directories, as LoadCRDs reads them.
func (s *CRDSet) AddFiles(paths ...string) error {
	return s.add(tree{fsys: osFS{}, join: filepath.Join, name: func(p string) string { return p }}, paths)
}

// AddFS adds the CRDs of the files and directories paths of fsys
// (slash-separated, as io/fs names them; a git commit's tree for
// `impact --old git://REF?path=PATH`), read as AddFiles reads files; name
// gives a file's name in errors and conflicts.
func (s *CRDSet) AddFS(fsys fs.FS, name func(path string) string, paths ...string) error {
	return s.add(tree{fsys: fsys, join: path.Join, name: name}, paths)
}

// Add adds CRDs read elsewhere (a cluster), each named at(crd) in
// conflicts.
func (s *CRDSet) Add(at func(*apiextensionsv1.CustomResourceDefinition) string, crds ...*apiextensionsv1.CustomResourceDefinition) {
	for _, c := range crds {
		s.loaded = append(s.loaded, sourcedCRD{crd: c, at: at(c)})
	}
}

func (s *CRDSet) add(t tree, paths []string) error {
	loaded, err := loadSourced(t, paths)
	s.loaded = append(s.loaded, loaded...)
	return err
}

// Served is the CRDs the apiserver would serve, each identical copy once,
// or a *CRDConflictError.
func (s *CRDSet) Served() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	return served(s.loaded)
}

// ServedCRDs is LoadCRDs's rule on CRDs given in memory, in the order
// they would be created: the CRDs the apiserver would serve, each
// identical copy once; CRDs it would not all serve are a
// *CRDConflictError, each named by its place in crds ("#2").
func ServedCRDs(crds []*apiextensionsv1.CustomResourceDefinition) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	loaded := make([]sourcedCRD, len(crds))
	for i, c := range crds {
		loaded[i] = sourcedCRD{crd: c, at: fmt.Sprintf("#%d", i+1)}
	}
	return served(loaded)
}

// served is the rule of LoadCRDs and ServedCRDs: identical copies once
// (dedupeIdentical), and no conflict (sameNameConflict, namesConflicts).
func served(loaded []sourcedCRD) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	loaded, conflicts := dedupeIdentical(loaded)
	conflicts = append(conflicts, namesConflicts(loaded)...)
	if len(conflicts) > 0 {
		return nil, &CRDConflictError{Conflicts: conflicts}
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, len(loaded))
	for i, l := range loaded {
		out[i] = l.crd
	}
	return out, nil
}

// sourcedCRD is a CRD and where it was read.
type sourcedCRD struct {
	crd *apiextensionsv1.CustomResourceDefinition
	at  string // FILE:DOC, DOC counted among the documents neither empty nor null
}

// tree is where LoadCRDs and LoadCRDsFS read files: the file system, or
// an fs.FS.
type tree struct {
	fsys fs.FS
	join func(elem ...string) string
	name func(path string) string // in errors
}

// osFS is the file system as os reads it: any path, relative to the
// working directory or absolute (not an fs.FS's rooted, slash-separated
// names).
type osFS struct{}

func (osFS) Open(name string) (fs.File, error)          { return os.Open(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// loadSourced reads the CRDs of paths, in order, with where each is.
func loadSourced(t tree, paths []string) ([]sourcedCRD, error) {
	var out []sourcedCRD
	for _, p := range paths {
		files, err := crdFiles(t, p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			crds, err := readFile(t, f)
			if err != nil {
				return nil, err
			}
			out = append(out, crds...)
		}
	}
	return out, nil
}

// readFile reads the CRDs of the file p, through the decode cache
// (decodeCache) when there is one.
func readFile(t tree, p string) ([]sourcedCRD, error) {
	return readFileCached(decodeCache(), t, p)
}

// ReadCRDs reads the CRDs of one file or stream, named file in errors, as
// kubectl reads a manifest (internal/input/manifest: YAML or JSON documents,
// each item of a List); documents of other kinds are skipped.
func ReadCRDs(file string, r io.Reader) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	crds, err := readCRDs(file, r)
	if err != nil {
		return nil, err
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, len(crds))
	for i, c := range crds {
		out[i] = c.crd
	}
	return out, nil
}

// readCRDs is ReadCRDs with where each CRD is (FILE:DOC, FILE:DOC:ITEM
// in a List).
func readCRDs(file string, r io.Reader) ([]sourcedCRD, error) {
	out, _, err := readCRDsJSON(file, r)
	return out, err
}

// readCRDsJSON is readCRDs with, for each CRD, the JSON that crdOf
// decoded it from, and its document and item (as manifest.Object's Doc
// and Item): what the decode cache stores.
func readCRDsJSON(file string, r io.Reader) ([]sourcedCRD, []decodedCRD, error) {
	var out []sourcedCRD
	var decoded []decodedCRD
	for o, err := range manifest.All(file, r) {
		if err != nil {
			return nil, nil, err
		}
		if o.TooLarge != nil {
			return nil, nil, fmt.Errorf("%s: %w", o.Source(), o.TooLarge)
		}
		c, b, err := crdOf(o)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", o.Source(), err)
		}
		if c != nil {
			out = append(out, sourcedCRD{crd: c, at: o.Source()})
			decoded = append(decoded, decodedCRD{doc: o.Doc, item: o.Item, json: b})
		}
	}
	return out, decoded, nil
}

// crdOf is the CRD that o is, decoded strictly as the apiserver decodes
// a CRD (sigs.k8s.io/json: case-sensitive, unknown fields refused)
// (decodeCRD), and the JSON it is decoded from; nil for an object of
// another kind. A CRD of another apiVersion, and a field given twice, are
// errors.
func crdOf(o manifest.Object) (*apiextensionsv1.CustomResourceDefinition, []byte, error) {
	if kind, _ := o.Object["kind"].(string); kind != "CustomResourceDefinition" {
		return nil, nil, nil
	}
	if av, _ := o.Object["apiVersion"].(string); av != apiextensionsv1.SchemeGroupVersion.String() {
		return nil, nil, fmt.Errorf("%s is not supported, only %s", av, apiextensionsv1.SchemeGroupVersion)
	}
	if len(o.Duplicates) > 0 {
		return nil, nil, fmt.Errorf("duplicate field %q", o.Duplicates[0])
	}
	b, err := json.Marshal(o.Object)
	if err != nil {
		return nil, nil, err
	}
	c, err := decodeCRD(b)
	if err != nil {
		return nil, nil, err
	}
	return c, b, nil
}

// decodeCRD decodes the JSON of a CRD strictly: the CRD, or the error of
// the decoder, or its strict errors joined.
func decodeCRD(b []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	c := &apiextensionsv1.CustomResourceDefinition{}
	strict, err := kjson.UnmarshalStrict(b, c)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, errors.Join(strict...)
	}
	return c, nil
}

// CRDConflict is two CRDs that the apiserver would not both serve: it
// keeps Kept, the first given, and refuses or does not serve Refused.
type CRDConflict struct {
	Kept, Refused     string // the CRDs' metadata.name
	KeptAt, RefusedAt string // FILE:DOC of each
	// Shared is what both claim: "" for the same metadata.name, else their
	// names in the group (`spec.names.kind "Widget"`).
	Shared    []string
	Apiserver string // what the apiserver does with Refused
}

func (c CRDConflict) String() string {
	if len(c.Shared) == 0 {
		return fmt.Sprintf("%s: CRD %s is also at %s, with different content; the apiserver keeps the first: %s; remove one of them",
			c.RefusedAt, c.Refused, c.KeptAt, c.Apiserver)
	}
	return fmt.Sprintf("%s: CRD %s claims %s, which CRD %s at %s has; the apiserver keeps the first: %s; remove one of them, or rename",
		c.RefusedAt, c.Refused, strings.Join(c.Shared, ", "), c.Kept, c.KeptAt, c.Apiserver)
}

// CRDConflictError is the CRDs of LoadCRDs's paths that conflict, one
// line each, in input order.
type CRDConflictError struct{ Conflicts []CRDConflict }

func (e *CRDConflictError) Error() string {
	lines := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		lines[i] = c.String()
	}
	return strings.Join(lines, "\n")
}

// dedupeIdentical keeps the first of CRDs of the same metadata.name when
// they are identical (a file and a kustomize build of it, given together:
// the apiserver holds one CRD either way), and reports the others as
// conflicts (sameNameConflict).
func dedupeIdentical(loaded []sourcedCRD) ([]sourcedCRD, []CRDConflict) {
	first := map[string]int{}
	var out []sourcedCRD
	var conflicts []CRDConflict
	for _, l := range loaded {
		i, seen := first[l.crd.Name]
		if !seen {
			first[l.crd.Name] = len(out)
			out = append(out, l)
			continue
		}
		if c, ok := sameNameConflict(out[i], l); ok {
			conflicts = append(conflicts, c)
		}
	}
	return out, conflicts
}

// sameNameConflict is the rule for two CRDs of the same metadata.name: the
// apiserver creates the first and refuses the second (`kubectl create`:
// AlreadyExists; `kubectl apply` would replace the first with it), so two
// that differ are a conflict; identical ones are none.
func sameNameConflict(first, second sourcedCRD) (CRDConflict, bool) {
	if apiequality.Semantic.DeepEqual(first.crd, second.crd) {
		return CRDConflict{}, false
	}
	return CRDConflict{Kept: first.crd.Name, KeptAt: first.at, Refused: second.crd.Name, RefusedAt: second.at,
		Apiserver: "kubectl create refuses the second (AlreadyExists), kubectl apply would replace the first with it"}, true
}

// namesConflicts is the apiserver's naming rule
// (k8s.io/apiextensions-apiserver pkg/controller/status
// naming_controller.go, calculateNamesAndConditions): in one API group,
// the plural, singular and short names of all CRDs are one set of resource
// names, and their kinds and list kinds one set of kind names; a CRD
// created after another that has accepted one of its names is not given
// that name (its condition NamesAccepted is False, reason PluralConflict,
// SingularConflict, ShortNamesConflict, KindConflict or ListKindConflict:
// the last of them) and is not served (Established False, NotAccepted).
// Its other names are accepted, and conflict with the CRDs after it. CRDs
// are taken in input order, as `kubectl create -f` creates them; singular
// and listKind default as the apiserver defaults them. One conflict is
// reported per pair of CRDs.
func namesConflicts(loaded []sourcedCRD) []CRDConflict {
	resources := map[string]map[string]sourcedCRD{} // group -> name -> CRD that accepted it
	kinds := map[string]map[string]sourcedCRD{}
	var out []CRDConflict
	for _, l := range loaded {
		g := l.crd.Spec.Group
		if resources[g] == nil {
			resources[g], kinds[g] = map[string]sourcedCRD{}, map[string]sourcedCRD{}
		}
		names := l.crd.Spec.Names
		if names.Singular == "" {
			names.Singular = strings.ToLower(names.Kind)
		}
		if names.ListKind == "" && names.Kind != "" {
			names.ListKind = names.Kind + "List"
		}
		var accepted []func()
		byOwner := map[string]int{} // the earlier CRD's name -> index in out
		claim := func(set map[string]sourcedCRD, field, name, reason string) {
			if name == "" {
				return
			}
			by, taken := set[name]
			if !taken || by.crd.Name == l.crd.Name {
				accepted = append(accepted, func() { set[name] = l })
				return
			}
			i, ok := byOwner[by.crd.Name]
			if !ok {
				i = len(out)
				byOwner[by.crd.Name] = i
				out = append(out, CRDConflict{Kept: by.crd.Name, KeptAt: by.at, Refused: l.crd.Name, RefusedAt: l.at})
			}
			out[i].Shared = append(out[i].Shared, fmt.Sprintf("%s %q", field, name))
			out[i].Apiserver = fmt.Sprintf("the second is not served (condition NamesAccepted False, reason %s: %q is already in use)", reason, name)
		}
		claim(resources[g], "spec.names.plural", names.Plural, "PluralConflict")
		claim(resources[g], "spec.names.singular", names.Singular, "SingularConflict")
		for _, s := range names.ShortNames {
			claim(resources[g], "spec.names.shortNames", s, "ShortNamesConflict")
		}
		claim(kinds[g], "spec.names.kind", names.Kind, "KindConflict")
		claim(kinds[g], "spec.names.listKind", names.ListKind, "ListKindConflict")
		for _, a := range accepted {
			a()
		}
	}
	return out
}

// crdFiles is p, a file, or the .yaml, .yml and .json files directly in
// p, a directory, in name order.
func crdFiles(t tree, p string) ([]string, error) {
	st, err := fs.Stat(t.fsys, p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	entries, err := fs.ReadDir(t.fsys, p)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, t.join(p, e.Name()))
			}
		}
	}
	sort.Strings(files)
	return files, nil
}
