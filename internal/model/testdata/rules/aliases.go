package rules

import "github.com/controller-gen-default/controller-gen-default/internal/model/testdata/rules/aliased"

// ViaAlias reaches declared.Deep through aliased.Deep, an alias: its
// fields are declared.Deep's, as from declared itself.
type ViaAlias struct {
	// +optional
	Deep aliased.Deep `json:"deep"`
}

// DefinedDeep is a type of its own, defined from declared.Deep through an
// alias: it has declared.Deep's fields.
type DefinedDeep aliased.Deep

// DefinedAgain is defined from DefinedDeep: the same fields.
type DefinedAgain DefinedDeep

// +implicitDefaults=false
type Quiet struct {
	// +optional
	Loud bool `json:"loud"`
}

// DefinedQuiet is defined from Quiet: Quiet's fields, and Quiet's
// implicitDefaults marker with them.
type DefinedQuiet Quiet
