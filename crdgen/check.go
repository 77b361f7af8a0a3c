package crdgen

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/engine"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
)

const (
	ruleAPIServer      = "apiserver"
	ruleNestedDefaults = "nested-defaults"
	ruleNoGroup        = "crd-without-group"
)

// withoutGroup is the warning for the CRD name that controller-tools
// wrote without a group, for a root type at n in a package without
// +groupName. No apiserver accepts it (its name ends in "." and
// spec.group is required), so its checks could only say that; projects
// that generate such packages keep the files controller-gen writes (open
// policy agent gatekeeper's unversioned mutation types), so it is written
// unchecked, as controller-gen writes it (with this generator's defaults),
// and the warning says how to make it a CRD.
func withoutGroup(n engine.Node, name string) model.Finding {
	return model.Finding{Sev: model.Warning, Pos: n.At, GoPath: n.GoPath, Rule: ruleNoGroup, Own: n.Own, CRD: name,
		Msg: fmt.Sprintf("CRD %s: its package declares no +groupName, so the CRD has no group and no apiserver accepts it (spec.group: Required value); "+
			"written without the apiserver's checks (controller-gen writes it too). To make it a CRD, add // +groupName=<group> "+
			"to the package's doc comment; else leave the package out of paths", name)}
}

// checker validates CRDs with the apiserver's own code, as on create, and
// then each default with the defaults nested below it applied. The checks
// of one CRD run in the background while the next CRD is generated; their
// errors are reported in CRD order. The generator holds one of GOMAXPROCS
// slots until it is done (generatorDone), so that checks use the other CPUs
// while it runs and all of them afterwards: more checks beside the
// generator only raise peak memory.
type checker struct {
	ctx     context.Context
	wg      sync.WaitGroup
	slots   chan struct{}
	results []*checkResult
	cache   *checkcache.Cache
	// notAboutDefaults are the apiserver's errors about something else
	// than a default, by Finding.String (failure).
	notAboutDefaults map[string]bool
}

// checkResult is what the checks said about one CRD.
type checkResult struct {
	crd  *apiextensionsv1.CustomResourceDefinition
	errs []ruleError
}

// ruleError is an apiserver error about a schema, with the rule that
// reports it: ruleAPIServer for ValidateCRD's, ruleNestedDefaults for
// crdcheck.Check's later errors.
type ruleError struct {
	rule string
	schemaError
}

// schemaError is an apiserver error about a schema: its path and its
// message, verbatim.
type schemaError struct {
	Field, Message string
}

// toRuleErrors keeps the apiserver's errors about c: its path, and its
// message, with a refusal of a default in words (refusal.One, which reads
// the default in c's schema), reported under rule.
func toRuleErrors(c *apiextensionsv1.CustomResourceDefinition, errs field.ErrorList, rule string) []ruleError {
	out := make([]ruleError, 0, len(errs))
	for _, e := range errs {
		out = append(out, ruleError{rule, schemaError{Field: e.Field, Message: refusal.One(e, defaultAt(c, e.Field))}})
	}
	return out
}

// defaultAt is the default of the schema node that an apiserver error path
// names (…properties[x].default, …items.default.name), as JSON; nil when
// the path names none.
func defaultAt(c *apiextensionsv1.CustomResourceDefinition, f string) []byte {
	i := strings.Index(f, "openAPIV3Schema")
	if i < 0 || !strings.Contains(f[i:], ".default") {
		return nil
	}
	versions, spath := splitSchemaField(c, f)
	rest := f[i+len("openAPIV3Schema"):]
	if spath != "" && !strings.HasPrefix(strings.TrimPrefix(rest, "."), spath+".default") {
		return nil // a default below a node the path goes through another way
	}
	if spath == "" && !strings.HasPrefix(rest, ".default") {
		return nil
	}
	for _, v := range c.Spec.Versions {
		if !slices.Contains(versions, v.Name) || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		s := v.Schema.OpenAPIV3Schema
		for _, seg := range engine.SplitPath(spath) {
			switch {
			case strings.HasPrefix(seg, "properties["):
				p, ok := s.Properties[strings.TrimSuffix(strings.TrimPrefix(seg, "properties["), "]")]
				if !ok {
					s = nil
					break
				}
				s = &p
			case seg == "items" && s.Items != nil && s.Items.Schema != nil:
				s = s.Items.Schema
			case seg == "additionalProperties" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
				s = s.AdditionalProperties.Schema
			default:
				s = nil
			}
			if s == nil {
				break
			}
		}
		if s != nil && s.Default != nil {
			return s.Default.Raw
		}
	}
	return nil
}

func newChecker(ctx context.Context) *checker {
	ch := &checker{ctx: ctx, slots: make(chan struct{}, max(2, runtime.GOMAXPROCS(0))), cache: checkcache.Open(), notAboutDefaults: map[string]bool{}}
	ch.slots <- struct{}{} // the generator's
	return ch
}

// generatorDone gives the generator's slot to the checks.
func (ch *checker) generatorDone() { <-ch.slots }

