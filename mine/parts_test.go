package mine

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

func TestDropReason(t *testing.T) {
	t.Parallel()
	tests := []struct {
		author, subject, body, head string
		want                        string
	}{
		{"Alice", "Add docstrings to the parser (#12)", "", "", ""},
		{"dependabot[bot]", "Bump urllib3 from 1.26.5 to 1.26.18 (#99)", "", "", DropBot},
		{"renovate-bot", "Update dependency pytest to v8 (#3)", "", "", DropBot},
		{"pre-commit-ci[bot]", "[pre-commit.ci] pre-commit autoupdate (#7)", "", "", DropBot},
		{"Alice", "Merge pull request #5 from org/dependabot/pip/idna-3.7", "Bump idna", "", DropBot},
		{"Alice", "Merge pull request #5 from bob/fix", "Fix", "dependabot[bot] x@y", DropBot},
		{"Alice", "Revert \"Use pathlib\" (#4)", "", "", DropRevert},
		{"Alice", "Fix parser (#4)", "This reverts commit 0123456789abcdef.", "", DropRevert},
		{"Alice", "Bump version to 2.1.0 (#8)", "", "", DropRelease},
		{"Alice", "Release 2.1.0 (#8)", "", "", DropRelease},
		{"Alice", "v2.1.0 (#8)", "", "", DropRelease},
		{"Alice", "chore(release): 3.0.0 (#8)", "", "", DropRelease},
		{"Alice", "Release the GIL while hashing (#8)", "", "", ""},
		{"Alice", "Merge branch 'release/0.2.1'", "", "", DropRelease},
		{"Alice", "Merge branch 'feature/release-notes-parser'", "", "", ""},
		{"Alice", "Merge branch 'release-notes-parser'", "", "", ""},
		{"Alice", "Merge branch 'release-2.0' into main", "", "", DropRelease},
		{"Alice", "Update version detection for Windows (#8)", "", "", ""},
		{"Alice", "Bump requests from 2.31.0 to 2.32.0 (#9)", "", "", DropDependency},
		{"Alice", "chore(deps): update all dependencies (#9)", "", "", DropDependency},
		{"Alice", "Update dependencies (#9)", "", "", DropDependency},
		{"Alice", "Upgrade syntax for Python 3.8 (#9)", "", "", ""},
		{"Alice", "Fix lock file handling (#9)", "", "", ""},
	}
	for _, tt := range tests {
		c := commit{AuthorName: tt.author, Subject: tt.subject, Body: tt.body, Parents: []string{"p"}}
		if got := dropReasonMessage(c, tt.head); got != tt.want {
			t.Errorf("%q by %s: got %q, want %q", tt.subject, tt.author, got, tt.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		subject string
		parents int
		kind    string
		pr      int
	}{
		{"Merge pull request #12 from a/b", 2, KindMerge, 12},
		{"Merge branch 'dev'", 2, KindMerge, 0},
		{"Add docs (#33)", 1, KindSquash, 33},
		{"Add docs (#33) and more", 1, "", 0},
		{"Add docs", 1, "", 0},
		{"Initial (#1)", 0, "", 0},
	}
	for _, tt := range tests {
		c := commit{Subject: tt.subject, Parents: make([]string, tt.parents)}
		kind, pr := kindOf(c)
		if kind != tt.kind || pr != tt.pr {
			t.Errorf("%q with %d parents: got %q #%d, want %q #%d", tt.subject, tt.parents, kind, pr, tt.kind, tt.pr)
		}
	}
}

func TestVersionOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lines []string
		want  bool
	}{
		{[]string{`__version__ = "1.0.0"`, `__version__ = "1.1.0"`}, true},
		{[]string{`VERSION = (1, 2, 3)`, ``}, true},
		{[]string{`version = '2.0'  # bumped`}, true},
		{[]string{``, `   `}, false},
		{[]string{`__version__ = "1.1"`, `print(__version__)`}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := isVersionOnly(tt.lines); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.lines, got, tt.want)
		}
	}
}

func TestKeywords(t *testing.T) {
	t.Parallel()
	m := NewMatcher(Keywords)
	tests := []struct {
		text string
		want map[string][]string
	}{
		{"Add docstrings to public API", map[string][]string{"DOC": {"docstring*"}}},
		{"Replace os.path with pathlib; drop deprecated calls", map[string][]string{"LIB": {"deprecat*", "pathlib"}}},
		{"Use f-strings", map[string][]string{"LIB": {"f-string*"}}},
		{"Fix information leak", nil}, // "format*" must not match inside a word
		{"Simplify nested ifs", map[string][]string{"LOG": {"nest*", "simplif*"}}},
		{"Fix PEP-8 line-length issues", map[string][]string{"STY": {"line length", "pep 8"}}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, m.Match(tt.text)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tt.text, d)
		}
	}
	for _, k := range Keywords {
		if k.Pattern == "" || k.Rationale == "" || strings.ToLower(k.Pattern) != k.Pattern {
			t.Errorf("keyword %+v: pattern must be lower case, with a rationale", k)
		}
	}
}

