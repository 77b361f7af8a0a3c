package impact

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/defaultdiff"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// printer writes the report as text, as JSON lines or as markdown.
type printer struct {
	json           bool
	markdown       *markdownReport // -o markdown
	stdout, stderr io.Writer
	// converted are the CRDs converted by the API's code (--convert).
	converted []string
	// verbose: the text report writes each object's details as it comes
	// (-v), instead of the defaults grouped across objects and a line per
	// object that needs a look.
	verbose bool
	// goClient, when set (--types), tells the defaults a Go client of the
	// API's types already sends.
	goClient GoClient
}

// useGoClient has the report tell the defaults c sends (--types).
func (p *printer) useGoClient(c GoClient) {
	p.goClient = c
	if p.markdown != nil {
		p.markdown.grouped.goClient = c
	}
}

func newPrinter(format string, stdout, stderr io.Writer) *printer {
	p := &printer{json: format == "json", stdout: stdout, stderr: stderr}
	if format == "markdown" {
		p.markdown = newMarkdownReport(CommentLimit)
	}
	return p
}

// writeErr is the error that cut the report short, if any: the first
// failed write to stdout (atomicout.Report).
func (p *printer) writeErr() error {
	if r, ok := p.stdout.(interface{ Err() error }); ok {
		return r.Err()
	}
	return nil
}

// conversionNote ends every text report: what this command does not do.
const conversionNote = "Conversion webhooks are not called: objects are converted between versions as with the None strategy (only apiVersion changes)."

// crdReport is the report without FILE: the CRD findings, then one line
// per default added, changed or removed. It exits 1 when a CRD is removed,
// its update refused, or a version no longer served.
func (p *printer) crdReport(findings []Finding, defaults []DefaultChange) int {
	code := ExitOK
	for _, f := range findings {
		if slices.Contains([]string{FindingRemoved, FindingUpdateRefused, FindingNotServed}, f.Rule) {
			code = ExitImpact
		}
	}
	if p.markdown != nil {
		p.markdown.findings, p.markdown.converted = findings, p.converted
		p.markdown.writeDefaults(p.stdout, defaults)
		return code
	}
	if p.json {
		for _, f := range findings {
			p.writeJSON(f)
		}
		for _, d := range defaults {
			p.writeJSON(defaultRecord{CRD: d.CRD, Change: d.Kind(), Version: d.Version, Path: d.Path, Old: d.Old, New: d.New, Field: d.Field})
		}
		return code
	}
	p.textFindings(findings)
	for _, d := range defaults {
		fmt.Fprintf(p.stdout, "%s %s %s: %s\n", d.CRD, d.Version, d.Path, describeDefault(d.Change))
	}
	fmt.Fprintf(p.stdout, "%d defaults added, changed or removed.\n%s\n", len(defaults), conversionNoteFor(p.converted))
	return code
}

// defaultRecord is a default change as a JSON record.
type defaultRecord struct {
	CRD     string          `json:"crd"`
	Change  string          `json:"change"`
	Version string          `json:"version"`
	Path    string          `json:"path"`
	Old     json.RawMessage `json:"old,omitempty"`
	New     json.RawMessage `json:"new,omitempty"`
	Field   string          `json:"field,omitempty"`
}

func describeDefault(c defaultdiff.Change) string {
	switch c.Kind() {
	case defaultdiff.Added:
		return "default added: " + string(c.New)
	case defaultdiff.Removed:
		return "default removed (was " + string(c.Old) + ")"
	default:
		return "default changed: " + string(c.Old) + " -> " + string(c.New)
	}
}

func (p *printer) textFindings(findings []Finding) {
	for _, f := range findings {
		fmt.Fprintf(p.stdout, "CRD %s: %s\n", f.CRD, f.Msg)
		for _, pr := range f.Problems {
			fmt.Fprintf(p.stdout, "    %s\n", pr)
		}
	}
}

// objectReport writes the report with FILEs one object at a time: the CRD
// findings before the first object (nothing is written before an object
// is reported, or the end), a summary line per object with its details as
// it comes, then the table, from counts.
type objectReport struct {
	p        *printer
	findings []Finding
	started  bool
	objects  int
	skipped  int
	count    map[string]int
	code     int
	// grouped is the text report without -v: the defaults read adds,
	// grouped across objects, and the line of each object that needs a
	// look (named), written at the end.
	grouped *grouper
	named   []string
}

func (p *printer) startObjects(findings []Finding) *objectReport {
	o := &objectReport{p: p, findings: findings, count: map[string]int{}, code: ExitOK}
	if !p.json && p.markdown == nil && !p.verbose {
		o.grouped = newGrouper(p.goClient)
	}
	return o
}

func (o *objectReport) start() {
	if !o.started && !o.p.json && o.p.markdown == nil {
		o.p.textFindings(o.findings)
	}
	o.started = true
}

