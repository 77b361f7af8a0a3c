package impact

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
)

// TestCreatedAsReadRandomSchemas tries to falsify, over random schemas,
// the claim createdAsRead rests on: when OLD's and NEW's schemas judge an
// object alike (ruleTree.judgesAlike compares them at the object's values
// only), NEW refuses none of its values that OLD accepts, whatever the two
// say of the fields it lacks, so that skipping heldByRatcheting's write of
// every value as new changes no record. Each seed draws a structural
// schema (objects, maps, lists and scalars with bounds, enums, patterns,
// defaults and CEL rules, some of which read fields that may be absent),
// changes it at one to three random nodes into NEW, and analyzes objects
// that fit OLD, break it or lack most fields, with the shortcuts and
// without them (the Analyzer's fullPath): the records must be the same. The counts make
// sure that objects took the shortcut under NEWs that change more than
// descriptions, and that objects read as stored were turned away from it,
// often enough to mean something.
func TestCreatedAsReadRandomSchemas(t *testing.T) {
	// every CRD is new: cached checks would only fill the user's cache
	t.Setenv(checkcache.Env, "off")
	pairs, objects := 300, 16
	if testing.Short() {
		pairs = 60
	}
	ctx := context.Background()
	// fits: objects OLD accepts; shortcut: those of them that took the
	// shortcut, changed: of those, the ones whose NEW changes more than
	// descriptions; turnedAway: those read as stored that did not take it
	var skipped, fits, shortcut, changed, turnedAway, ratcheted, mismatches int
	for seed := range uint64(pairs) {
		g := &schemaGen{r: rand.New(rand.NewPCG(seed, 0xc0ffee)), checks: map[string]func(any) bool{}}
		old := g.crd()
		new := old.DeepCopy()
		changes := g.mutate(new.Spec.Versions[0].Schema.OpenAPIV3Schema)
		rulesChange := slices.ContainsFunc(changes, func(c string) bool { return !strings.HasSuffix(c, "description changed") })
		a, err := New(ctx, []*apiextensionsv1.CustomResourceDefinition{old}, []*apiextensionsv1.CustomResourceDefinition{new})
		if err != nil {
			skipped++
			continue
		}
		for i := range objects {
			obj := g.instance(old, i)
			before := a.skips.createdAsRead.Load()
			fast, ferr := a.Object(ctx, runtime.DeepCopyJSON(obj))
			took := a.skips.createdAsRead.Load() > before
			a.fullPath = true
			full, err := a.Object(ctx, runtime.DeepCopyJSON(obj))
			a.fullPath = false
			if !reflect.DeepEqual(fast, full) || (ferr == nil) != (err == nil) {
				if mismatches++; mismatches <= 3 {
					t.Errorf("seed %d, object %d (NEW: %s): the records differ with the shortcuts (createdAsRead: %v) and without\n"+
						"OLD:\n%s\nNEW:\n%s\nobject:\n%s\nwith the shortcuts (error %v):\n%s\nwithout (error %v):\n%s",
						seed, i, strings.Join(changes, "; "), took, yamlOf(old.Spec.Versions[0]), yamlOf(new.Spec.Versions[0]),
						yamlOf(obj), ferr, yamlOf(fast), err, yamlOf(full))
				}
				continue
			}
			if ferr != nil || len(fast.InvalidUnderOld) > 0 || fast.Read == nil {
				continue
			}
			fits++
			switch {
			case took && rulesChange:
				changed++
				fallthrough
			case took:
				shortcut++
			case reflect.DeepEqual(fast.Stored, fast.Read):
				turnedAway++
			}
			if len(full.Ratcheted) > 0 {
				ratcheted++
			}
		}
	}
	t.Logf("%d schema pairs (%d refused by the apiserver), %d objects; %d fit OLD: %d took createdAsRead's shortcut "+
		"(%d under a NEW that changes more than descriptions), %d read as stored did not; %d hold values by ratcheting",
		pairs, skipped, (pairs-skipped)*objects, fits, shortcut, changed, turnedAway, ratcheted)
	if mismatches > 0 {
		t.Errorf("%d objects have other records with the shortcuts than without", mismatches)
	}
	if 2*skipped > pairs {
		t.Errorf("the apiserver refused %d of %d schema pairs", skipped, pairs)
	}
	if changed < 20 || turnedAway < 20 {
		t.Errorf("%d objects took the shortcut under a NEW that changes rules, %d read as stored did not, want 20 of each", changed, turnedAway)
	}
}