// lcs is the textbook O(nm) longest common subsequence length.
func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestLineDiffMinimal(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", "e"}
	for range 500 {
		a := make([]string, r.IntN(12))
		b := make([]string, r.IntN(12))
		for i := range a {
			a[i] = words[r.IntN(len(words))]
		}
		for i := range b {
			b[i] = words[r.IntN(len(words))]
		}
		ops := LineDiff(a, b)
		var ra, rb []string
		for _, op := range ops {
			if op.Kind != OpInsert {
				ra = append(ra, op.Text)
			}
			if op.Kind != OpDelete {
				rb = append(rb, op.Text)
			}
		}
		if !cmp.Equal(ra, a, cmp.Comparer(func(x, y []string) bool { return strings.Join(x, "\n") == strings.Join(y, "\n") })) ||
			strings.Join(rb, "\n") != strings.Join(b, "\n") {
			t.Fatalf("%q → %q: ops do not rebuild both sides: %v", a, b, ops)
		}
		add, del := DiffStat(ops)
		if want := len(a) + len(b) - 2*lcs(a, b); add+del != want {
			t.Fatalf("%q → %q: edit distance %d, want %d", a, b, add+del, want)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	a := SplitLines("1\n2\n3\n4\n5\n6\n7\n8\n9\n")
	b := SplitLines("1\n2\nthree\n4\n5\n6\n7\n8\n9\nten\n")
	got := UnifiedDiff("x.py", LineDiff(a, b), 1, 0)
	want := "--- a/x.py\n+++ b/x.py\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n@@ -9,1 +9,2 @@\n 9\n+ten\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if cut := UnifiedDiff("x.py", LineDiff(a, b), 1, 2); !strings.HasSuffix(cut, "... (4 more lines)\n") {
		t.Errorf("cut diff: got\n%s", cut)
	}
}

func FuzzParseDiffTree(f *testing.F) {
	f.Add([]byte("3d22\x00:100644 100644 aaaa bbbb M\x00x.py\x00:000000 100644 0000 cccc R087\x00a.py\x00b.py\x00"))
	f.Add([]byte(":100644"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseDiffTree(b)
		if err != nil {
			return
		}
		for _, fcs := range m {
			for _, fc := range fcs {
				if fc.Path == "" && fc.OldPath == "" && fc.Status == 0 {
					t.Fatalf("empty entry from %q", b)
				}
			}
		}
	})
}

func FuzzParseLog(f *testing.F) {
	f.Add([]byte("\x1e" + strings.Repeat("a", 40) + "\x1fp\x1fA\x1fa@b\x1f2024\x1f2024\x1fsubj\x1fbody\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := parseLog(b)
		if err != nil {
			return
		}
		for _, c := range cs {
			if len(c.Hash) < 40 {
				t.Fatalf("short hash accepted from %q", b)
			}
		}
	})
}

// TestRealCatalogDocstring mines with the polynfi-92 catalog: a commit that
// only adds docstrings must be positive with DOC improving, whatever other
// rules exist.
func TestRealCatalogDocstring(t *testing.T) {
	cat := catalog.Polynfi92()
	e, err := nfi.NewEngine(cat, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Total(nfi.Documentation) == 0 {
		t.Skip("catalog.Polynfi92() has no DOC rules yet")
	}
	h := newHistory(t)
	before := "\"\"\"Greeting helpers.\"\"\"\n\n\ndef greet(name: str) -> str:\n    return 'hi ' + name\n\n\nclass Greeter:\n    def hello(self) -> str:\n        return 'hello'\n"
	after := "\"\"\"Greeting helpers.\"\"\"\n\n\ndef greet(name: str) -> str:\n    \"\"\"Return a greeting for name.\"\"\"\n    return 'hi ' + name\n\n\nclass Greeter:\n    \"\"\"Says hello.\"\"\"\n\n    def hello(self) -> str:\n        \"\"\"Return hello.\"\"\"\n        return 'hello'\n"
	h.commit("init", "Alice", "Initial import", map[string]string{"greet.py": before})
	h.commit("doc", "Alice", "Add docstrings (#1)", map[string]string{"greet.py": after})
	var out strings.Builder
	sum, err := Run(t.Context(), Options{Repos: []Repo{{Path: h.dir, Name: "demo/greet"}}, Catalog: cat, Workers: 1}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Classes.Positive != 1 || sum.Pairs != 1 {
		t.Fatalf("got classes %+v, want one positive pair", sum.Classes)
	}
	cands, err := DecodeCandidates("out", strings.NewReader(out.String()))
	if err != nil || len(cands) != 1 {
		t.Fatalf("got %d candidates (%v), want 1", len(cands), err)
	}
	if v, ok := cands[0].Improvement.Get(nfi.Documentation); !ok || v <= 0 {
		t.Errorf("I_DOC = %v (%v), want > 0", v, ok)
	}
	for _, a := range nfi.Aspects {
		if v, ok := cands[0].Improvement.Get(a); ok && v < 0 {
			t.Errorf("adding docstrings lowered %s by %v", a.Code(), v)
		}
	}
}
