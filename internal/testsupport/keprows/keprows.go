// Package keprows holds the rows of KEP-1929's `default(...)` example tables
// as they apply to CRDs, for the offline normaliser tests and the envtest
// suite alike. The CRDs are the goldens generated from the KEP's Go types
// in testdata/api.
//
// A row's Spec is the object's spec as the KEP writes it, in JSON ("" means
// no spec at all); Want is the spec as the apiserver stores it. Rows that
// hold only for built-in types, and the KEP's copy-paste slip, carry a Skip
// reason instead of being bent to fit.
package keprows

import "strings"

// Row is one line of a KEP-1929 example table.
type Row struct {
	Example string // the KEP section
	Call    string // the line as the KEP writes it
	Golden  string // CRD file under testdata/golden
	Kind    string
	Spec    string // JSON of spec; "" for an object without spec
	Want    string // JSON of the stored spec
	// Invalid, when set, is a substring of the validation error the
	// apiserver answers with; Want is then the spec before validation.
	Invalid string
	Skip    string
}

// Group of each example's golden CRD; the version is always v1.
const (
	nonPointer = "nonpointerstructs.kep.example.com_nonpointerstructs.yaml"
	pointer    = "structpointers.kep.example.com_structpointers.yaml"
	scalars    = "scalars.kep.example.com_scalars.yaml"
	lists      = "lists.kep.example.com_listexamples.yaml"
	listsNo    = "listsnodefault.kep.example.com_listnodefaults.yaml"
	maps       = "stringmaps.kep.example.com_stringmaps.yaml"
	mapsNo     = "stringmapsnodefault.kep.example.com_stringmapnodefaults.yaml"
)

const (
	entryDefaults = `{"entry":{"name":"default-name","number":0}}`
	entryPointer  = `{"entry":{"name":"pointer-name","number":0}}`
)

// KEP1929 are the rows of every table in KEP-1929 "Examples".
var KEP1929 = []Row{
	{Example: "Non-pointer structs", Call: "default('null')", Golden: nonPointer, Kind: "NonPointerStruct", Spec: `null`, Want: entryDefaults},
	{Example: "Non-pointer structs", Call: "(no spec at all)", Golden: nonPointer, Kind: "NonPointerStruct", Spec: ``, Want: entryDefaults},
	{Example: "Non-pointer structs", Call: "default('{}')", Golden: nonPointer, Kind: "NonPointerStruct", Spec: `{}`, Want: entryDefaults},
	{Example: "Non-pointer structs", Call: "default('{entry: null}')", Golden: nonPointer, Kind: "NonPointerStruct", Spec: `{"entry":null}`, Want: entryDefaults},
	{Example: "Non-pointer structs", Call: "default('{entry: {}}')", Golden: nonPointer, Kind: "NonPointerStruct", Spec: `{"entry":{}}`, Want: entryDefaults},
	{Example: "Non-pointer structs", Call: "default('{entry: {name: other-name}}')", Golden: nonPointer, Kind: "NonPointerStruct", Spec: `{"entry":{"name":"other-name"}}`, Want: `{"entry":{"name":"other-name","number":0}}`},
	{Example: "Non-pointer structs", Call: `default('{entry: {name: "", number: 0}}')`, Golden: nonPointer, Kind: "NonPointerStruct", Spec: `{"entry":{"name":"","number":0}}`, Want: `{"entry":{"name":"","number":0}}`},

	{Example: "Struct pointers", Call: "default('null')", Golden: pointer, Kind: "StructPointer", Spec: `null`, Want: entryPointer},
	{Example: "Struct pointers", Call: "default('{}')", Golden: pointer, Kind: "StructPointer", Spec: `{}`, Want: entryPointer},
	{Example: "Struct pointers", Call: "default('{entry: null}')", Golden: pointer, Kind: "StructPointer", Spec: `{"entry":null}`, Want: entryPointer},
	{Example: "Struct pointers", Call: "default('{entry: {}}')", Golden: pointer, Kind: "StructPointer", Spec: `{"entry":{}}`, Want: entryDefaults},
	{Example: "Struct pointers", Call: "default('{entry: {name: other-name}}')", Golden: pointer, Kind: "StructPointer", Spec: `{"entry":{"name":"other-name"}}`, Want: `{"entry":{"name":"other-name","number":0}}`},

	{Example: "Non-pointer scalar fields", Call: "default('{}')", Golden: scalars, Kind: "Scalar", Spec: `{}`, Want: `{"entry":{"name":"default-name","number":0}}`,
		Skip: "copy-paste slip in the KEP: the result is the Non-pointer structs example's; the next row has the correct result"},
	{Example: "Non-pointer scalar fields", Call: "default('{}') (corrected)", Golden: scalars, Kind: "Scalar", Spec: `{}`, Want: `{"name":"default-name","defaulted":0}`},
	{Example: "Non-pointer scalar fields", Call: "default('{name: other-name}')", Golden: scalars, Kind: "Scalar", Spec: `{"name":"other-name"}`, Want: `{"name":"other-name","defaulted":0}`},
	{Example: "Non-pointer scalar fields", Call: `default('{name: ""}') (built-in)`, Golden: scalars, Kind: "Scalar", Spec: `{"name":""}`, Want: `{"name":"default-name","defaulted":0}`,
		Skip: `"For built-in, additionally": built-in defaulting replaces the zero value ""; CRDs keep it (next row)`},
	{Example: "Non-pointer scalar fields", Call: `default('{name:"", number:0}') (CRD)`, Golden: scalars, Kind: "Scalar", Spec: `{"name":"","number":0}`, Want: `{"name":"","defaulted":0}`},

	{Example: "Lists", Call: "default('{list: [null, foo]}')", Golden: lists, Kind: "ListExample", Spec: `{"list":[null,"foo"]}`, Want: `{"list":["apple","foo"]}`},
	{Example: "Lists without default", Call: "default('{list: [null, foo]}')", Golden: listsNo, Kind: "ListNoDefault", Spec: `{"list":[null,"foo"]}`, Want: `{"list":[null,"foo"]}`,
		Invalid: "spec.list[0]"},

	{Example: "String Maps", Call: "default('{mapping: {foo: null, bar: apple}')", Golden: maps, Kind: "StringMap", Spec: `{"mapping":{"foo":null,"bar":"apple"}}`, Want: `{"mapping":{"foo":"banana","bar":"apple"}}`},
	{Example: "String maps without default", Call: "default('{mapping: {foo: null, bar: apple}')", Golden: mapsNo, Kind: "StringMapNoDefault", Spec: `{"mapping":{"foo":null,"bar":"apple"}}`, Want: `{"mapping":{"bar":"apple"}}`},
}

// APIVersion returns the apiVersion of a row's kind: the golden file is
// named <group>_<plural>.yaml.
func (r Row) APIVersion() string {
	group, _, _ := strings.Cut(r.Golden, "_")
	return group + "/v1"
}