// jsonSchema is a node of a CRD's schema, celRule one of its CEL rules.
type (
	jsonSchema = apiextensionsv1.JSONSchemaProps
	celRule    = apiextensionsv1.ValidationRule
)

// randomNames are the fields of the random schemas' objects; unknownName
// is one that only NEW may add, which objects have where OLD preserves
// unknown fields.
var randomNames = []string{"a", "b", "c", "d", "e"}

const unknownName = "z"

// schemaGen draws a random CRD, its change and its objects from one seed.
type schemaGen struct {
	r *rand.Rand
	// checks holds the Go form of each CEL rule the schemas have, so that
	// the values drawn to fit a schema keep its rules.
	checks map[string]func(any) bool
	// inList counts the lists the node drawn is in: oldSelf cannot be used
	// there.
	inList int
	// bad is the chance, at each node of a value, of a value that likely
	// breaks the schema; fill that of each optional field of an object.
	bad, fill float64
}

// crd is a random CRD with one version, v1: its schema has a spec and at
// times a status, then at times with the status subresource; its root at
// times requires the spec, or has a CEL rule on its fields.
func (g *schemaGen) crd() *apiextensionsv1.CustomResourceDefinition {
	root := jsonSchema{Type: "object", Properties: map[string]jsonSchema{"spec": g.objectSchema(0)}}
	v := apiextensionsv1.CustomResourceDefinitionVersion{Name: "v1", Served: true, Storage: true,
		Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &root}}
	if g.r.IntN(2) == 0 {
		root.Properties["status"] = g.objectSchema(0)
		if g.r.IntN(2) == 0 {
			v.Subresources = &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}}
		}
	}
	if g.r.IntN(8) == 0 {
		root.Required = []string{"spec"}
	}
	if g.r.IntN(6) == 0 {
		g.objectRule(&root)
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "things.random.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group:    "random.example.com",
			Names:    apiextensionsv1.CustomResourceDefinitionNames{Plural: "things", Singular: "thing", Kind: "Thing", ListKind: "ThingList"},
			Scope:    apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{v},
		},
	}
}

// node is a random schema at depth (the spec's fields are at 1): a scalar,
// or above depth 3 also a list, a map or an object; a third have a CEL
// rule, some scalars outside lists one that reads oldSelf, a quarter a
// description.
func (g *schemaGen) node(depth int) jsonSchema {
	var s jsonSchema
	kinds := 6
	if depth >= 3 {
		kinds = 3
	}
	switch g.r.IntN(kinds) {
	case 0:
		s = g.leaf("string")
	case 1:
		s = g.leaf("integer")
	case 2:
		s = g.leaf("boolean")
	case 3:
		s = g.list(depth)
	case 4:
		s = g.mapSchema(depth)
	default:
		s = g.objectSchema(depth)
	}
	if g.r.IntN(3) == 0 {
		g.addRule(&s)
	}
	if scalarType(s.Type) && g.inList == 0 && g.r.IntN(6) == 0 {
		g.transition(&s)
	}
	if g.r.IntN(4) == 0 {
		s.Description = "a random field"
	}
	return s
}

// leaf is a schema of type typ, a scalar's or "array" for a short list of
// strings, with random bounds, enum and pattern, at times nullable.
// Strings and lists are always bounded, for the CEL cost estimation.
func (g *schemaGen) leaf(typ string) jsonSchema {
	s := jsonSchema{Type: typ, Nullable: g.r.IntN(6) == 0}
	switch typ {
	case "string":
		s.MaxLength = ptrTo(int64(3 + g.r.IntN(6)))
		if g.r.IntN(4) == 0 {
			s.MinLength = ptrTo(int64(1))
		}
		if g.r.IntN(4) == 0 {
			s.Pattern = "^[a-c]*$"
		}
		if g.r.IntN(4) == 0 {
			s.Enum = g.enum("a", "ab", "abc", "b", "ca")
		}
	case "integer":
		if g.r.IntN(3) == 0 {
			s.Minimum = ptrTo(float64(g.r.IntN(3)))
		}
		if g.r.IntN(3) == 0 {
			s.Maximum = ptrTo(float64(6 + g.r.IntN(10)))
		}
		if g.r.IntN(5) == 0 {
			s.Enum = g.enum(int64(1), int64(2), int64(4), int64(8))
		}
	case "array":
		items := g.leaf("string")
		s.MaxItems, s.Items = ptrTo(int64(3)), &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &items}
	}
	return s
}

