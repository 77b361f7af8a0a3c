// Package normalize calls the apiserver's own code (k8s.io/apiextensions-apiserver)
// to do, offline, what the apiserver does with a CRD and its objects:
//
//   - ValidateCRD: the validation of a CRD on create;
//   - CheckDefaults: defaults the apiserver accepts but whose objects then fail;
//   - Pipeline: the decode and create path of one object, pruning,
//     null removal, metadata coercion, defaulting and validation, in the
//     apiserver's order;
//   - RunCLI: `controller-gen-default normalize`.
//
// Nothing here re-implements the apiserver: every step is the upstream
// function named in its doc comment.
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
// SetObjectDefaults_CustomResourceDefinition, conversion to the internal
// type, status.storedVersions set to the storage version (the registry's
// PrepareForCreate does that), then validation.ValidateCustomResourceDefinition.
// The input is not modified.
func ValidateCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) field.ErrorList {
	internal, err := toInternal(crd)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return validation.ValidateCustomResourceDefinition(ctx, internal)
}

func toInternal(crd *apiextensionsv1.CustomResourceDefinition) (*apiextensions.CustomResourceDefinition, error) {
	c := crd.DeepCopy()
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(c)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(c, internal, nil); err != nil {
		return nil, err
	}
	internal.Status.StoredVersions = nil
	for _, v := range internal.Spec.Versions {
		if v.Storage {
			internal.Status.StoredVersions = append(internal.Status.StoredVersions, v.Name)
		}
	}
	return internal, nil
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
			docs, err := splitDocuments(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for i, d := range docs {
				var tm struct{ APIVersion, Kind string }
				if err := yaml.Unmarshal(d, &tm); err != nil {
					return nil, fmt.Errorf("%s: document %d: %w", f, i+1, err)
				}
				if tm.Kind != "CustomResourceDefinition" {
					continue
				}
				if tm.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
					return nil, fmt.Errorf("%s: document %d: %s is not supported, only %s", f, i+1, tm.APIVersion, apiextensionsv1.SchemeGroupVersion)
				}
				c := &apiextensionsv1.CustomResourceDefinition{}
				if err := yaml.UnmarshalStrict(d, c); err != nil {
					return nil, fmt.Errorf("%s: document %d: %w", f, i+1, err)
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
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

// splitDocuments splits a YAML stream (or one JSON document) into its
// non-empty documents.
func splitDocuments(b []byte) ([][]byte, error) {
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
