package random

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// PatternString is a random string that matches the regular expression
// pattern (a schema's pattern, which the apiserver checks with Go's
// regexp) and has a length within [minLen, maxLen] (maxLen < 0: no
// bound), generated from its syntax tree: repetitions bounded (* and + at
// most 3 times, {n,} at most n+3), classes drawn from their printable
// ASCII runes when they have some, anchors and word boundaries empty. It
// tries a few times, each one checked with regexp; ok is false when no
// try matches (a pattern with lookaround-like constraints the tree does
// not show, or lengths it cannot meet): Filler then writes a string that
// ignores the pattern, which validation may refuse (conversion's
// Version.Valid drops such a field).
func PatternString(r *rand.Rand, pattern string, minLen, maxLen int) (string, bool) {
	re, tree := compiledPattern(pattern)
	if re == nil {
		return "", false
	}
	for range 12 {
		var b strings.Builder
		genRegexp(r, tree, &b)
		s := b.String()
		if len(s) < minLen || maxLen >= 0 && len(s) > maxLen {
			continue
		}
		if re.MatchString(s) {
			return s, true
		}
	}
	return "", false
}

type compiled struct {
	re   *regexp.Regexp
	tree *syntax.Regexp
}

var patterns sync.Map // pattern → compiled

func compiledPattern(pattern string) (*regexp.Regexp, *syntax.Regexp) {
	if c, ok := patterns.Load(pattern); ok {
		return c.(compiled).re, c.(compiled).tree
	}
	var c compiled
	if re, err := regexp.Compile(pattern); err == nil {
		if tree, err := syntax.Parse(pattern, syntax.Perl); err == nil {
			c = compiled{re: re, tree: tree}
		}
	}
	patterns.Store(pattern, c)
	return c.re, c.tree
}

const maxRepeat = 3

// genRegexp writes a string of re to b, stopping once b holds more than 512
// bytes (a longer string is left for regexp to refuse). Its recursion
// follows the syntax tree, whose depth regexp/syntax bounds (1000).
func genRegexp(r *rand.Rand, re *syntax.Regexp, b *strings.Builder) {
	if b.Len() > 512 {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		b.WriteRune(classRune(r, re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte(letters[r.IntN(len(letters))])
	case syntax.OpCapture:
		genRegexp(r, re.Sub[0], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, maxRepeat
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 || hi > lo+maxRepeat {
				hi = lo + maxRepeat
			}
		}
		for range lo + r.IntN(hi-lo+1) {
			genRegexp(r, re.Sub[0], b)
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			genRegexp(r, s, b)
		}
	case syntax.OpAlternate:
		genRegexp(r, re.Sub[r.IntN(len(re.Sub))], b)
	}
	// OpEmptyMatch, OpBeginLine, OpEndLine, OpBeginText, OpEndText,
	// OpWordBoundary, OpNoWordBoundary, OpNoMatch: nothing
}

// classRune is a rune of a class (pairs of inclusive bounds), printable
// ASCII when the class has some.
func classRune(r *rand.Rand, ranges []rune) rune {
	var ascii []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := max(ranges[i], 0x21), min(ranges[i+1], 0x7e)
		if lo <= hi {
			ascii = append(ascii, lo, hi)
		}
	}
	if len(ascii) == 0 {
		ascii = ranges
	}
	if len(ascii) == 0 {
		return 'a'
	}
	// a range at random, then a rune in it
	i := 2 * r.IntN(len(ascii)/2)
	return ascii[i] + rune(r.IntN(int(ascii[i+1]-ascii[i])+1))
}