// enum is two or three of values, as JSON.
func (g *schemaGen) enum(values ...any) []apiextensionsv1.JSON {
	var out []apiextensionsv1.JSON
	for _, i := range g.r.Perm(len(values))[:2+g.r.IntN(2)] {
		out = append(out, apiextensionsv1.JSON{Raw: mustJSON(values[i])})
	}
	return out
}

// list is a schema of lists of at most four random items, at times with
// a minimum of one, and atomic or a set when the items are scalars.
func (g *schemaGen) list(depth int) jsonSchema {
	g.inList++
	items := g.node(depth + 1)
	g.inList--
	s := jsonSchema{Type: "array", MaxItems: ptrTo(int64(1 + g.r.IntN(4))), Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &items}}
	if g.r.IntN(4) == 0 {
		s.MinItems = ptrTo(int64(1))
	}
	if scalarType(items.Type) && g.r.IntN(2) == 0 {
		s.XListType = ptrTo([]string{"atomic", "set"}[g.r.IntN(2)])
	}
	return s
}

// mapSchema is a schema of maps of at most three random values.
func (g *schemaGen) mapSchema(depth int) jsonSchema {
	values := g.node(depth + 1)
	return jsonSchema{Type: "object", MaxProperties: ptrTo(int64(1 + g.r.IntN(3))),
		AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &values}}
}

// objectSchema is a schema of objects with one to four fields of
// randomNames, some defaulted, at times one required, at times with
// unknown fields preserved; half have a CEL rule on their fields.
func (g *schemaGen) objectSchema(depth int) jsonSchema {
	s := jsonSchema{Type: "object", Properties: map[string]jsonSchema{}}
	for _, i := range g.r.Perm(len(randomNames))[:1+g.r.IntN(4)] {
		c := g.node(depth + 1)
		if scalarType(c.Type) && g.r.IntN(6) == 0 {
			g.setDefault(&c)
		}
		s.Properties[randomNames[i]] = c
	}
	if g.r.IntN(4) == 0 {
		names := slices.Sorted(maps.Keys(s.Properties))
		s.Required = []string{names[g.r.IntN(len(names))]}
	}
	if g.r.IntN(6) == 0 {
		s.XPreserveUnknownFields = ptrTo(true)
	}
	if g.r.IntN(2) == 0 {
		g.addRule(&s)
	}
	return s
}

// setDefault gives s a default that fits it, when one of a few draws
// does, and says whether it did.
func (g *schemaGen) setDefault(s *jsonSchema) bool {
	for range 4 {
		if v := g.draw(s); v != nil && g.keeps(s, v) {
			s.Default = &apiextensionsv1.JSON{Raw: mustJSON(v)}
			return true
		}
	}
	return false
}

// addRule gives s a CEL rule that fits its type, and records its Go form.
func (g *schemaGen) addRule(s *jsonSchema) {
	if s.Properties != nil {
		g.objectRule(s)
	} else if cel, ok := g.cond("self", s); cel != "" {
		g.rule(s, celRule{Rule: cel}, ok)
	}
}

// rule adds the CEL rule r, whose Go form on a new value is ok, to s,
// unless s has it.
func (g *schemaGen) rule(s *jsonSchema, r celRule, ok func(any) bool) {
	if slices.ContainsFunc(s.XValidations, func(x celRule) bool { return x.Rule == r.Rule }) {
		return
	}
	s.XValidations = append(s.XValidations, r)
	g.checks[r.Rule] = ok
}

