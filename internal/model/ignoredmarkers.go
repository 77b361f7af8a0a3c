package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// RuleUnknownMarker is a +kubebuilder: marker that no generator of
// controller-gen-default defines. controller-tools' collector skips a
// marker its registry does not hold, without a word, so a typo
// (+kubebuilder:validation:enum), a marker of a forked controller-gen
// (+kubebuilder:oneOf) or one that controller-tools has dropped
// (+kubebuilder:categories) changes nothing in the CRD.
const RuleUnknownMarker = "unknown-marker"

// RuleMisplacedMarker is a +kubebuilder: marker that a generator defines,
// written where its definition does not apply: +kubebuilder:default, a
// field marker, on a type; +kubebuilder:printcolumn, a type marker, on a
// field. The collector skips it as it skips an unknown marker.
const RuleMisplacedMarker = "misplaced-marker"

// kubebuilderPrefix is the namespace of controller-tools' markers.
const kubebuilderPrefix = "+kubebuilder:"

// notControllerTools are the names under +kubebuilder: that kubebuilder
// itself reads, not controller-gen: its scaffolding anchors
// (+kubebuilder:scaffold:imports) and the literate sources of its book
// (+kubebuilder:docs-gen:collapse=...).
var notControllerTools = []string{"kubebuilder:scaffold:", "kubebuilder:docs-gen:"}

// knownMarkerDef is a marker that a generator defines: its name and the
// targets it is defined at.
type knownMarkerDef struct {
	name    string
	targets []ctmarkers.TargetType
}

// knownMarkerNames are the names of knownMarkerDefs.
var knownMarkerNames = func() []string {
	names := make([]string, len(knownMarkerDefs))
	for i, d := range knownMarkerDefs {
		names[i] = d.name
	}
	return names
}()

// knownMarkers is a registry that holds every marker of knownMarkerDefs
// at its targets, so that a marker's text is resolved to a definition as
// controller-tools' collector resolves it (Registry.Lookup: the name
// before "=", or that name less its last ":" segment, for markers with
// arguments after a colon, such as +kubebuilder:printcolumn:name=...).
var knownMarkers = sync.OnceValue(func() *ctmarkers.Registry {
	reg := &ctmarkers.Registry{}
	for _, d := range knownMarkerDefs {
		for _, t := range d.targets {
			// the definitions are the generators' own (TestKnownMarkers),
			// so each is made, as it was for them
			if err := reg.Register(ctmarkers.Must(ctmarkers.MakeDefinition(d.name, t, struct{}{}))); err != nil {
				panic(err)
			}
		}
	}
	return reg
})

// allTargets are the targets of markers, in the order the collector's
// scopes nest: package, type, field.
var allTargets = []ctmarkers.TargetType{ctmarkers.DescribesPackage, ctmarkers.DescribesType, ctmarkers.DescribesField}

// definedAt are the targets at which a generator defines the marker text.
func definedAt(text string) []ctmarkers.TargetType {
	var out []ctmarkers.TargetType
	for _, t := range allTargets {
		if knownMarkers().Lookup(text, t) != nil {
			out = append(out, t)
		}
	}
	return out
}

// kubebuilderMarker is, for the text of a comment (as written, with
// "//"), the marker text when it is a +kubebuilder: marker of
// controller-tools' namespace: a comment controller-tools' collector reads
// as a marker ("//", then blanks, then "+"), whose name is under
// +kubebuilder: but not kubebuilder's own (notControllerTools).
func kubebuilderMarker(comment string) (string, bool) {
	text, ok := strings.CutPrefix(comment, "//")
	if !ok {
		return "", false
	}
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, kubebuilderPrefix) {
		return "", false
	}
	for _, p := range notControllerTools {
		if strings.HasPrefix(text[1:], p) {
			return "", false
		}
	}
	return text, true
}

// defined reports whether a generator defines the marker text at some
// target (package, type or field).
func defined(text string) bool { return len(definedAt(text)) > 0 }

// unknownMarker is the marker text of a comment when it is a
// +kubebuilder: marker (kubebuilderMarker) that no generator defines, at
// any target; "" otherwise.
func unknownMarker(comment string) string {
	text, ok := kubebuilderMarker(comment)
	if !ok || defined(text) {
		return ""
	}
	return text
}

