package normalize

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
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
// JSON files. Documents of other kinds are skipped.
func LoadCRDs(paths ...string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, p := range paths {
		files, err := crdFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			docs, err := SplitDocuments(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for i, d := range docs {
				c, err := decodeCRD(d)
				if err != nil {
					return nil, fmt.Errorf("%s: document %d: %w", f, i+1, err)
				}
				if c != nil {
					out = append(out, c)
				}
			}
		}
	}
	return out, nil
}

// decodeCRD decodes one document: a v1 CRD, strictly; nil for a document
// of another kind. The document is converted from YAML once: most are
// CRDs, which decode strictly, and only a document that does not is read
// again for its kind (which a strict decoding implies: it is the
// non-strict reading's).
func decodeCRD(d []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	c := &apiextensionsv1.CustomResourceDefinition{}
	strictErr := yaml.UnmarshalStrict(d, c)
	tm := struct{ APIVersion, Kind string }{c.APIVersion, c.Kind}
	if strictErr != nil {
		tm.APIVersion, tm.Kind = "", ""
		if err := yaml.Unmarshal(d, &tm); err != nil {
			return nil, err
		}
	}
	if tm.Kind != "CustomResourceDefinition" {
		return nil, nil
	}
	if tm.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
		return nil, fmt.Errorf("%s is not supported, only %s", tm.APIVersion, apiextensionsv1.SchemeGroupVersion)
	}
	if strictErr != nil {
		return nil, strictErr
	}
	return c, nil
}

func crdFiles(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	sort.Strings(files)
	return files, nil
}

// SplitDocuments splits a YAML stream (or one JSON document) into its
// non-empty documents.
func SplitDocuments(b []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var docs [][]byte
	for {
		d, err := r.Read()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(d))) == 0 {
			continue
		}
		docs = append(docs, d)
	}
}

func stripComments(d []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(d, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}
