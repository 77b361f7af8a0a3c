package random

import "math/rand/v2"

// Vocabulary is what JSON draws its values from: the keys of objects, the
// strings, and the ranges of numbers. Property tests give the names and
// values their schemas know, so that random values hit the fields they
// check (and, where the strings include some, values those schemas
// refuse).
type Vocabulary struct {
	// Keys are the keys of objects; none: words of 1 to 8 letters.
	Keys []string
	// Strings are the strings; none: words of 1 to 8 letters.
	Strings []string
	// IntMin and IntMax bound the integers (int64), both included.
	IntMin, IntMax int64
	// NumberMax, when above 0, adds numbers that need not be integers
	// (float64 in [0, NumberMax)); at 0 every number is an integer.
	NumberMax float64
	// MaxKeys and MaxItems bound the keys drawn for an object (a key drawn
	// twice is set once) and the items of an array; each count is drawn
	// from 0 to the bound.
	MaxKeys, MaxItems int
}

// JSON is a random JSON value of v, as encoding/json decodes one into an
// any but for its numbers: nil, a bool, an int64, a float64 (with
// NumberMax), a string, a map[string]any or a []any. Objects and arrays
// nest at most depth levels: at depth 0 the value is a scalar. Each of
// null, a boolean, an integer and a number is drawn one time in eight (a
// number, without NumberMax, is a string), a string one time in eight,
// an object two times and an array one time (strings, at depth 0).
func JSON(r *rand.Rand, v Vocabulary, depth int) any {
	switch n := r.IntN(8); {
	case n == 0:
		return nil
	case n == 1:
		return r.IntN(2) == 0
	case n == 2:
		return v.IntMin + r.Int64N(v.IntMax-v.IntMin+1)
	case n == 3 && v.NumberMax > 0:
		return r.Float64() * v.NumberMax
	case (n == 5 || n == 6) && depth > 0:
		m := map[string]any{}
		for range r.IntN(v.MaxKeys + 1) {
			k := pick(r, v.Keys) // the key, then its value
			m[k] = JSON(r, v, depth-1)
		}
		return m
	case n == 7 && depth > 0:
		l := []any{}
		for range r.IntN(v.MaxItems + 1) {
			l = append(l, JSON(r, v, depth-1))
		}
		return l
	}
	return pick(r, v.Strings)
}

// pick is one of words, or a word of 1 to 8 letters if there are none.
func pick(r *rand.Rand, words []string) string {
	if len(words) == 0 {
		return (&Filler{Rand: r}).word()
	}
	return words[r.IntN(len(words))]
}
