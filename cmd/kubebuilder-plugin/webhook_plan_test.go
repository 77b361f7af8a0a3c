package main

import (
	"slices"
	"testing"
)

// TestReasonTable: every reason has a row in reasonTable with a name of
// its own; a skipped reason prints nothing, every other reason its message,
// and only wired edits.
func TestReasonTable(t *testing.T) {
	names := map[string]reason{}
	for r := reason(1); r < numReasons; r++ {
		row, ok := reasonTable[r]
		if !ok {
			t.Errorf("reason %d has no row in reasonTable", r)
			continue
		}
		if row.name == "" {
			t.Errorf("reason %d has no name", r)
		}
		if other, dup := names[row.name]; dup {
			t.Errorf("reasons %d and %d are both named %q", other, r, row.name)
		}
		names[row.name] = r
		if (row.message == nil) != (row.verdict == verdictSkipped) {
			t.Errorf("reason %q (verdict %d): a message iff not skipped", row.name, row.verdict)
		}
		if (row.verdict == verdictWired) != (r == wired) {
			t.Errorf("reason %q: verdict %d", row.name, row.verdict)
		}
	}
	if len(reasonTable) != int(numReasons)-1 {
		t.Errorf("reasonTable has %d rows, want %d", len(reasonTable), numReasons-1)
	}
}

// planReasonCases are projects (the Frigate webhook, "" for none) and the
// filter under which each reason is an outcome.
var planReasonCases = []struct {
	want   reason
	filter defaulterFilter
	file   func(t *testing.T, sh map[string]string) string
}{
	{wired, defaulterFilter{}, func(_ *testing.T, sh map[string]string) string { return sh[shapeRenamed] }},
	{skipOtherKind, defaulterFilter{kind: "Sloop", version: "v1"}, func(_ *testing.T, sh map[string]string) string { return sh[shapeRenamed] }},
	{skipSeen, defaulterFilter{}, func(_ *testing.T, sh map[string]string) string {
		return sh[shapeRenamed] + "\nfunc SetupAgain(mgr ctrl.Manager) error {\n\treturn ctrl.NewWebhookManagedBy(mgr, &ship.Frigate{}).WithDefaulter(&ShipFiller{}).Complete()\n}\n"
	}},
	{skipAlreadyCalls, defaulterFilter{}, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "\tif vessel.Labels == nil {", "\tship.SetObjectDefaults_Frigate(vessel)\n\tif vessel.Labels == nil {")
	}},
	{notParsed, frigateFilter, func(_ *testing.T, sh map[string]string) string { return sh[shapeRenamed] + "\nfunc {\n" }},
	{unknownType, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithDefaulter(pick())")
	}},
	{noDefaultMethod, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], ") Default(", ") Fill(")
	}},
	{foreignDefaulter, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return otherImport(t, replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithDefaulter(&other.Filler{})"))
	}},
	{kindMismatch, defaulterFilter{}, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "(mgr, &ship.Frigate{})", "(mgr, &ship.Sloop{})")
	}},
	{paramCount, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "Default(ctx context.Context, ", "Default(")
	}},
	{unnamedObject, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "vessel *ship.Frigate) error", "_ *ship.Frigate) error")
	}},
	{uncheckedAssert, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRuntimeObject], "\tif !ok {", "\tif ok && false {")
	}},
	{noAssert, frigateFilter, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRuntimeObject], "frigate, ok := obj.(*shipv1.Frigate)", "frigate, ok := toFrigate(obj)")
	}},
	{foreignKind, defaulterFilter{}, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], `ship "example.com/fleet/api/v1"`, `ship "example.org/fleet/api/v1"`)
	}},
	{noRootType, defaulterFilter{}, func(t *testing.T, sh map[string]string) string {
		s := replace(t, sh[shapeRenamed], "(mgr, &ship.Frigate{})", "(mgr, &ship.Galleon{})")
		return replace(t, s, "vessel *ship.Frigate) error", "vessel *ship.Galleon) error")
	}},
	{notFound, frigateFilter, func(_ *testing.T, sh map[string]string) string { return "" }},
	{markerUncovered, defaulterFilter{}, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "resources=frigates", "resources=galleons")
	}},
	{markerNoSetup, defaulterFilter{}, func(t *testing.T, sh map[string]string) string {
		return replace(t, sh[shapeRenamed], "WithDefaulter(&ShipFiller{})", "WithValidator(&ShipFiller{})")
	}},
}

// frigateFilter is create webhook --defaulting of Frigate v1.
var frigateFilter = defaulterFilter{kind: "Frigate", version: "v1", defaulting: true}

// otherImport adds an import of example.org/other, a package of another
// module, to the Go file s.
func otherImport(t *testing.T, s string) string {
	return replace(t, s, "\tctrl \"sigs.k8s.io/controller-runtime\"\n", "\tctrl \"sigs.k8s.io/controller-runtime\"\n\tother \"example.org/other\"\n")
}

// TestPlanReasons: each reason is the outcome of some project, and its
// message is printed.
func TestPlanReasons(t *testing.T) {
	sh := shapes(t)
	tested := map[reason]bool{editUnparsable: true} // below
	for _, tc := range planReasonCases {
		tested[tc.want] = true
		name := reasonTable[tc.want].name
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			if s := tc.file(t, sh); s != "" {
				files[frigateWebhook] = s
			}
			p := newProject(shapeUniverse(t, files))
			outcomes := p.planDefaulters(p.findSetups(), tc.filter)
			var got []reason
			for _, o := range outcomes {
				got = append(got, o.reason)
			}
			if !slices.Contains(got, tc.want) {
				t.Errorf("reasons %v, want %s (%d)", got, name, tc.want)
			}
			if msgs := messages(outcomes); reasonTable[tc.want].message != nil && len(msgs) == 0 {
				t.Errorf("no message")
			}
		})
	}

	// editUnparsable is applyEdits': an insertion that breaks the file.
	u := shapeUniverse(t, map[string]string{frigateWebhook: sh[shapeRenamed]})
	changed, failed := applyEdits(u, []outcome{{reason: wired, file: frigateWebhook, offset: len(sh[shapeRenamed]), text: "func {\n"}})
	if len(changed) != 0 || len(failed) != 1 || failed[0].reason != editUnparsable {
		t.Errorf("applyEdits of a broken insertion: changed %v, failed %+v", mapKeys(changed), failed)
	}
	for r := reason(1); r < numReasons; r++ {
		if !tested[r] {
			t.Errorf("no case for the reason %q", reasonTable[r].name)
		}
	}
}
