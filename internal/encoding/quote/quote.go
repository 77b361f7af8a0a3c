// Package quote is the rule for quoting, in a message, a value the author
// wrote. It links nothing but the standard library, so that the lint
// analyzers (and golangci-lint's module plugin) can use it.
package quote

import (
	"fmt"
	"unicode/utf8"
)

// MaxQuoteBytes caps what a message quotes of a value the author wrote.
const MaxQuoteBytes = 200

// Excerpt is the rule for quoting a value the author wrote (a marker's
// value, a default) in a message: whole when it is at most MaxQuoteBytes
// bytes; else its first MaxQuoteBytes bytes, cut between characters, then
// how long it is. The author has the whole value in the file the message
// names; a 230 KB default quoted whole made a 243,042-character line.
func Excerpt(s string) string {
	if len(s) <= MaxQuoteBytes {
		return s
	}
	n := MaxQuoteBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:n], len(s))
}
