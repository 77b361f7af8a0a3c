package conversion

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// RuleNeedsSetup is, in a run whose failures say nothing of the real
// webhook (convprog.Program.FailuresUnknown: main sets state the
// conversions read, and --setup is not given), the conversions that fail:
// with main's state they may well succeed.
const RuleNeedsSetup = "conversion-needs-setup"

// needsSetup replaces the conversion-failed findings of a run whose
// failures are unknown with one conversion-needs-setup finding per setup
// call of main (missing), at the call: it names the kinds whose
// conversions fail, with the versions and how many objects, and the first
// error. The objects are in -o json only: Values holds one example per
// kind and versions, Witness the first. The other findings are kept.
func needsSetup(fs []Finding, missing []convprog.SetupCall) []Finding {
	var failed, out []Finding
	for _, f := range fs {
		if f.Rule == RuleFailed {
			failed = append(failed, f)
		} else {
			out = append(out, f)
		}
	}
	if len(missing) == 0 || len(failed) == 0 {
		return fs
	}
	groups := failureGroups(failed)
	var kinds []string
	for _, g := range groups {
		if len(kinds) == 0 || kinds[len(kinds)-1] != g.kind {
			kinds = append(kinds, g.kind)
		}
	}
	for _, c := range missing {
		out = append(out, Finding{
			Finding: findings.Finding{Sev: findings.MustLookup(RuleNeedsSetup).Severity, Pos: c.Pos, GoPath: c.Name,
				Rule: RuleNeedsSetup, Msg: failureSummary(groups) + "; " + c.Note(), Own: true},
			Kind:   strings.Join(kinds, ", "),
			Values: examples(groups), Witness: groups[0].example.Witness, Seed: groups[0].example.Seed,
		})
	}
	return out
}

// failureGroup is the conversion-failed findings of one kind between two
// versions.
type failureGroup struct {
	kind, from, to string
	objects        int
	errors         []objectError // each finding's (first) error
	example        Finding       // the first
}

// failureGroups groups failed by kind and versions, sorted.
func failureGroups(failed []Finding) []failureGroup {
	byKey := map[[3]string]*failureGroup{}
	var out []*failureGroup
	for _, f := range failed {
		k := [3]string{f.Kind, f.Versions[0], f.Versions[1]}
		g := byKey[k]
		if g == nil {
			g = &failureGroup{kind: k[0], from: k[1], to: k[2], example: f}
			byKey[k] = g
			out = append(out, g)
		}
		g.objects += max(f.objects, 1)
		g.errors = append(g.errors, objectError{fmt.Sprint(f.Values[1]), max(f.objects, 1)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.kind < b.kind || a.kind == b.kind && (a.from < b.from || a.from == b.from && a.to < b.to)
	})
	groups := make([]failureGroup, len(out))
	for i, g := range out {
		groups[i] = *g
	}
	return groups
}

// failureSummary says which conversions fail, by kind: how many objects
// each way; and the errors, the most frequent first (at most three, each
// cut at 200 bytes).
func failureSummary(groups []failureGroup) string {
	total := 0
	var kinds, ways []string
	for i, g := range groups {
		total += g.objects
		ways = append(ways, fmt.Sprintf("%s from %s to %s", plural(g.objects, "object"), g.from, g.to))
		if i == len(groups)-1 || groups[i+1].kind != g.kind {
			kinds = append(kinds, g.kind+" ("+strings.Join(ways, ", ")+")")
			ways = nil
		}
	}
	return fmt.Sprintf("the conversions of %s fail in this run, which lacks main's setup, so whether they fail with it is unknown: %s; errors: %s",
		plural(total, "object"), strings.Join(kinds, ", "), topErrors(groups, 3))
}

// objectError is an error and how many objects fail with it.
type objectError struct {
	err     string
	objects int
}

// topErrors are the n errors of the most objects (in groups' order when
// as many), each with how many objects and cut at 200 bytes, and how many
// others.
func topErrors(groups []failureGroup, n int) string {
	count := map[string]int{}
	var order []string
	for _, g := range groups {
		for _, e := range g.errors {
			if count[e.err] == 0 {
				order = append(order, e.err)
			}
			count[e.err] += e.objects
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	var out []string
	for _, e := range order[:min(n, len(order))] {
		objects := count[e]
		if len(e) > 200 {
			e = e[:200] + "…"
		}
		out = append(out, fmt.Sprintf("%s (%s)", e, plural(objects, "object")))
	}
	if more := len(order) - n; more > 0 {
		out = append(out, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(out, "; ")
}

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// examples are one failure of each group, for -o json: the kind, the
// versions, how many objects, the error and the object.
func examples(groups []failureGroup) []any {
	var out []any
	for _, g := range groups {
		out = append(out, map[string]any{"kind": g.kind, "from": g.from, "to": g.to, "objects": g.objects,
			"error": g.example.Values[1], "object": g.example.Values[0]})
	}
	return out
}

// storageVersion is the CRD's storage version.
func storageVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}
