package impact

import (
	"fmt"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/normalize"
	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

// Input is one object of the command's input.
type Input struct {
	// Source is FILE:DOC, or FILE:DOC:ITEM for an item of a List.
	Source string
	Object map[string]any
}

// ReadInputs reads the objects of each file (- is stdin): multi-document
// YAML or JSON, where a List (kind List, as `kubectl get -o yaml` writes
// it, or a kind ending in List with items that no CRD of OLD defines)
// stands for its items.
func (a *Analyzer) ReadInputs(files []string, stdin io.Reader) ([]Input, error) {
	return readInputs(files, stdin, a.definesKind)
}

func readInputs(files []string, stdin io.Reader, isKind func(kind string) bool) ([]Input, error) {
	var out []Input
	for _, f := range files {
		b, err := readFile(f, stdin)
		if err != nil {
			return nil, err
		}
		docs, err := normalize.SplitDocuments(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for i, d := range docs {
			obj, err := decodeDocument(d)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", f, i+1, err)
			}
			items, isList := listItems(obj, isKind)
			if !isList {
				out = append(out, Input{Source: fmt.Sprintf("%s:%d", f, i+1), Object: obj})
				continue
			}
			for j, item := range items {
				m, ok := item.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s:%d: item %d is not an object", f, i+1, j+1)
				}
				out = append(out, Input{Source: fmt.Sprintf("%s:%d:%d", f, i+1, j+1), Object: m})
			}
		}
	}
	return out, nil
}

func readFile(f string, stdin io.Reader) ([]byte, error) {
	if f == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(f)
}

// decodeDocument decodes one YAML or JSON document as the apiserver
// decodes JSON (integers as int64).
func decodeDocument(d []byte) (map[string]any, error) {
	j, err := yaml.YAMLToJSON(d)
	if err != nil {
		return nil, err
	}
	obj, err := pipeline.DecodeObject(j)
	if err != nil {
		return nil, fmt.Errorf("not an object: %w", err)
	}
	return obj, nil
}

// listItems returns the items of a List.
func listItems(obj map[string]any, isKind func(string) bool) ([]any, bool) {
	kind, _ := obj["kind"].(string)
	items, hasItems := obj["items"].([]any)
	if kind == "List" || (strings.HasSuffix(kind, "List") && hasItems && !isKind(kind)) {
		return items, true
	}
	return nil, false
}