// transition gives s, a scalar outside lists, a rule that reads oldSelf:
// a transition rule, or with optionalOldSelf a condition on new values.
// (On an object with two ill-typed fields, self == oldSelf fails with the
// error of whichever Go's map order compares first: a record that changes
// from run to run.)
func (g *schemaGen) transition(s *jsonSchema) {
	if cel, ok := g.cond("self", s); cel != "" && g.r.IntN(2) == 0 {
		g.rule(s, celRule{Rule: "oldSelf.hasValue() || " + cel, OptionalOldSelf: ptrTo(true)}, ok)
		return
	}
	g.rule(s, celRule{Rule: "self == oldSelf"}, func(any) bool { return true })
}

// cond is a random CEL condition on expr, a value of schema s, and its Go
// form; "" for an object with properties.
func (g *schemaGen) cond(expr string, s *jsonSchema) (string, func(any) bool) {
	switch {
	case s.Properties != nil:
		return "", nil
	case s.AdditionalProperties != nil && g.r.IntN(2) == 0:
		return "!('k3' in " + expr + ")", func(v any) bool { _, ok := fieldOf(v, "k3"); return !ok }
	case s.Type == "array" && s.Items.Schema.Type != "array" && g.r.IntN(2) == 0:
		if cel, ok := g.cond("x", s.Items.Schema); cel != "" {
			return expr + ".all(x, " + cel + ")", func(v any) bool {
				l, _ := v.([]any)
				return !slices.ContainsFunc(l, func(x any) bool { return !ok(x) })
			}
		}
	case s.Type == "string" && g.r.IntN(3) == 0:
		return "!" + expr + ".startsWith('c')", func(v any) bool { return !strings.HasPrefix(fmt.Sprint(v), "c") }
	case s.Type == "string" && g.r.IntN(2) == 0:
		return expr + " != 'ab'", func(v any) bool { return v != "ab" }
	case s.Type == "integer" && g.r.IntN(2) == 0:
		return expr + " % 2 == 0", func(v any) bool { i, _ := v.(int64); return i%2 == 0 }
	case s.Type == "integer" || s.Type == "number":
		return expr + " < 7", func(v any) bool { return celNumber(v) < 7 }
	case s.Type == "boolean":
		return expr, func(v any) bool { return v == true }
	}
	return expr + ".size() < 3", func(v any) bool { return celSize(v) < 3 }
}

// objectRule gives the object schema s a rule on one of its fields, c: a
// condition on c when it is there, or also that it is; a condition on a
// field of c when both are there; or that c is there when another is.
func (g *schemaGen) objectRule(s *jsonSchema) {
	names := slices.Sorted(maps.Keys(s.Properties))
	c, d := names[g.r.IntN(len(names))], names[g.r.IntN(len(names))]
	cs := s.Properties[c]
	switch cel, ok := g.cond("self."+c, &cs); {
	case g.r.IntN(4) == 0 && c != d:
		g.rule(s, celRule{Rule: fmt.Sprintf("has(self.%s) || !has(self.%s)", c, d)}, func(v any) bool {
			_, hasC := fieldOf(v, c)
			_, hasD := fieldOf(v, d)
			return hasC || !hasD
		})
	case cel == "":
		gnames := slices.Sorted(maps.Keys(cs.Properties))
		gc := gnames[g.r.IntN(len(gnames))]
		gs := cs.Properties[gc]
		gcel, gok := g.cond(fmt.Sprintf("self.%s.%s", c, gc), &gs)
		if gcel == "" {
			gcel, gok = "false", func(any) bool { return false }
		}
		g.rule(s, celRule{Rule: fmt.Sprintf("!has(self.%s) || !has(self.%s.%s) || %s", c, c, gc, gcel)}, func(v any) bool {
			x, hasC := fieldOf(v, c)
			y, hasGC := fieldOf(x, gc)
			return !hasC || !hasGC || gok(y)
		})
	case g.r.IntN(3) == 0:
		g.rule(s, celRule{Rule: cel}, func(v any) bool { x, has := fieldOf(v, c); return has && ok(x) })
	default:
		g.rule(s, celRule{Rule: fmt.Sprintf("!has(self.%s) || %s", c, cel)}, func(v any) bool { x, has := fieldOf(v, c); return !has || ok(x) })
	}
}

