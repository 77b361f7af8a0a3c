package impact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLineDiffIsAMinimalEditScript: on random line lists, the edit script
// rebuilds both sides, and changes no more lines than the longest common
// subsequence requires.
func TestLineDiffIsAMinimalEditScript(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 500; n++ {
		a, b := randomLines(r), randomLines(r)
		ops := lineDiff(a, b)
		var gotA, gotB []string
		changed := 0
		for _, o := range ops {
			if o.kind != '+' {
				gotA = append(gotA, o.text)
			}
			if o.kind != '-' {
				gotB = append(gotB, o.text)
			}
			if o.kind != ' ' {
				changed++
			}
		}
		if strings.Join(gotA, "\n") != strings.Join(a, "\n") || strings.Join(gotB, "\n") != strings.Join(b, "\n") {
			t.Fatalf("the script does not rebuild its sides:\n%q\n%q\n%v", a, b, ops)
		}
		if want := len(a) + len(b) - 2*lcsLength(a, b); changed != want {
			t.Fatalf("%d lines changed, want %d:\n%q\n%q", changed, want, a, b)
		}
	}
}

func randomLines(r *rand.Rand) []string {
	out := make([]string, r.IntN(12))
	for i := range out {
		out[i] = string(rune('a' + r.IntN(4)))
	}
	return out
}

func lcsLength(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if a[0] == b[0] {
		return 1 + lcsLength(a[1:], b[1:])
	}
	return max(lcsLength(a[1:], b), lcsLength(a, b[1:]))
}

func TestUnifiedYAMLHunks(t *testing.T) {
	t.Parallel()
	from := map[string]any{"spec": map[string]any{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10}}
	to := map[string]any{"spec": map[string]any{"a": 0, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9}}
	got, err := unifiedYAML("x", "y", from, to)
	if err != nil {
		t.Fatal(err)
	}
	want := "--- x\n+++ y\n@@ -1,5 +1,5 @@\n spec:\n-  a: 1\n+  a: 0\n   b: 2\n   c: 3\n   d: 4\n@@ -8,4 +8,3 @@\n   g: 7\n   h: 8\n   i: 9\n-  j: 10\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if same, _ := unifiedYAML("x", "y", from, from); same != "" {
		t.Errorf("equal objects: %q", same)
	}
}