// start checks c in the background, through the check cache: a CRD that
// passed every check with this code before is not checked again. c must
// not change afterwards.
func (ch *checker) start(c *apiextensionsv1.CustomResourceDefinition) {
	r := &checkResult{crd: c}
	ch.results = append(ch.results, r)
	ch.wg.Add(1)
	go func() {
		ch.slots <- struct{}{} // here, not before go: the generator must not wait
		defer func() { <-ch.slots; ch.wg.Done() }()
		r.errs = checkcache.Run(ch.cache, "generate", []*apiextensionsv1.CustomResourceDefinition{c}, func() []ruleError {
			invalid, later := crdcheck.Check(ch.ctx, c)
			return append(toRuleErrors(c, invalid, ruleAPIServer), toRuleErrors(c, later, ruleNestedDefaults)...)
		})
	}()
}

// report waits for every check and reports its errors at the Go source
// of b, in b's findings.
func (ch *checker) report(b *engine.Build) {
	ch.wg.Wait()
	for _, r := range ch.results {
		for _, e := range r.errs {
			ch.reportSchemaError(b, r.crd, e.schemaError, e.rule)
		}
	}
}

// reportSchemaError keeps the apiserver's message verbatim and adds where
// in the Go source it comes from and, for a default, which rule wrote it.
func (ch *checker) reportSchemaError(b *engine.Build, c *apiextensionsv1.CustomResourceDefinition, e schemaError, rule string) {
	versions, spath := splitSchemaField(c, e.Field)
	for _, v := range versions {
		if b.BelowRecursion(c.Name, v, spath) {
			return // the recursive-type error says why, at the Go field
		}
	}
	aboutDefault := strings.Contains(e.Field[strings.Index(e.Field, "openAPIV3Schema")+1:], ".default")
	var n engine.Node
	var o engine.Origin
	var found, hasOrigin bool
	for _, v := range versions {
		if aboutDefault && !hasOrigin {
			// the node whose default is in question is the one the path names
			o, hasOrigin = b.Origin(c.Name, v, spath)
		}
		if !found {
			n, found = b.Locate(c.Name, v, spath)
		}
	}
	if !found {
		n = b.Root(c.Name)
	}
	at, goPath := n.At, n.GoPath
	if hasOrigin {
		at, goPath = o.At, o.GoPath
	}
	msg := fmt.Sprintf("CRD %s: %s", c.Name, e.Message)
	if hasOrigin {
		msg += " (" + o.Cause + ")"
	}
	sev := model.Error
	if strings.HasPrefix(e.Field, "metadata.annotations") {
		// Not about the schema: protected *.k8s.io groups need an approval
		// annotation, which projects add with +kubebuilder:metadata:annotations
		// or in their release pipeline. controller-gen writes such CRDs too.
		sev = model.Warning
		msg += "; add it with // +kubebuilder:metadata:annotations=\"api-approved.kubernetes.io=<URL of the API review>\" on the type"
	}
	f := model.Finding{Sev: sev, Pos: at, GoPath: goPath, JPath: n.JPath, Rule: rule, Own: true, Msg: msg, CRD: c.Name}
	// An error at a .default that the build did not write asks for a
	// default where the schema, as controller-gen writes it, has none (a
	// list-map key neither required nor defaulted): not about a default.
	if !(aboutDefault && hasOrigin) && rule == ruleAPIServer {
		ch.notAboutDefaults[f.String()] = true
	}
	b.Findings().Add(f)
}

// failure says why nothing was written, once diags, the build's findings,
// hold an error: when each error is the apiserver's about something else
// than a default (a CEL rule over its cost budget, two storage versions),
// the CRDs are refused as controller-gen writes them too, and the way to
// write them unchecked is named.
func (ch *checker) failure(diags *model.Diagnostics) error {
	for _, f := range diags.List() {
		if f.Sev == model.Error && !ch.notAboutDefaults[f.String()] {
			return fmt.Errorf("crd: errors in defaults; no CRD was written")
		}
	}
	return fmt.Errorf("crd: the apiserver refuses these CRDs, as controller-gen writes them too: the errors above are not about defaults; " +
		"no CRD was written (crd:check=false writes them without the checks)")
}

// splitSchemaField reads an apiserver error path such as
// spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[x].default
// or spec.validation.openAPIV3Schema.properties[spec].items.default and
// returns the versions it may be about and the schema path of the deepest
// property, items or additionalProperties node it names.
func splitSchemaField(c *apiextensionsv1.CustomResourceDefinition, f string) ([]string, string) {
	var versions []string
	if i := strings.Index(f, "versions["); i >= 0 {
		if j := strings.Index(f[i:], "]"); j > 0 {
			if n, err := strconv.Atoi(f[i+len("versions[") : i+j]); err == nil && n < len(c.Spec.Versions) {
				versions = []string{c.Spec.Versions[n].Name}
			}
		}
	}
	if versions == nil {
		for _, v := range c.Spec.Versions {
			versions = append(versions, v.Name)
		}
	}
	i := strings.Index(f, "openAPIV3Schema")
	if i < 0 {
		return versions, ""
	}
	var segs []string
	for _, s := range engine.SplitPath(strings.TrimPrefix(f[i+len("openAPIV3Schema"):], ".")) {
		if !strings.HasPrefix(s, "properties[") && s != "items" && s != "additionalProperties" {
			break
		}
		segs = append(segs, s)
	}
	return versions, strings.Join(segs, ".")
}