func (o *objectReport) record(r *Record) {
	o.start()
	if r.Fails {
		o.code = ExitImpact
	}
	o.objects++
	for _, c := range r.Categories {
		o.count[c]++
	}
	switch {
	case o.p.markdown != nil:
		o.p.markdown.record(r)
	case o.p.json:
		o.p.writeJSON(r)
	case o.grouped != nil:
		o.grouped.add(r)
		if named(r) {
			o.named = append(o.named, briefLine(r))
		}
	default:
		o.p.textRecord(r)
	}
}

// unreadable reports a kind whose objects were not read, where the run
// came to it; the command exits 1.
func (o *objectReport) unreadable(f Finding) {
	o.start()
	o.code = ExitImpact
	switch {
	case o.p.markdown != nil:
		o.findings = append(o.findings, f)
	case o.p.json:
		o.p.writeJSON(f)
	default:
		o.p.textFindings([]Finding{f})
	}
}

func (o *objectReport) end() int {
	o.start()
	if m := o.p.markdown; m != nil {
		m.findings, m.skipped, m.converted = o.findings, o.skipped, o.p.converted
		m.write(o.p.stdout)
		return o.code
	}
	if o.p.json {
		o.p.table(o.p.stderr, o.objects, o.count, o.skipped)
		return o.code
	}
	o.writeGrouped()
	o.p.table(o.p.stdout, o.objects, o.count, o.skipped)
	fmt.Fprintln(o.p.stdout, conversionNoteFor(o.p.converted))
	return o.code
}

// writeGrouped writes the grouped text report of the objects so far (none
// without it): the defaults read adds, grouped, then the line of each
// object to look at.
func (o *objectReport) writeGrouped() {
	if o.grouped == nil {
		return
	}
	w := &indented{w: o.p.stdout}
	writeGroups(w, o.grouped.sorted(), o.count[GainsDefaults])
	if len(o.named) > 0 {
		w.line(fmt.Sprintf("%d %s to look at (-v shows each one's details):", len(o.named), plural(len(o.named), "object")))
		for _, l := range o.named {
			w.line("  " + l)
		}
	}
	o.grouped, o.named = nil, nil
}

func (p *printer) writeJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	fmt.Fprintf(p.stdout, "%s\n", b)
}

// categoryText is how the text report names each category.
var categoryText = map[string]string{
	Unchanged:             "unchanged",
	GainsDefaults:         "gains defaults",
	LosesFields:           "loses fields",
	RefusedOnUpdate:       "refused on update",
	HeldByRatcheting:      "held by ratcheting",
	InvalidUnderOld:       "invalid under OLD",
	VersionNotServed:      "version not served",
	StorageVersionChanged: "storage version changed",
	CRDRemoved:            "CRD removed",
	CRDUpdateRefused:      "CRD update refused",
	NewOnly:               "new: created under NEW only",
	InvalidUnderNew:       "invalid under NEW",
	ConversionFailed:      "conversion failed",
	LosesAfterWrite:       "loses fields after its next write",
	BreaksList:            "breaks LIST and WATCH",
	ConversionUnknown:     "conversion unknown without --setup",
}

// textRecord writes the summary line of an object, then its details,
// indented: invalid under OLD, the version it is read at, the diff, the
// no-op update's errors, and the values held by ratcheting.
func (p *printer) textRecord(r *Record) {
	var cats []string
	for _, c := range r.Categories {
		cats = append(cats, categoryText[c])
	}
	fmt.Fprintf(p.stdout, "%s: %s %s (%s): %s\n", r.Source, r.Kind, r.objectName(), r.APIVersion, strings.Join(cats, ", "))
	w := &indented{w: p.stdout, prefix: "    "}
	if len(r.InvalidUnderOld) > 0 {
		w.line("OLD refuses it:")
		for _, pr := range r.InvalidUnderOld {
			w.line("  " + pr.String())
		}
	}
	if r.NewOnly {
		w.line(fmt.Sprintf("OLD serves no %s %s: not stored before the change; checked as a create under NEW", r.APIVersion, r.Kind))
	}
	if len(r.InvalidUnderNew) > 0 {
		w.line("NEW refuses it:")
		for _, pr := range r.InvalidUnderNew {
			w.line("  " + pr.String())
		}
	}
	if slices.Contains(r.Categories, VersionNotServed) {
		w.line(fmt.Sprintf("NEW does not serve %s: read at %s", versionOf(r.APIVersion), r.ReadVersion))
	}
	if r.Diff != "" {
		w.block(r.Diff)
	}
	if r.ChangesAt != "" {
		w.line(fmt.Sprintf("(what it loses or gains is counted at %s: the read converted back by the API's code)", r.ChangesAt))
	}
	if at := r.AtStorageVersion; at != nil && at.Version != r.ReadVersion {
		if at.Diff == "" {
			w.line(fmt.Sprintf("read at %s (NEW's storage version), converted by the API's code: the same", at.Version))
		} else {
			w.line(fmt.Sprintf("read at %s (NEW's storage version, what its controllers read), converted by the API's code:", at.Version))
			w.block(at.Diff)
		}
	}
	if aw := r.AfterWrite; aw != nil && aw.Diff != "" {
		w.line(fmt.Sprintf("after its next write (stored at %s), read at %s:", aw.Version, aw.Version))
		w.block(aw.Diff)
	}
	if c := r.storageLoss(); c.loses() {
		w.line(fmt.Sprintf("after its next write (stored at %s), a GET at %s %s", r.AfterWrite.Version, r.AfterWrite.Version,
			describeAfterWrite(r.AtStorageVersion.Object, r.AfterWrite.Object, c)))
	}
	for _, a := range r.AfterWriteAt {
		if a.Diff == "" {
			continue
		}
		w.line(fmt.Sprintf("after its next write (stored at %s), a GET at %s %s:", r.AfterWrite.Version, a.Version, describeAfterWrite(a.before, a.Object, a.Changes)))
		w.block(a.Diff)
	}
	if f := r.ConversionFailed; f != nil {
		w.line(f.lead() + f.String())
	}
	for _, f := range r.ListFails {
		w.line(f.String())
	}
	if r.Update != nil && r.Update.Refused {
		w.line("no-op update refused:")
		for _, pr := range r.Update.Problems {
			w.line("  " + pr.String())
		}
	}
	p.textRatcheted(w, r.Ratcheted)
}

