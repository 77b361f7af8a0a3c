package conversion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// processConverter is a running conversion program as a Converter: the
// webhook handler's refusals are RefusedErrors.
type processConverter struct{ p *convprog.Process }

func (c processConverter) Convert(ctx context.Context, objs []map[string]any, to string) ([]map[string]any, error) {
	out, err := c.p.Convert(ctx, objs, to)
	if _, ok := errors.AsType[*convprog.ConversionError](err); ok {
		return nil, &RefusedError{Err: err}
	}
	if _, ok := errors.AsType[*convprog.ProgramError](err); ok {
		// the program exited or hung on these objects: a failure of
		// each, not the end of the run (it is started again)
		return nil, &RefusedError{Err: err, Died: true}
	}
	return out, err
}

// found is f with d: its position, Go field, JSON path, rule and message.
func found(d findings.Finding, f Finding) Finding {
	f.Finding = d
	return f
}

// String is the finding as the crd generator writes one.
func (f Finding) String() string { return f.Finding.String() }

// at is a finding about the value at p of version v of k: at its Go field,
// else at the version's root type.
func at(k *Kind, v string, p Path, pos positions, rule, msg string) findings.Finding {
	gvk := schema.GroupVersionKind{Group: k.Group, Version: v, Kind: k.Kind}
	f := findings.Finding{Sev: findings.MustLookup(rule).Severity, GoPath: k.Kind, JPath: p.Field(), Rule: rule, Msg: msg, Own: true}
	if fld, ok := pos.field(gvk, p); ok {
		f.Pos, f.GoPath = fld.Pos(), fld.GoPath()
		// a shared type's field: at the user's field that holds it (attrib.go)
		if ch, ok := pos.(chainer); ok {
			a := attribute(links(ch.fieldChain(gvk, p)), userModuleDir(pos, gvk))
			if a.User != nil && a.Shared != nil {
				f.Pos, f.GoPath = a.User.Pos, a.User.Field.GoPath()
				f.Msg = sharedNote(a.Shared) + ": " + msg
			}
		}
	} else if tp, ok := pos.typePos(gvk); ok {
		f.Pos = tp
	}
	return f
}

// where is the position of the Go field at p of version v, for a message.
func where(k *Kind, v string, p Path, pos positions) string {
	gvk := schema.GroupVersionKind{Group: k.Group, Version: v, Kind: k.Kind}
	if fld, ok := pos.field(gvk, p); ok {
		return relFile(fld.Pos()).String()
	}
	if tp, ok := pos.typePos(gvk); ok {
		return relFile(tp).String()
	}
	return k.Kind + " " + v
}

func lossFinding(k *Kind, l Loss, pos positions) Finding {
	trip := fmt.Sprintf("%s → %s → %s", l.Version, l.Via, l.Version)
	spoke := l.Via
	if l.Version != k.Hub {
		spoke = l.Version
	}
	var msg string
	switch {
	case l.After == absent:
		msg = fmt.Sprintf("lost in a round trip %s: %s comes back absent; %s's ConvertTo and ConvertFrom must carry it (cluster-api keeps what a version cannot hold in an annotation)",
			trip, Show(l.Before), spoke)
	case l.Before == absent:
		msg = fmt.Sprintf("appears in a round trip %s: an object without it comes back with %s", trip, Show(l.After))
	default:
		msg = fmt.Sprintf("changed in a round trip %s: %s comes back %s", trip, Show(l.Before), Show(l.After))
	}
	return found(at(k, l.Version, l.Path, pos, RuleLostField, msg), Finding{
		Kind:     schema.GroupKind{Group: k.Group, Kind: k.Kind}.String(),
		Versions: []string{l.Version, l.Via},
		Values:   []any{jsonValue(l.Before), jsonValue(l.After)},
		Witness:  l.Witness,
	})
}

func mismatchFinding(k *Kind, m Mismatch, pos positions) Finding {
	gives := func(v string, d any) string {
		if d == absent {
			return v + " gives it no default"
		}
		return v + " defaults " + Show(d)
	}
	msg := fmt.Sprintf("defaults disagree across versions: %s, %s (%s); an object created at %s without it stores %s %s, at %s %s",
		gives(m.At, m.AtDefault), gives(m.Other, m.OtherDefault), where(k, m.Other, m.OtherPath, pos),
		m.At, m.StoredPath, Show(m.AtStored), m.Other, Show(m.OtherStored))
	if m.StoredPath.String() != m.Path.String() || k.Storage != m.At {
		msg += fmt.Sprintf(" (read at the storage version, %s)", k.Storage)
	}
	return found(at(k, m.At, m.Path, pos, RuleDefaultMismatch, msg), Finding{
		Kind:     schema.GroupKind{Group: k.Group, Kind: k.Kind}.String(),
		Versions: []string{m.At, m.Other},
		Values:   []any{jsonValue(m.AtStored), jsonValue(m.OtherStored), jsonValue(m.AtDefault), jsonValue(m.OtherDefault)},
		Witness:  m.Witness,
	})
}

