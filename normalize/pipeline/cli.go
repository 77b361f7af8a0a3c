package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/normalize"
)

// Exit codes of RunCLI.
const (
	ExitOK       = 0 // every document is valid
	ExitInvalid  = 1 // some document is invalid (or, with --strict, has unknown fields)
	ExitUnusable = 2 // bad usage, an invalid CRD, unparsable input, or no CRD for a document
)

const usage = `usage: controller-gen-default normalize --crd PATH [--crd PATH]... [-o yaml|json] [--strict] [FILE|-]...

Prints each document of FILE (or standard input) as the apiserver would store
it on create: unknown fields pruned, non-nullable nulls without a default
dropped, metadata coerced, defaults applied top-down; then validates it as on
create (OpenAPI schema, CEL, list sets and maps, metadata).

PATH is a CRD file or a directory of them. Documents are matched to a served
CRD version by apiVersion and kind. Errors go to stderr as FILE:DOC: path:
message. Exit status: 0 all valid, 1 some document invalid, 2 unusable input.
`

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// RunCLI is `controller-gen-default normalize`. Nothing is printed on stdout
// unless every document could be processed (exit 0 or 1); with exit 1 the
// invalid documents are printed too, as they would have been stored had
// validation passed, so that the errors can be read against them.
func RunCLI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("normalize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	var crdPaths stringList
	fs.Var(&crdPaths, "crd", "CRD file or directory (repeatable)")
	output := fs.String("o", "yaml", "output format: yaml or json")
	strict := fs.Bool("strict", false, "unknown fields are errors, as with kubectl's --validate=strict")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUnusable
	}
	if len(crdPaths) == 0 || (*output != "yaml" && *output != "json") {
		fs.Usage()
		return ExitUnusable
	}

	ctx := context.Background()
	pipelines, code := loadPipelines(ctx, crdPaths, stderr)
	if code != ExitOK {
		return code
	}

	inputs := fs.Args()
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	type doc struct {
		file string
		n    int
		obj  map[string]any
	}
	var docs []doc
	for _, in := range inputs {
		b, name, err := readInput(in, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUnusable
		}
		objs, err := decodeDocuments(b)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUnusable
		}
		for i, o := range objs {
			docs = append(docs, doc{file: name, n: i + 1, obj: o})
		}
	}

	code = ExitOK
	var results []map[string]any
	for _, d := range docs {
		gvk := schema.FromAPIVersionAndKind(str(d.obj["apiVersion"]), str(d.obj["kind"]))
		p, ok := pipelines[gvk]
		if !ok {
			fmt.Fprintf(stderr, "%s:%d: no served CRD version for apiVersion %q, kind %q\n", d.file, d.n, gvk.GroupVersion(), gvk.Kind)
			return ExitUnusable
		}
		if m, ok := d.obj["metadata"].(map[string]any); ok && p.namespaced && m["namespace"] == nil {
			m["namespace"] = "default" // as kubectl sends it, from the context
		}
		res := p.Normalize(ctx, d.obj)
		for _, path := range res.Pruned {
			sev := "warning"
			if *strict {
				sev, code = "error", ExitInvalid
			}
			fmt.Fprintf(stderr, "%s:%d: %s: unknown field %q\n", d.file, d.n, sev, path)
		}
		for _, e := range sortErrors(res.Errors) {
			fmt.Fprintf(stderr, "%s:%d: %s\n", d.file, d.n, e.Error())
			code = ExitInvalid
		}
		results = append(results, res.Object)
	}
	if err := writeResults(stdout, results, *output); err != nil {
		fmt.Fprintln(stderr, err)
		return ExitUnusable
	}
	return code
}

// loadPipelines loads and validates the CRDs and builds a pipeline per
// served version.
func loadPipelines(ctx context.Context, paths []string, stderr io.Writer) (map[schema.GroupVersionKind]*Pipeline, int) {
	crds, err := normalize.LoadCRDs(paths...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, ExitUnusable
	}
	if len(crds) == 0 {
		fmt.Fprintf(stderr, "no CustomResourceDefinition in %s\n", strings.Join(paths, ", "))
		return nil, ExitUnusable
	}
	out := map[schema.GroupVersionKind]*Pipeline{}
	for _, c := range crds {
		if errs := normalize.ValidateCRD(ctx, c); len(errs) > 0 {
			for _, e := range sortErrors(errs) {
				fmt.Fprintf(stderr, "CRD %s: %s\n", c.Name, e.Error())
			}
			return nil, ExitUnusable
		}
		for _, v := range c.Spec.Versions {
			if !v.Served {
				continue
			}
			p, err := New(c, v.Name)
			if err != nil {
				fmt.Fprintf(stderr, "CRD %s: %v\n", c.Name, err)
				return nil, ExitUnusable
			}
			out[p.gvk] = p
		}
	}
	return out, ExitOK
}

func readInput(in string, stdin io.Reader) ([]byte, string, error) {
	if in == "-" {
		b, err := io.ReadAll(stdin)
		return b, "-", err
	}
	b, err := os.ReadFile(in)
	return b, in, err
}

// decodeDocuments reads a YAML stream or JSON documents into objects.
func decodeDocuments(b []byte) ([]map[string]any, error) {
	raw, err := normalize.SplitDocuments(b)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for i, d := range raw {
		j, err := yaml.YAMLToJSON(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		obj, err := DecodeObject(j)
		if err != nil {
			return nil, fmt.Errorf("document %d: not an object", i+1)
		}
		out = append(out, obj)
	}
	return out, nil
}

// DecodeObject decodes one JSON object as the apiserver does: integers as
// int64, other numbers as float64.
func DecodeObject(b []byte) (map[string]any, error) {
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return fromJSONNumbers(obj).(map[string]any), nil
}

// fromJSONNumbers turns json.Number into int64 or float64, the types the
// apiserver's unstructured decoding produces.
func fromJSONNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = fromJSONNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = fromJSONNumbers(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

func writeResults(w io.Writer, objs []map[string]any, format string) error {
	if format == "json" {
		var v any = objs
		if len(objs) == 1 {
			v = objs[0]
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	for i, o := range objs {
		if len(objs) > 1 || i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		b, err := yaml.Marshal(o)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// sortErrors orders errors by field path, then message, so that stderr is
// stable: the apiserver's validators walk maps in random order.
func sortErrors(errs field.ErrorList) field.ErrorList {
	out := slices.Clone(errs)
	slices.SortStableFunc(out, func(a, b *field.Error) int {
		if c := strings.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		return strings.Compare(a.Error(), b.Error())
	})
	return out
}