// ignoredMarkers reports each +kubebuilder: marker of pkg's files that
// controller-tools' collector skips: one that no generator defines
// (unknownMarker), or one written where its definition does not apply
// (misplacedMarker). Every comment of a file is looked at, as the
// collector reads every comment for the package, type or field it is
// attached to (commentAt). Each finding is named after that field or
// type, else the package.
func (m *Model) ignoredMarkers(pkg *loader.Package) []Finding {
	if fs, ok := m.pkgIgnored[pkg]; ok {
		return fs
	}
	var out []Finding
	for _, file := range pkg.Syntax {
		for k, cg := range file.Comments {
			var at *attachment
			for _, c := range cg.List {
				text, ok := kubebuilderMarker(c.Text)
				if !ok {
					continue
				}
				if at == nil {
					a := commentAt(pkg.Fset, file, k, pkg.Name)
					at = &a
				}
				pos := pkg.Fset.Position(c.Pos())
				if !defined(text) {
					out = append(out, m.markerFinding(Warning, RuleUnknownMarker, pkg, pos, at.goPath, unknownMarkerMessage(text)))
				} else if msg := misplacedMarker(text, *at); msg != "" {
					out = append(out, m.markerFinding(Warning, RuleMisplacedMarker, pkg, pos, at.goPath, msg))
				}
			}
		}
	}
	m.pkgIgnored[pkg] = out
	return out
}

// unknownMarkerMessage says what is wrong with the unknown marker text
// and how to fix it (meant): the marker it was meant to be, if that can be
// told, else to remove it or say what it meant with a marker that exists.
func unknownMarkerMessage(text string) string {
	written := markerName(text)
	if i := strings.IndexAny(text, " \t"); i > 0 && !strings.Contains(text[:i], "=") && defined(text[:i]) {
		// +kubebuilder:subresource:status // a note: a marker without a
		// value is its whole text, blanks and all
		return fmt.Sprintf("%s: the text after it on its line makes controller-gen read the whole comment as the marker's name, "+
			"which no generator defines, so it changes nothing in the CRD; put that text on a line of its own", written)
	}
	msg := fmt.Sprintf("%s: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD", written)
	if m := meant(written[1:]); m != "" {
		return msg + "; " + m
	}
	return msg + "; remove it, or write what it means with a marker controller-gen defines " +
		"(+kubebuilder:validation:XValidation for a rule in CEL)"
}

// combinators are JSON Schema's choices among alternatives, which forks of
// controller-gen write as markers (+kubebuilder:oneOf), by the lower-case
// last segment of the name, with the markers of controller-tools that
// say the same of a struct's fields.
var combinators = map[string]string{
	"oneof": "+kubebuilder:validation:ExactlyOneOf",
	"anyof": "+kubebuilder:validation:AtLeastOneOf",
}

// meant is the advice for the unknown marker name (no "+", no value), the
// first that applies:
//   - a known name in other case: "+kubebuilder:Default" is +kubebuilder:default;
//   - a known name followed by ":value", the value written after a colon
//     instead of "=": "+kubebuilder:default:5" is +kubebuilder:default=5;
//   - the last segment of exactly one known name, in any case, under
//     +kubebuilder: if several have it: "+kubebuilder:validation:nullable"
//     is +nullable, "+kubebuilder:validation:Default" +kubebuilder:default;
//   - the one known +kubebuilder: name at an edit distance of at most 2,
//     for names of at least 6 letters past the prefix (a typo);
//   - a JSON Schema combinator (combinators).
//
// "" when none applies.
func meant(name string) string {
	if k, ok := knownFold(name); ok {
		return "did you mean +" + k + "?"
	}
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		if k, ok := knownFold(name[:i]); ok {
			return fmt.Sprintf("did you mean +%s=%s?", k, name[i+1:])
		}
	}
	last := strings.ToLower(name[strings.LastIndexByte(name, ':')+1:])
	if k := sameLastSegment(last); k != "" {
		return "did you mean +" + k + "?"
	}
	if k := nearestMarker(name); k != "" {
		return "did you mean +" + k + "?"
	}
	if c, ok := combinators[last]; ok {
		return fmt.Sprintf("for a choice among a struct's fields, write %s=<field>;<field> on the struct; for any other rule, +kubebuilder:validation:XValidation (CEL)", c)
	}
	return ""
}

// knownFold is the known name equal to name but for case.
func knownFold(name string) (string, bool) {
	i := slices.IndexFunc(knownMarkerNames, func(k string) bool { return strings.EqualFold(k, name) })
	if i < 0 {
		return "", false
	}
	return knownMarkerNames[i], true
}

