package doc

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/pyast"
)

// hasCodeIndicatorSpec is what hasCodeIndicator decides, stated plainly:
// the text holds a code character or one of the indicator words.
func hasCodeIndicatorSpec(s string) bool {
	if strings.ContainsAny(s, "()[]{}:=%") {
		return true
	}
	for _, w := range []string{"return", "break", "continue", "import"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// TestHasCodeIndicatorTable checks hasCodeIndicator against its plain
// statement and trimSpaceHash against strings.TrimLeft on every byte alone and in words, and on
// the indicator words cut short or embedded.
func TestHasCodeIndicatorTable(t *testing.T) {
	var cases []string
	for b := range 256 {
		c := string([]byte{byte(b)})
		cases = append(cases, c, "x"+c, c+"y", " #"+c, "#"+c+" #")
	}
	for _, w := range []string{"return", "break", "continue", "import"} {
		for i := range len(w) + 1 {
			cases = append(cases, w[:i], "a "+w[:i], w[:i]+"x", "x"+w[i:], "re"+w, "# "+w+"s")
		}
	}
	cases = append(cases, "", "#", " # #x", "## note", "#\t x = 1", "x = f(1)  # why", "résumé (café)")
	for _, s := range cases {
		if got, want := hasCodeIndicator(s), hasCodeIndicatorSpec(s); got != want {
			t.Errorf("hasCodeIndicator(%q) = %v, want %v", s, got, want)
		}
		if got, want := trimSpaceHash(s), strings.TrimLeft(s, " #"); got != want {
			t.Errorf("trimSpaceHash(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestMergeCommentRows checks the merge against sorting the concatenation
// of the string rows and the own-line comment rows, for inputs in source
// order and out of order.
func TestMergeCommentRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 2000 {
		strRows := make([]int, rng.IntN(6))
		for i := range strRows {
			strRows[i] = rng.IntN(12)
		}
		comments := make([]pyast.Comment, rng.IntN(6))
		for i := range comments {
			comments[i] = pyast.Comment{Line: 1 + rng.IntN(12), OwnLine: rng.IntN(4) > 0}
		}
		if n%3 != 0 { // mostly in source order, as the rule gets them
			slices.Sort(strRows)
			slices.SortFunc(comments, func(a, b pyast.Comment) int { return a.Line - b.Line })
		}
		want := slices.Clone(strRows)
		for _, c := range comments {
			if c.OwnLine {
				want = append(want, c.Line-1)
			}
		}
		slices.Sort(want)
		if got := mergeCommentRows(strRows, comments); !slices.Equal(got, want) {
			t.Fatalf("mergeCommentRows(%v, %v) = %v, want %v", strRows, comments, got, want)
		}
	}
}
