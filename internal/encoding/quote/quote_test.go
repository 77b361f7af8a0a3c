package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	short := strings.Repeat("a", MaxQuoteBytes)
	if got := Excerpt(short); got != short {
		t.Errorf("a value of MaxQuoteBytes bytes is quoted whole; got %q", got)
	}
	long := "[" + strings.Repeat("1,", 115_000) + `"bad"]`
	got := Excerpt(long)
	if want := long[:MaxQuoteBytes] + "… (230007 bytes in all)"; got != want {
		t.Errorf("Excerpt(230 KB) = %q, want %q", got, want)
	}
	// A cut never splits a character.
	wide := strings.Repeat("é", MaxQuoteBytes) // 2 bytes each
	for i := range 4 {
		s := strings.Repeat("x", i) + wide
		got := Excerpt(s)
		cut, _, _ := strings.Cut(got, "…")
		if !utf8.ValidString(got) || !strings.HasPrefix(s, cut) || len(cut) < MaxQuoteBytes-1 {
			t.Errorf("Excerpt(%d x + é…) = %q: not a prefix cut between characters", i, got)
		}
	}
}