// sameLastSegment is the one known name whose last ":" segment is last
// (lower case), preferring names under kubebuilder: when several have it;
// "" for none, or several.
func sameLastSegment(last string) string {
	var all, kb []string
	for _, k := range knownMarkerNames {
		if strings.ToLower(k[strings.LastIndexByte(k, ':')+1:]) != last {
			continue
		}
		all = append(all, k)
		if strings.HasPrefix(k, kubebuilderPrefix[1:]) {
			kb = append(kb, k)
		}
	}
	switch {
	case len(all) == 1:
		return all[0]
	case len(kb) == 1:
		return kb[0]
	}
	return ""
}

// nearestMarker is the known +kubebuilder: marker name that name is a
// typo of: the one name at an edit distance of at most 2, in any case, for
// names of at least 6 letters past the prefix; "" when there is none, or
// more than one at the least distance.
func nearestMarker(name string) string {
	if len(name)+1-len(kubebuilderPrefix) < 6 {
		return ""
	}
	best, bestDist, ties := "", 3, 0
	for _, k := range knownMarkerNames {
		if !strings.HasPrefix(k, kubebuilderPrefix[1:]) {
			continue
		}
		switch d := editDistance(strings.ToLower(k), strings.ToLower(name)); {
		case d < bestDist:
			best, bestDist, ties = k, d, 1
		case d == bestDist:
			ties++
		}
	}
	if ties != 1 {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// misplacedMarker says why the defined marker text, attached to at, is
// skipped, and where it applies; "" when it applies there. A marker is
// read at its attachment's target; one in the comment group right above a
// type's doc is read for the package instead when only the package
// defines it (the collector moves it). A comment inside a struct that no
// field takes, or at package level, is not judged.
func misplacedMarker(text string, at attachment) string {
	if at.dropped || at.target == ctmarkers.DescribesPackage {
		return ""
	}
	targets := definedAt(text)
	if len(targets) == 0 || slices.Contains(targets, at.target) || // unknown: unknownMarker's
		at.target == ctmarkers.DescribesType && !at.godoc && slices.Contains(targets, ctmarkers.DescribesPackage) {
		return ""
	}
	written := "+" + knownMarkers().Lookup(text, targets[0]).Name
	here := "a type"
	if at.target == ctmarkers.DescribesField {
		here = "a field"
	}
	msg := fmt.Sprintf("%s is a marker of %s: on %s controller-gen ignores it, so it changes nothing in the CRD", written, targetWords(targets), here)
	typeName, _, _ := strings.Cut(at.goPath, ".")
	switch {
	case written == kubebuilderPrefix+"default" && at.target == ctmarkers.DescribesType:
		return msg + fmt.Sprintf("; write +default=%s on the type instead, which gives every field of type %s that default "+
			"(a type-level default, KEP-1929), or +kubebuilder:default on those fields", jsonValue(text), typeName)
	case at.target == ctmarkers.DescribesType && slices.Contains(targets, ctmarkers.DescribesField):
		return msg + fmt.Sprintf("; put it on the fields of type %s", typeName)
	case at.target == ctmarkers.DescribesField && slices.Contains(targets, ctmarkers.DescribesType):
		return msg + fmt.Sprintf("; move it to the comment of type %s", typeName)
	}
	return msg + "; move it to the package's doc comment (doc.go)"
}

// markerName is the marker text's name as written: up to "=" or a blank,
// without a trailing ":".
func markerName(text string) string {
	return strings.TrimRight(text[:strings.IndexAny(text+"=", "= \t")], ":")
}

// targetWords are targets in words: "fields", "types and fields".
func targetWords(targets []ctmarkers.TargetType) string {
	words := map[ctmarkers.TargetType]string{ctmarkers.DescribesPackage: "packages", ctmarkers.DescribesType: "types", ctmarkers.DescribesField: "fields"}
	var out []string
	for _, t := range targets {
		out = append(out, words[t])
	}
	return strings.Join(out, " and ")
}

// jsonValue is the value of the marker text as +default writes it: the
// text after "=" when it is JSON already, else that text as a JSON string
// when it has no blanks (+kubebuilder:default=Cosign is "Cosign"), else a
// placeholder: how controller-tools reads such a value is its own.
func jsonValue(text string) string {
	_, v, _ := strings.Cut(text, "=")
	switch {
	case json.Valid([]byte(v)):
		return v
	case !strings.ContainsAny(v, " \t"):
		return strconv.Quote(v)
	}
	return "<the value in JSON>"
}
