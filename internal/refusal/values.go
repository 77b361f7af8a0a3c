package refusal

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxValues and MaxValueBytes cap the values an enum allows that a message
// lists: at most MaxValues of them, and no more once MaxValueBytes bytes
// of them are written.
const (
	MaxValues     = 10
	MaxValueBytes = 400
)

// supportedValues is what precedes the list of the values an enum allows
// in the apiserver's error (field.NotSupported: `Unsupported value: "x":
// supported values: "a", "b"`), each value quoted (strconv.Quote).
const supportedValues = "supported values: "

// ValueLists shortens the lists of allowed values in the messages of one
// diagnostic (the lines of one object, or the errors of one finding). Its
// zero value is ready to use.
type ValueLists struct {
	first map[string]string // a long list -> the field that quoted it first
}

// Shorten is the rule for the values an enum allows in the messages of one
// diagnostic: a list longer than MaxValues values or MaxValueBytes bytes is
// written once, at the first message that quotes it, capped (its first
// values, then "... and N more"); a later message of the same diagnostic
// that quotes the same list says "as for FIELD (N values)" instead. A
// shorter list is kept as the apiserver writes it. field is the message's
// field path ("" for none). The apiserver writes every value on every
// error: 189 KB a line for a 20,000-value enum.
func (l *ValueLists) Shorten(field, msg string) string {
	start, end, values := findValues(msg)
	if values == nil || !tooLong(values, end-start) {
		return msg
	}
	list := msg[start:end]
	if at, seen := l.first[list]; seen {
		where := "as for " + at
		if at == "" {
			where = "as above"
		}
		return msg[:start] + fmt.Sprintf("%s (%d values)", where, len(values)) + msg[end:]
	}
	if l.first == nil {
		l.first = map[string]string{}
	}
	l.first[list] = field
	return msg[:start] + capValues(values) + msg[end:]
}

// CapValues is Shorten for a message alone.
func CapValues(msg string) string { return (&ValueLists{}).Shorten("", msg) }

// tooLong says whether a list is capped.
func tooLong(values []string, bytes int) bool {
	return len(values) > MaxValues || bytes > MaxValueBytes
}

// capValues writes the first values, within MaxValues and MaxValueBytes
// (at least one), then how many more there are.
func capValues(values []string) string {
	var b strings.Builder
	n := 0
	for n < len(values) && n < MaxValues && (n == 0 || b.Len()+len(values[n]) <= MaxValueBytes) {
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString(values[n])
		n++
	}
	if n < len(values) {
		fmt.Fprintf(&b, ", ... and %d more (%d in all)", len(values)-n, len(values))
	}
	return b.String()
}

// findValues finds the list after "supported values: " in msg: its bounds
// and its values, quoted as written; nil when msg has none.
func findValues(msg string) (start, end int, values []string) {
	i := strings.Index(msg, supportedValues)
	if i < 0 {
		return 0, 0, nil
	}
	start = i + len(supportedValues)
	end = start
	for at := start; ; at = end + len(", ") {
		q, err := strconv.QuotedPrefix(msg[at:])
		if err != nil {
			break
		}
		values = append(values, q)
		end = at + len(q)
		if !strings.HasPrefix(msg[end:], ", ") {
			break
		}
	}
	if values == nil {
		return 0, 0, nil
	}
	return start, end, values
}