func (p *printer) textRatcheted(w *indented, held []Ratcheted) {
	if len(held) == 0 {
		return
	}
	w.line("held only by ratcheting (a no-op update keeps them; a change must fix them):")
	for _, h := range held {
		w.line("  " + h.Problem.String())
		if h.Touch == nil {
			continue
		}
		v, _ := json.Marshal(h.Touch.Value)
		verdict := "accepted"
		if len(h.Touch.Problems) > 0 {
			verdict = "refused: " + h.Touch.Problems[0].String()
			if n := len(h.Touch.Problems) - 1; n > 0 {
				verdict += fmt.Sprintf(" (and %d more)", n)
			}
		}
		via := ""
		if h.Touch.Subresource != "" {
			via = " through /" + h.Touch.Subresource
		}
		w.line(fmt.Sprintf("    an update%s setting %s to %s is %s", via, h.Touch.Path, v, verdict))
	}
}

// tableRows are the rows of the summary table, in order.
var tableRows = []string{Unchanged, GainsDefaults, LosesFields, RefusedOnUpdate, HeldByRatcheting,
	InvalidUnderOld, VersionNotServed, StorageVersionChanged, CRDRemoved, CRDUpdateRefused}

// tableText names the rows of the table.
var tableText = map[string]string{
	Unchanged:             "unchanged",
	GainsDefaults:         "gaining defaults",
	LosesFields:           "losing fields",
	RefusedOnUpdate:       "refused on update",
	HeldByRatcheting:      "held by ratcheting",
	InvalidUnderOld:       "invalid under OLD",
	VersionNotServed:      "version no longer served",
	StorageVersionChanged: "storage version changed",
	CRDRemoved:            "CRD removed",
	CRDUpdateRefused:      "CRD update refused",
	NewOnly:               "new: created under NEW only",
	InvalidUnderNew:       "invalid under NEW",
	ConversionFailed:      "conversion failed",
	LosesAfterWrite:       "losing fields after write",
	BreaksList:            "breaking LIST and WATCH",
	ConversionUnknown:     "conversion unknown",
}

// table writes how many objects fall in each category (an object can be
// in several).
func (p *printer) table(w io.Writer, objects int, count map[string]int, skipped int) {
	fmt.Fprintf(w, "%-30s %6d\n", "objects", objects)
	for _, c := range tableRows {
		fmt.Fprintf(w, "  %-28s %6d\n", tableText[c], count[c])
	}
	if count[NewOnly] > 0 { // only objects of a version new with NEW
		for _, c := range []string{NewOnly, InvalidUnderNew} {
			fmt.Fprintf(w, "  %-28s %6d\n", tableText[c], count[c])
		}
	}
	if len(p.converted) > 0 { // only the API's code fails conversions
		for _, c := range []string{ConversionFailed, LosesAfterWrite, BreaksList, ConversionUnknown} {
			fmt.Fprintf(w, "  %-28s %6d\n", tableText[c], count[c])
		}
	}
	if skipped > 0 {
		fmt.Fprintf(w, "%-30s %6d\n", objectpath.SkippedOtherGroup, skipped)
	}
}

// indented writes lines with a prefix.
type indented struct {
	w      io.Writer
	prefix string
}

func (i *indented) line(s string) { fmt.Fprintf(i.w, "%s%s\n", i.prefix, s) }

func (i *indented) block(s string) {
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		i.line(l)
	}
}
