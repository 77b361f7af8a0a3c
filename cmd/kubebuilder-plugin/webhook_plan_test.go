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

// TestPlanReasons: each reason is the outcome of some project, and its
// message is printed.
func TestPlanReasons(t *testing.T) {
	sh := shapes(t)
	renamed := sh["renamed/"+frigateWebhook]
	runtimeObject := sh["runtime-object/"+frigateWebhook]
	frigate := defaulterFilter{kind: "Frigate", version: "v1", defaulting: true}
	edit := defaulterFilter{}
	tested := map[reason]bool{editUnparsable: true} // below
	otherImport := func(t *testing.T, s string) string {
		return replace(t, s, "\tctrl \"sigs.k8s.io/controller-runtime\"\n", "\tctrl \"sigs.k8s.io/controller-runtime\"\n\tother \"example.org/other\"\n")
	}
	for _, tc := range []struct {
		want   reason
		filter defaulterFilter
		file   func(t *testing.T) string // the Frigate webhook, "" for none
	}{
		{wired, edit, func(*testing.T) string { return renamed }},
		{skipOtherKind, defaulterFilter{kind: "Sloop", version: "v1"}, func(*testing.T) string { return renamed }},
		{skipSeen, edit, func(*testing.T) string {
			return renamed + "\nfunc SetupAgain(mgr ctrl.Manager) error {\n\treturn ctrl.NewWebhookManagedBy(mgr, &ship.Frigate{}).WithDefaulter(&ShipFiller{}).Complete()\n}\n"
		}},
		{skipAlreadyCalls, edit, func(t *testing.T) string {
			return replace(t, renamed, "\tif vessel.Labels == nil {", "\tship.SetObjectDefaults_Frigate(vessel)\n\tif vessel.Labels == nil {")
		}},
		{notParsed, frigate, func(*testing.T) string { return renamed + "\nfunc {\n" }},
		{unknownType, frigate, func(t *testing.T) string {
			return replace(t, renamed, "WithDefaulter(&ShipFiller{})", "WithDefaulter(pick())")
		}},
		{noDefaultMethod, frigate, func(t *testing.T) string { return replace(t, renamed, ") Default(", ") Fill(") }},
		{foreignDefaulter, frigate, func(t *testing.T) string {
			return otherImport(t, replace(t, renamed, "WithDefaulter(&ShipFiller{})", "WithDefaulter(&other.Filler{})"))
		}},
		{kindMismatch, edit, func(t *testing.T) string {
			return replace(t, renamed, "(mgr, &ship.Frigate{})", "(mgr, &ship.Sloop{})")
		}},
		{paramCount, frigate, func(t *testing.T) string { return replace(t, renamed, "Default(ctx context.Context, ", "Default(") }},
		{unnamedObject, frigate, func(t *testing.T) string {
			return replace(t, renamed, "vessel *ship.Frigate) error", "_ *ship.Frigate) error")
		}},
		{uncheckedAssert, frigate, func(t *testing.T) string { return replace(t, runtimeObject, "\tif !ok {", "\tif ok && false {") }},
		{noAssert, frigate, func(t *testing.T) string {
			return replace(t, runtimeObject, "frigate, ok := obj.(*shipv1.Frigate)", "frigate, ok := toFrigate(obj)")
		}},
		{foreignKind, edit, func(t *testing.T) string {
			return replace(t, renamed, `ship "example.com/fleet/api/v1"`, `ship "example.org/fleet/api/v1"`)
		}},
		{noRootType, edit, func(t *testing.T) string {
			s := replace(t, renamed, "(mgr, &ship.Frigate{})", "(mgr, &ship.Galleon{})")
			return replace(t, s, "vessel *ship.Frigate) error", "vessel *ship.Galleon) error")
		}},
		{notFound, frigate, func(*testing.T) string { return "" }},
		{markerUncovered, edit, func(t *testing.T) string { return replace(t, renamed, "resources=frigates", "resources=galleons") }},
		{markerNoSetup, edit, func(t *testing.T) string {
			return replace(t, renamed, "WithDefaulter(&ShipFiller{})", "WithValidator(&ShipFiller{})")
		}},
	} {
		tested[tc.want] = true
		name := reasonTable[tc.want].name
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			if s := tc.file(t); s != "" {
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
	u := shapeUniverse(t, map[string]string{frigateWebhook: renamed})
	changed, failed := applyEdits(u, []outcome{{reason: wired, file: frigateWebhook, offset: len(renamed), text: "func {\n"}})
	if len(changed) != 0 || len(failed) != 1 || failed[0].reason != editUnparsable {
		t.Errorf("applyEdits of a broken insertion: changed %v, failed %+v", mapKeys(changed), failed)
	}
	for r := reason(1); r < numReasons; r++ {
		if !tested[r] {
			t.Errorf("no case for the reason %q", reasonTable[r].name)
		}
	}
}
