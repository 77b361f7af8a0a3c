package impact

import "fmt"

// ConversionUnknown: under --convert, the API's code fails to convert the
// object in a run whose failures say nothing of the real webhook
// (convprog.Program.FailuresUnknown: main sets state the conversions read,
// and --setup is not given): whether the conversion fails with main's
// state, and so whether a request or a LIST fails, is unknown. It is not
// reported as a failure of the object, but the command exits 1 on it, as
// on objects-unreadable: a check must not pass on what it could not know.
// Run again with --setup to know.
const ConversionUnknown = "conversion-unknown"

// conversionOutcomes sorts the record's failed conversions: failed, the
// object's own request fails (ConversionFailed); breaks, a LIST or WATCH
// fails (BreaksList); unknown, one of them failed for want of main's
// setup, whose outcome is unknown (ConversionUnknown).
func (r *Record) conversionOutcomes() (failed, breaks, unknown bool) {
	if f := r.ConversionFailed; f != nil {
		failed, unknown = f.Unknown == "", f.Unknown != ""
	}
	for _, l := range r.ListFails {
		breaks = breaks || l.Unknown == ""
		unknown = unknown || l.Unknown != ""
	}
	return failed, breaks, unknown
}

// lead is what the text report says before a failed conversion.
func (f *ConversionFailure) lead() string {
	if f.Unknown != "" {
		return "whether the API's code converts it is unknown: it fails without the state main sets (--setup; see the note): "
	}
	return "the API's code fails to convert it (the apiserver answers 500): "
}

// unknownString is a ListFailure whose outcome is unknown.
func (f ListFailure) unknownString() string {
	when := "while it is stored at " + f.StoredAt
	if f.AfterWrite {
		when = "after its next write (stored at " + f.StoredAt + ")"
	}
	return fmt.Sprintf("%s, whether every LIST and WATCH of the resource at %s fails is unknown: its conversion fails without the state main sets (--setup; see the note): %s",
		when, f.Version, f.Message)
}