// mutate changes the schema root at one to three random nodes below it,
// and names the changes.
func (g *schemaGen) mutate(root *jsonSchema) []string {
	var out []string
	for n := 1 + g.r.IntN(3); len(out) < n; {
		all := nodePaths(root, nil)
		p := all[g.r.IntN(len(all))]
		editNode(root, p, func(s *jsonSchema) {
			before := s.DeepCopy()
			if c := g.change(s); c != "" && !reflect.DeepEqual(before, s) {
				out = append(out, strings.Join(p, ".")+": "+c)
			}
		})
	}
	return out
}

// change makes one random change to s and names it, or returns "" when
// the change drawn does not apply to s.
func (g *schemaGen) change(s *jsonSchema) string {
	switch g.r.IntN(11) {
	case 0:
		return g.tighten(s)
	case 1:
		return g.loosen(s)
	case 2:
		return g.changeEnum(s)
	case 3:
		g.addRule(s)
		return "rule added"
	case 4:
		return g.changeRequired(s)
	case 5:
		s.Description = "changed: " + s.Description
		return "description changed"
	case 6:
		if s.Properties == nil {
			return ""
		}
		names := append(slices.Clone(randomNames), unknownName)
		k := names[g.r.IntN(len(names))]
		if _, ok := s.Properties[k]; ok {
			return ""
		}
		s.Properties[k] = g.node(2)
		return k + " added"
	case 7:
		if len(s.Properties) < 2 {
			return ""
		}
		names := slices.Sorted(maps.Keys(s.Properties))
		k := names[g.r.IntN(len(names))]
		delete(s.Properties, k)
		s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == k })
		s.XValidations = slices.DeleteFunc(s.XValidations, func(r celRule) bool { return strings.Contains(r.Rule, "self."+k) })
		return k + " removed"
	case 8:
		to := map[string][]string{"string": {"integer", "array"}, "integer": {"number", "string"}, "boolean": {"string", "integer"}}[s.Type]
		if to == nil || s.Items != nil {
			return ""
		}
		d := s.Description
		*s = g.leaf(to[g.r.IntN(2)])
		s.Description = d
		return "type changed to " + s.Type
	case 9:
		if !scalarType(s.Type) || !g.setDefault(s) {
			return ""
		}
		return "default " + string(s.Default.Raw)
	default:
		if s.Type != "array" || !scalarType(s.Items.Schema.Type) {
			return ""
		}
		to := []string{"atomic", "set"}[g.r.IntN(2)]
		s.XListType = &to
		return "list type " + to
	}
}

// changeEnum adds a value to s's enum, or drops one.
func (g *schemaGen) changeEnum(s *jsonSchema) string {
	// copies: JSONSchemaProps.DeepCopy leaves OLD's enum shared
	switch {
	case len(s.Enum) > 0 && g.r.IntN(2) == 0:
		added := map[string]any{"string": "bb", "integer": int64(6)}[s.Type]
		s.Enum = append(slices.Clone(s.Enum), apiextensionsv1.JSON{Raw: mustJSON(added)})
		return "enum value added"
	case len(s.Enum) > 1:
		i := g.r.IntN(len(s.Enum))
		s.Enum = slices.Delete(slices.Clone(s.Enum), i, i+1)
		return "enum value dropped"
	}
	return ""
}

// changeRequired requires one field of s fewer, or one more.
func (g *schemaGen) changeRequired(s *jsonSchema) string {
	if len(s.Required) > 0 && g.r.IntN(2) == 0 {
		k := s.Required[g.r.IntN(len(s.Required))]
		s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == k })
		return k + " no longer required"
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if !slices.Contains(s.Required, k) {
			s.Required = append(s.Required, k)
			return k + " required"
		}
	}
	return ""
}

// tighten lowers a maximum of s or raises a minimum, to values that some
// objects break, or makes it not nullable.
func (g *schemaGen) tighten(s *jsonSchema) string {
	switch {
	case s.Nullable && g.r.IntN(2) == 0:
		s.Nullable = false
		return "not nullable"
	case s.Type == "string" && g.r.IntN(2) == 0:
		s.MaxLength = ptrTo(int64(2))
		return "maxLength 2"
	case s.Type == "string":
		s.MinLength = ptrTo(int64(2))
		return "minLength 2"
	case s.Type == "integer" && g.r.IntN(2) == 0:
		s.Maximum = ptrTo(4.0)
		return "maximum 4"
	case s.Type == "integer":
		s.Minimum = ptrTo(2.0)
		return "minimum 2"
	case s.Type == "array":
		s.MaxItems = ptrTo(int64(1))
		return "maxItems 1"
	case s.AdditionalProperties != nil:
		s.MaxProperties = ptrTo(int64(1))
		return "maxProperties 1"
	}
	return ""
}