// failureFindings are one finding per pair of versions and value the
// refusal depends on (Failure.Path): at the field of that value, or at the
// root type of the version converted from when no single value is to
// blame, with the number of objects, the first error and the first object
// refused. A value that a version's schema accepts and its conversion
// refuses is more than a failed write: while an object holds it at one
// version, the apiserver fails every LIST and WATCH of the kind at
// another, since it converts each item.
func failureFindings(k *Kind, fails []Failure, pos positions) []Finding {
	type group struct{ from, to, field string }
	first := map[group]Failure{}
	count := map[group]int{}
	var order []group
	for _, f := range fails {
		g := group{f.From, f.To, f.Path.Field()}
		if _, ok := first[g]; !ok {
			first[g] = f
			order = append(order, g)
		}
		count[g]++
	}
	var out []Finding
	for _, g := range order {
		f := first[g]
		var msg string
		if len(f.Path) == 0 {
			msg = fmt.Sprintf("the conversion from %s to %s fails for %d objects valid at %s: %v; e.g. %s",
				g.from, g.to, count[g], g.from, f.Err, Show(f.Object))
		} else {
			msg = fmt.Sprintf("the conversion from %s to %s fails for %d objects valid at %s, because of this value (%s: %s): %v; "+
				"while an object with such a value is stored at %s, every LIST and WATCH of %s at %s fails; e.g. %s",
				g.from, g.to, count[g], g.from, f.Path, Show(f.Value), f.Err, g.from, k.Kind, g.to, Show(f.Object))
		}
		out = append(out, found(at(k, g.from, f.Path, pos, RuleFailed, msg), Finding{
			Kind:     schema.GroupKind{Group: k.Group, Kind: k.Kind}.String(),
			Versions: []string{g.from, g.to},
			Values:   []any{f.Object, f.Err.Error()},
			Witness:  f.Object,
			objects:  count[g],
		}))
	}
	return out
}

// jsonValue is v for JSON output: absent is null.
func jsonValue(v any) any {
	if v == absent {
		return nil
	}
	return v
}

// sortFindings orders findings by position (relative, as written), rule
// and message.
func sortFindings(fs []Finding) {
	for i := range fs {
		fs[i].Pos = relFile(fs[i].Pos)
	}
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Pos.Filename != b.Pos.Filename:
			return a.Pos.Filename < b.Pos.Filename
		case a.Pos.Line != b.Pos.Line:
			return a.Pos.Line < b.Pos.Line
		case a.Pos.Column != b.Pos.Column:
			return a.Pos.Column < b.Pos.Column
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		}
		return a.Msg < b.Msg
	})
}

// jsonFinding is a finding as -o json writes it.
type jsonFinding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity string   `json:"severity"`
	Rule     string   `json:"rule"`
	Field    string   `json:"field"`
	Path     string   `json:"path"`
	Kind     string   `json:"kind"`
	Versions []string `json:"versions"`
	Values   []any    `json:"values"`
	Message  string   `json:"message"`
	// Seed and Witness reproduce the finding: --seed Seed (with the same
	// --rounds) makes the same objects; Witness is the one that showed it.
	Seed       uint64         `json:"seed"`
	Witness    map[string]any `json:"witness,omitempty"`
	RoundTrips map[string]int `json:"roundTrips,omitempty"`
}

// Write writes the findings: text, one line each in the generator's
// format (findings.WriteText); json, one JSON array: the keys of
// findings.Record (file, line, column, severity, rule, field, path,
// message) with the kind, versions, values and witness, in the order of
// earlier releases.
func Write(w io.Writer, fs []Finding, format string) error {
	if format == "json" {
		out := make([]jsonFinding, 0, len(fs))
		for _, f := range fs {
			r := f.Record()
			out = append(out, jsonFinding{File: r.File, Line: r.Line, Column: r.Column,
				Severity: r.Severity, Rule: r.Rule, Field: r.Field, Path: r.Path, Kind: f.Kind,
				Versions: f.Versions, Values: f.Values, Message: r.Message,
				Seed: f.Seed, Witness: f.Witness, RoundTrips: f.RoundTrips})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	common := make([]findings.Finding, len(fs))
	for i, f := range fs {
		common[i] = f.Finding
	}
	return findings.WriteText(w, common)
}
