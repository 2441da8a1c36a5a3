package nfi

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// TestContainsNoqa: containsNoqa answers as the lower-cased copy it
// replaced did, on generated text rich in the letters of "noqa" (ASCII and
// non-ASCII).
func TestContainsNoqa(t *testing.T) {
	alphabet := []string{"n", "N", "o", "O", "q", "Q", "a", "A", " ", "#", "é", "Ŋ", "\n"}
	r := rand.New(rand.NewSource(1))
	hits := 0
	for i := 0; i < 20000; i++ {
		var b bytes.Buffer
		for k := r.Intn(12); k > 0; k-- {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		src := b.Bytes()
		want := bytes.Contains(bytes.ToLower(src), []byte("noqa"))
		if got := containsNoqa(src); got != want {
			t.Fatalf("containsNoqa(%q) = %v, want %v", src, got, want)
		}
		if want {
			hits++
		}
	}
	for _, s := range []string{"noqa", "# NoQA: E501", "x = 1  # noqa", "nOqA", "no qa", "noq", ""} {
		if got, want := containsNoqa([]byte(s)), bytes.Contains(bytes.ToLower([]byte(s)), []byte("noqa")); got != want {
			t.Errorf("containsNoqa(%q) = %v, want %v", s, got, want)
		}
	}
	if hits == 0 {
		t.Fatal("no generated input contains noqa")
	}
}

// TestGlobLiteralFastPath: a pattern without wildcards answers as its
// regular expression does.
func TestGlobLiteralFastPath(t *testing.T) {
	pats := []string{"venv", "build", "a/b", "src/gen", ".git", "x.py", "b", "ab"}
	paths := []string{"venv", "venv/x.py", "a/venv", "a/venv/b.py", "avenv", "venvs/x", "x/venv2", "./venv/x",
		"a/b", "a/b/c.py", "a/bc", "xa/b", "src/gen/x.py", "src/generated", "b/venv", "ab/b", "aab", "b", "", "a/ab/x", "x.py", "d/x.py", "x.pyc", "abab/ab"}
	for _, p := range pats {
		g, err := CompileGlob(p)
		if err != nil {
			t.Fatal(err)
		}
		if !g.isLit {
			t.Fatalf("%q: not a literal", p)
		}
		for _, rel := range paths {
			if got, want := g.Match(rel), g.re.MatchString(strings.TrimPrefix(rel, "./")); got != want {
				t.Errorf("%q.Match(%q) = %v, regexp says %v", p, rel, got, want)
			}
		}
	}
}