// loosen drops s's enum, pattern or minimum, raises its maximum (which
// stays, for the CEL cost estimation), or makes it nullable.
func (g *schemaGen) loosen(s *jsonSchema) string {
	switch {
	case scalarType(s.Type) && !s.Nullable && g.r.IntN(3) == 0:
		s.Nullable = true
		return "nullable"
	case s.Enum != nil && g.r.IntN(2) == 0:
		s.Enum = nil
		return "enum dropped"
	case s.Type == "string" && g.r.IntN(2) == 0:
		s.MinLength, s.Pattern = nil, ""
		return "minLength and pattern dropped"
	case s.Type == "string":
		s.MaxLength = ptrTo(*s.MaxLength + 5)
		return "maxLength raised"
	case s.Type == "integer":
		s.Minimum, s.Maximum = nil, nil
		return "bounds dropped"
	case s.Type == "array":
		s.MinItems, s.MaxItems = nil, ptrTo(*s.MaxItems+2)
		return "list bounds loosened"
	case s.AdditionalProperties != nil:
		s.MaxProperties = ptrTo(*s.MaxProperties + 2)
		return "maxProperties raised"
	}
	return ""
}

// nodePaths are the paths of the nodes below s, each after at: a field's
// name, "[]" for the items of a list, "*" for the values of a map.
func nodePaths(s *jsonSchema, at []string) [][]string {
	var out [][]string
	add := func(step string, c *jsonSchema) {
		p := append(slices.Clone(at), step)
		out = append(append(out, p), nodePaths(c, p)...)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		c := s.Properties[k]
		add(k, &c)
	}
	if c := itemSchema(s); c != nil {
		add("[]", c)
	}
	if c := additionalSchema(s); c != nil {
		add("*", c)
	}
	return out
}

// editNode applies f to the node of s at path (nodePaths').
func editNode(s *jsonSchema, path []string, f func(*jsonSchema)) {
	switch {
	case len(path) == 0:
		f(s)
	case path[0] == "[]":
		editNode(s.Items.Schema, path[1:], f)
	case path[0] == "*":
		editNode(s.AdditionalProperties.Schema, path[1:], f)
	default:
		c := s.Properties[path[0]]
		editNode(&c, path[1:], f)
		s.Properties[path[0]] = c
	}
}

// instance is the i-th random object of the CRD: of every four, one
// likely breaks its schema, one lacks most optional fields, two fit it;
// a third have a status, a few no spec.
func (g *schemaGen) instance(crd *apiextensionsv1.CustomResourceDefinition, i int) map[string]any {
	g.bad, g.fill = 0, 0.7
	switch i % 4 {
	case 0:
		g.bad = 0.2
	case 1:
		g.fill = 0.25
	}
	obj := map[string]any{"apiVersion": "random.example.com/v1", "kind": "Thing", "metadata": map[string]any{"name": fmt.Sprintf("o%d", i)}}
	root := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	if s, ok := root.Properties["spec"]; ok && g.r.IntN(8) > 0 {
		obj["spec"] = g.value(&s)
	}
	if s, ok := root.Properties["status"]; ok && g.r.IntN(3) == 0 {
		obj["status"] = g.value(&s)
	}
	return obj
}

// value is a random value of s that fits it, its CEL rules too after up to
// eight draws; but at each node, with chance g.bad, one that likely does
// not.
func (g *schemaGen) value(s *jsonSchema) any {
	if g.r.Float64() < g.bad {
		return g.misfit(s)
	}
	v := g.draw(s)
	for range 8 {
		if g.keeps(s, v) {
			break
		}
		v = g.draw(s)
	}
	return v
}

// keeps says that v passes the CEL rules of s.
func (g *schemaGen) keeps(s *jsonSchema, v any) bool {
	for _, r := range s.XValidations {
		if !g.checks[r.Rule](v) {
			return false
		}
	}
	return true
}

// draw is a value of s's type, within its bounds, enum and pattern (or
// at times null, when s allows it), whose children are values of theirs.
func (g *schemaGen) draw(s *jsonSchema) any {
	if s.Nullable && g.r.IntN(5) == 0 {
		return nil
	}
	if len(s.Enum) > 0 {
		var v any
		if err := utiljson.Unmarshal(s.Enum[g.r.IntN(len(s.Enum))].Raw, &v); err != nil {
			panic(err)
		}
		return v
	}
	switch s.Type {
	case "string":
		b := make([]byte, g.between(boundOr(s.MinLength, 0), min(boundOr(s.MaxLength, 3), 3)))
		for i := range b {
			b[i] = 'a' + byte(g.r.IntN(3))
		}
		return string(b)
	case "integer":
		lo, hi := 0, 12
		if s.Minimum != nil {
			lo = int(*s.Minimum)
		}
		if s.Maximum != nil {
			hi = int(*s.Maximum)
		}
		return int64(g.between(lo, hi))
	case "number":
		return float64(g.r.IntN(6)) + 0.5
	case "boolean":
		return g.r.IntN(2) == 0
	case "array":
		n, l := g.between(boundOr(s.MinItems, 0), boundOr(s.MaxItems, 3)), []any{}
		set := s.XListType != nil && *s.XListType == "set"
		for try := 0; len(l) < n && try < 3*n; try++ {
			if x := g.value(s.Items.Schema); !set || !slices.ContainsFunc(l, func(y any) bool { return reflect.DeepEqual(x, y) }) {
				l = append(l, x)
			}
		}
		return l
	}
	m := map[string]any{}
	if v := additionalSchema(s); v != nil {
		keys := []string{"k1", "k2", "k3"}
		for _, i := range g.r.Perm(3)[:g.between(0, min(boundOr(s.MaxProperties, 3), 3))] {
			m[keys[i]] = g.value(v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if slices.Contains(s.Required, k) || g.r.Float64() < g.fill {
			c := s.Properties[k]
			m[k] = g.value(&c)
		}
	}
	if s.XPreserveUnknownFields != nil && g.r.Float64() < g.fill {
		m[unknownName] = []any{"zz", int64(5), true}[g.r.IntN(3)]
	}
	return m
}

// misfit is a value that s likely refuses: out of its bounds, enum or
// rules, of another type, or null.
func (g *schemaGen) misfit(s *jsonSchema) any {
	out := []any{nil, "x", int64(7)}
	switch s.Type {
	case "string":
		out = append(out, "bad", "cccccccccccc", "", "cab", "ab")
	case "integer", "number":
		out = append(out, int64(-3), int64(3), int64(99))
	case "array":
		l, x := make([]any, boundOr(s.MaxItems, 3)+1), g.draw(s.Items.Schema)
		for i := range l {
			l[i] = runtime.DeepCopyJSONValue(x)
		}
		out = append(out, l)
	}
	return out[g.r.IntN(len(out))]
}

// between is a random integer in [lo, hi], or lo when hi < lo.
func (g *schemaGen) between(lo, hi int) int {
	return lo + g.r.IntN(max(hi-lo, 0)+1)
}

// boundOr is *p, or d when p is nil.
func boundOr(p *int64, d int) int {
	if p == nil {
		return d
	}
	return int(*p)
}

// scalarType says that typ is a scalar's type.
func scalarType(typ string) bool {
	return typ == "string" || typ == "integer" || typ == "number" || typ == "boolean"
}

// fieldOf is field k of v, if v is an object that has it.
func fieldOf(v any, k string) (any, bool) {
	m, _ := v.(map[string]any)
	x, ok := m[k]
	return x, ok
}

// celSize is the size() of a string, list or map in CEL.
func celSize(v any) int {
	switch v := v.(type) {
	case string:
		return utf8.RuneCountInString(v)
	case []any:
		return len(v)
	case map[string]any:
		return len(v)
	}
	return 0
}

// celNumber is an integer's or a number's value.
func celNumber(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// ptrTo is a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }

// mustJSON is v as JSON.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// yamlOf is v as YAML, for a failure's message.
func yamlOf(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v (%v)", v, err)
	}
	return string(b)
}
