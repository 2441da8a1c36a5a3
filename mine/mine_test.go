package mine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// Test rules: deterministic stand-ins for the catalog so that the expected
// counts do not depend on which catalog rules exist yet.
var testFunctionDocstring = &nfi.Rule{
	ID: "DOC-R90", Name: "test-function-docstring", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{Summary: "function without docstring", Why: "test rule", Bad: "def f():\n    pass\n",
		Good: "def f():\n    \"\"\"Do it.\"\"\"\n", Source: "mine tests"},
	Kinds: []string{"function_definition"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		body := t.ChildByField(n, "body")
		if body == syntax.NoNode {
			return
		}
		for _, c := range t.NamedChildren(body) {
			if t.Kind(c) == "comment" {
				continue
			}
			if t.Kind(c) == "expression_statement" {
				if s := t.NamedChildren(c); len(s) > 0 && t.Kind(s[0]) == "string" {
					return
				}
			}
			break
		}
		p.Reportf(n, "function has no docstring")
	},
}

var testBareExcept = &nfi.Rule{
	ID: "ERR-P90", Name: "test-bare-except", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{Summary: "bare except", Why: "test rule", Bad: "try:\n    pass\nexcept:\n    pass\n",
		Good: "try:\n    pass\nexcept ValueError:\n    pass\n", Source: "mine tests"},
	Kinds: []string{"except_clause"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		for _, c := range p.Tree.NamedChildren(n) {
			if k := p.Tree.Kind(c); k != "block" && k != "comment" {
				return
			}
		}
		p.Reportf(n, "bare except")
	},
}

func testCatalog() *nfi.Catalog {
	return &nfi.Catalog{Version: "mine-test", Rules: []*nfi.Rule{testFunctionDocstring, testBareExcept}}
}

// history builds a git repository with fixed authors and dates.
type history struct {
	t   testing.TB
	dir string
	day int
	// hashes of the commits made, by label
	commits map[string]string
}

func newHistory(t testing.TB) *history {
	h := &history{t: t, dir: t.TempDir(), commits: map[string]string{}}
	h.git("Alice", "init", "-q", "-b", "main")
	return h
}

// git runs git in the repository as author who ("Name" or "Name <email>"),
// at the current day.
func (h *history) git(who string, args ...string) string {
	h.t.Helper()
	name, email := who, strings.ToLower(strings.Fields(who)[0])+"@example.com"
	if i := strings.Index(who, " <"); i >= 0 {
		name, email = who[:i], strings.TrimSuffix(who[i+2:], ">")
	}
	date := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, h.day).Format(time.RFC3339)
	cmd := exec.Command("git", args...)
	cmd.Dir = h.dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME="+name, "GIT_AUTHOR_EMAIL="+email, "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME="+name, "GIT_COMMITTER_EMAIL="+email, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		h.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (h *history) write(files map[string]string) {
	h.t.Helper()
	for p, content := range files {
		full := filepath.Join(h.dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
	h.git("Alice", "add", "-A")
}

// commit makes a commit on the current branch, one day after the last.
func (h *history) commit(label, who, msg string, files map[string]string) string {
	h.t.Helper()
	h.day++
	if files != nil {
		h.write(files)
	}
	h.git(who, "commit", "-q", "--allow-empty", "-m", msg)
	sha := h.git(who, "rev-parse", "HEAD")
	h.commits[label] = sha
	return sha
}

// pr makes a branch with one commit by author, then a --no-ff merge on main
// by merger with GitHub's message shape.
func (h *history) pr(label string, n int, author, merger, branch, title string, files map[string]string, extra ...func()) string {
	h.t.Helper()
	h.git(merger, "checkout", "-q", "-b", branch)
	for _, f := range extra {
		f()
	}
	h.commit(label+"-head", author, title, files)
	h.git(merger, "checkout", "-q", "main")
	h.day++
	h.git(merger, "merge", "-q", "--no-ff", branch, "-m", fmt.Sprintf("Merge pull request #%d from %s", n, branch), "-m", title)
	sha := h.git(merger, "rev-parse", "HEAD")
	h.commits[label] = sha
	return sha
}

const (
	aPlain = "def greet(name):\n    return 'hi ' + name\n"
	aDoc   = "def greet(name):\n    \"\"\"Return a greeting for name.\"\"\"\n    return 'hi ' + name\n"
	aDocC  = "def greet(name):\n    \"\"\"Return a greeting for name.\"\"\"\n    # Plain ASCII only.\n    return 'hi ' + name\n"
	bBare  = "import json\n\n\ndef load(text):\n    \"\"\"Parse text.\"\"\"\n    try:\n        return json.loads(text)\n    except:\n        return None\n\n\ndef dump(obj):\n    return json.dumps(obj)\n\n\nLIMIT = 10\nNAME = 'b'\n"
	bNamed = "import json\n\n\ndef load(text):\n    \"\"\"Parse text.\"\"\"\n    try:\n        return json.loads(text)\n    except ValueError:\n        return None\n\n\ndef dump(obj):\n    return json.dumps(obj)\n\n\nLIMIT = 10\nNAME = 'b'\n"
	bDoc   = "import json\n\n\ndef load(text):\n    \"\"\"Parse text.\"\"\"\n    try:\n        return json.loads(text)\n    except ValueError:\n        return None\n\n\ndef dump(obj):\n    \"\"\"Serialize obj.\"\"\"\n    return json.dumps(obj)\n\n\nLIMIT = 10\nNAME = 'b'\n"
	cGood  = "def read(path):\n    \"\"\"Read path.\"\"\"\n    with open(path) as f:\n        return f.read()\n"
	cBare  = "def read(path):\n    \"\"\"Read path.\"\"\"\n    try:\n        with open(path) as f:\n            return f.read()\n    except:\n        return ''\n"
	cBot   = "def read(path):\n    \"\"\"Read path.\"\"\"\n    try:\n        with open(path, encoding='utf-8') as f:\n            return f.read()\n    except:\n        return ''\n"
	eGood  = "def parse(s):\n    \"\"\"Split s.\"\"\"\n    return s.split()\n"
	eBad   = "def parse(s:\n    \"\"\"Split s.\"\"\"\n    return s.split(\n"
)

// buildHistory makes the reference history: every kind of change once, in
// 2024, plus one positive change in 2025 (outside the test window).
func buildHistory(t testing.TB) *history {
	h := newHistory(t)
	h.commit("init", "Alice", "Initial import", map[string]string{
		"pkg/__init__.py":  "__version__ = \"1.0.0\"\n",
		"pkg/a.py":         aPlain,
		"pkg/b.py":         bBare,
		"pkg/c.py":         cGood,
		"pkg/e.py":         eGood,
		"README.md":        "# demo\n",
		"requirements.txt": "requests==2.31.0\n",
	})
	h.pr("docstring", 1, "Alice", "Alice", "alice/docs", "Add docstring to greet", map[string]string{"pkg/a.py": aDoc})
	h.commit("narrow", "Bob", "Narrow bare except in b.py (#2)", map[string]string{"pkg/b.py": bNamed})
	h.commit("regression", "Carol", "Refactor loader (#3)", map[string]string{"pkg/c.py": cBare})
	h.pr("bot", 4, "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>", "Alice",
		"org/dependabot/pip/requests-2.32.0", "Bump requests from 2.31.0 to 2.32.0",
		map[string]string{"requirements.txt": "requests==2.32.0\n", "pkg/c.py": cBot})
	h.commit("revert", "Alice", "Revert \"Add docstring to greet\" (#5)\n\nThis reverts commit "+h.commits["docstring"]+".",
		map[string]string{"pkg/a.py": aPlain})
	h.commit("bump", "Alice", "Bump version to 1.1.0 (#6)", map[string]string{"pkg/__init__.py": "__version__ = \"1.1.0\"\n"})
	h.commit("duplicate", "Bob", "Document greet again (#7)", map[string]string{"pkg/a.py": aDoc})
	h.commit("syntax", "Carol", "WIP: new parser (#8)", map[string]string{"pkg/e.py": eBad})
	h.pr("nochange", 9, "Bob", "Bob", "bob/tidy", "Tidy comments in greet", map[string]string{"pkg/a.py": aDocC, "docs/notes.md": "notes\n"})
	h.pr("readme", 10, "Alice", "Alice", "alice/readme", "Improve the README", map[string]string{"README.md": "# demo\n\nMore.\n"})
	h.commit("deps", "Alice", "Update dependencies (#11)", map[string]string{"requirements.txt": "requests==2.32.3\n", "pkg/c.py": cGood})
	h.commit("direct", "Alice", "Quick fix without a PR", map[string]string{"pkg/e.py": eBad + "\n"})
	h.commit("sync", "Alice", "Sync package metadata (#12)", map[string]string{"pkg/__init__.py": "__version__ = \"1.2.0\"\n"})
	h.pr("rename", 13, "Dana", "Alice", "dana/rename", "Rename b to codec and document dump",
		map[string]string{"pkg/codec.py": bDoc}, func() {
			h.git("Dana", "mv", "pkg/b.py", "pkg/codec.py")
		})
	h.commit("added", "Alice", "Add helpers module (#14)", map[string]string{"pkg/f.py": "def helper():\n    return 1\n"})
	h.day = 400 // 2025
	h.commit("late", "Alice", "Document helper (#15)", map[string]string{"pkg/f.py": "def helper():\n    \"\"\"Return 1.\"\"\"\n    return 1\n"})
	return h
}

func window() (time.Time, time.Time) {
	return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)
}

func mineHistory(t *testing.T, h *history, mod func(*Options)) (*Summary, []Candidate) {
	t.Helper()
	since, until := window()
	opts := Options{
		Repos:   []Repo{{Path: h.dir, Name: "demo/pkg"}},
		Since:   since,
		Until:   until,
		Catalog: testCatalog(),
		Workers: 2,
	}
	if mod != nil {
		mod(&opts)
	}
	var out bytes.Buffer
	sum, err := Run(context.Background(), opts, &out)
	if err != nil {
		t.Fatal(err)
	}
	cands, err := DecodeCandidates("out.jsonl", &out)
	if err != nil {
		t.Fatal(err)
	}
	return sum, cands
}

func TestMineHistory(t *testing.T) {
	h := buildHistory(t)
	var dropped bytes.Buffer
	sum, cands := mineHistory(t, h, func(o *Options) { o.Write = Classes[:]; o.Dropped = &dropped })

	rs := sum.Repos[0]
	// First-parent commits in 2024: init, 14 merged changes (the 2025 one is
	// outside the window) and one direct commit.
	if got, want := [4]int{rs.Commits, rs.Merges, rs.Squashes, rs.Direct}, [4]int{16, 5, 9, 2}; got != want {
		t.Errorf("commits/merges/squashes/direct: got %v, want %v", got, want)
	}
	if sum.MergedChanges != 14 {
		t.Errorf("merged changes: got %d, want 14", sum.MergedChanges)
	}
	wantDrops := map[string]int{DropBot: 1, DropRevert: 1, DropRelease: 2, DropDependency: 1, DropNoPythonChange: 2}
	if d := cmp.Diff(wantDrops, sum.ChangeDrops); d != "" {
		t.Errorf("change drops (-want +got):\n%s", d)
	}
	label := map[string]string{}
	for l, sha := range h.commits {
		label[sha] = l
	}
	gotDropped := map[string]string{}
	dec := json.NewDecoder(&dropped)
	for dec.More() {
		var d DroppedChange
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
		gotDropped[label[d.Commit]] = d.Reason
	}
	wantDropped := map[string]string{"bot": DropBot, "revert": DropRevert, "bump": DropRelease, "sync": DropRelease,
		"deps": DropDependency, "readme": DropNoPythonChange, "added": DropNoPythonChange}
	if d := cmp.Diff(wantDropped, gotDropped); d != "" {
		t.Errorf("dropped changes (-want +got):\n%s", d)
	}
	if sum.ChangesKept != 7 {
		t.Errorf("changes kept: got %d, want 7", sum.ChangesKept)
	}
	if d := cmp.Diff(map[string]int{SkipAdded: 1}, sum.FilesSkipped); d != "" {
		t.Errorf("files skipped (-want +got):\n%s", d)
	}
	wantClasses := ClassCounts{Positive: 4, NoChange: 1, Regression: 1, ScorerError: 1}
	if sum.Classes != wantClasses || sum.Pairs != 7 {
		t.Errorf("classes: got %+v over %d pairs, want %+v over 7", sum.Classes, sum.Pairs, wantClasses)
	}
	if d := cmp.Diff(map[string]int{FilterDuplicate: 1}, sum.CandidateDrops); d != "" {
		t.Errorf("candidate drops (-want +got):\n%s", d)
	}

	// Every pair written (all classes), minus the duplicate, in history order.
	type row struct {
		Label, File, OldFile string
		Class                Class
		Kind                 string
		PR                   int
	}
	var got []row
	for _, c := range cands {
		got = append(got, row{label[c.Commit], c.File, c.OldFile, c.Class, c.Kind, c.PRNumber})
	}
	want := []row{
		{"docstring", "pkg/a.py", "", Positive, KindMerge, 1},
		{"narrow", "pkg/b.py", "", Positive, KindSquash, 2},
		{"regression", "pkg/c.py", "", Regression, KindSquash, 3},
		{"syntax", "pkg/e.py", "", ScorerError, KindSquash, 8},
		{"nochange", "pkg/a.py", "", NoChange, KindMerge, 9},
		{"rename", "pkg/codec.py", "pkg/b.py", Positive, KindMerge, 13},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("candidates (-want +got):\n%s", d)
	}
	if sum.Candidates != len(want) {
		t.Errorf("summary candidates: got %d, want %d", sum.Candidates, len(want))
	}

	byLabel := map[string]Candidate{}
	for _, c := range cands {
		byLabel[label[c.Commit]] = c
	}
	// Improvements are real scores of the test rules: one function, one
	// DOC rule → the docstring moves DOC from 0 to 1.
	im := func(l string, a nfi.Aspect) float64 {
		v, ok := byLabel[l].Improvement.Get(a)
		if !ok {
			t.Errorf("%s: no %s improvement", l, a.Code())
		}
		return v
	}
	if v := im("docstring", nfi.Documentation); v != 1 {
		t.Errorf("docstring: I_DOC = %v, want 1", v)
	}
	if v := im("narrow", nfi.ErrorHandling); v != 1 {
		t.Errorf("narrow: I_ERR = %v, want 1", v)
	}
	if v := im("regression", nfi.ErrorHandling); v != -1 {
		t.Errorf("regression: I_ERR = %v, want -1", v)
	}
	if c := byLabel["docstring"]; len(c.Flipped) != 1 || c.Flipped[0].ID != "DOC-R90" || c.Flipped[0].Before || !c.Flipped[0].After {
		t.Errorf("docstring: flipped %+v, want DOC-R90 false→true", c.Flipped)
	}
	if c := byLabel["syntax"]; !strings.Contains(c.ScorerError, "after: syntax_error") {
		t.Errorf("syntax: scorer_error %q, want an after-side syntax error", c.ScorerError)
	}
	if c := byLabel["docstring"]; c.Subject != "Add docstring to greet" || c.Parent != h.commits["bot"] && c.AddedLines != 1 {
		t.Errorf("docstring: subject %q, added %d", c.Subject, c.AddedLines)
	}
	if c := byLabel["docstring"]; c.AddedLines != 1 || c.DeletedLines != 0 || c.BeforeLines != 2 || c.AfterLines != 3 {
		t.Errorf("docstring: diff +%d -%d, lines %d→%d, want +1 -0, 2→3", c.AddedLines, c.DeletedLines, c.BeforeLines, c.AfterLines)
	}
	if c := byLabel["docstring"]; c.Before != aPlain || c.After != aDoc || c.Date != "2024-01-04T12:00:00+00:00" || c.Author != "Alice" {
		t.Errorf("docstring: before/after/date/author not as committed: %q %q %q %q", c.Before, c.After, c.Date, c.Author)
	}
	if d := cmp.Diff(map[string][]string{"DOC": {"docstring*"}}, byLabel["docstring"].Keywords); d != "" {
		t.Errorf("docstring keywords (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string][]string{"ERR": {"bare except", "except*"}}, byLabel["narrow"].Keywords); d != "" {
		t.Errorf("narrow keywords (-want +got):\n%s", d)
	}
}

func TestMineFilters(t *testing.T) {
	h := buildHistory(t)
	t.Run("positive only", func(t *testing.T) {
		sum, cands := mineHistory(t, h, nil)
		if len(cands) != 3 || sum.Candidates != 3 || sum.CandidateDrops[FilterDuplicate] != 1 {
			t.Errorf("got %d candidates, drops %v; want 3 and one duplicate", len(cands), sum.CandidateDrops)
		}
	})
	t.Run("cap", func(t *testing.T) {
		sum, cands := mineHistory(t, h, func(o *Options) { o.PerRepoCap = 1 })
		want := map[string]int{FilterDuplicate: 1, FilterRepoCap: 2}
		if len(cands) != 1 || cands[0].Commit != h.commits["docstring"] {
			t.Errorf("got %d candidates, want the first positive only", len(cands))
		}
		if d := cmp.Diff(want, sum.CandidateDrops); d != "" {
			t.Errorf("drops (-want +got):\n%s", d)
		}
	})
	t.Run("diff size", func(t *testing.T) {
		// The docstring pairs (and their duplicate) and the rename add 1
		// line; only the narrow change, which replaces 1 line (2), stays.
		sum, cands := mineHistory(t, h, func(o *Options) { o.MinDiffLines = 2 })
		if len(cands) != 1 || cands[0].Commit != h.commits["narrow"] || sum.CandidateDrops[FilterDiffSize] != 3 {
			t.Errorf("got %d candidates, drops %v; want the narrow change and 3 diff_size", len(cands), sum.CandidateDrops)
		}
	})
	t.Run("file length", func(t *testing.T) {
		sum, cands := mineHistory(t, h, func(o *Options) { o.MaxFileLines = 5 })
		if len(cands) != 1 || sum.CandidateDrops[FilterFileLength] != 2 || sum.CandidateDrops[FilterDuplicate] != 1 {
			t.Errorf("got %d candidates, drops %v; want 1 and 2 file_length", len(cands), sum.CandidateDrops)
		}
	})
	t.Run("blocklist", func(t *testing.T) {
		sum, cands := mineHistory(t, h, func(o *Options) { o.Blocklist = []string{"Demo/Pkg"} })
		if len(cands) != 0 || sum.ChangeDrops[DropBlocklisted] != 14 || sum.Pairs != 0 {
			t.Errorf("got %d candidates, drops %v, %d pairs; want everything blocklisted", len(cands), sum.ChangeDrops, sum.Pairs)
		}
	})
	t.Run("window", func(t *testing.T) {
		sum, _ := mineHistory(t, h, func(o *Options) {
			o.Since = time.Date(2024, 1, 6, 0, 0, 0, 0, time.UTC)
			o.Until = time.Time{}
		})
		// From day 6 on: narrow (day 5) is out, the 2025 change is in.
		if sum.Classes.Positive != 3 || sum.MergedChanges != 13 {
			t.Errorf("got %d positive of %d merged changes, want 3 of 13", sum.Classes.Positive, sum.MergedChanges)
		}
	})
	t.Run("two repositories", func(t *testing.T) {
		sum, cands := mineHistory(t, h, func(o *Options) {
			o.Repos = append(o.Repos, Repo{Path: h.dir, Name: "demo/fork"})
		})
		// The fork's 4 positive pairs repeat the first repository's: all
		// duplicates, plus the first repository's own duplicate.
		if len(cands) != 3 || sum.CandidateDrops[FilterDuplicate] != 5 || sum.Pairs != 14 {
			t.Errorf("got %d candidates, drops %v, %d pairs; want 3, 5 duplicates, 14", len(cands), sum.CandidateDrops, sum.Pairs)
		}
		if sum.Repos[1].Classes != sum.Repos[0].Classes {
			t.Errorf("fork classes %+v differ from %+v", sum.Repos[1].Classes, sum.Repos[0].Classes)
		}
	})
}

func TestMineCancel(t *testing.T) {
	h := buildHistory(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Options{Repos: []Repo{{Path: h.dir}}, Catalog: testCatalog()}, &bytes.Buffer{})
	if err == nil {
		t.Fatal("got no error from a cancelled run")
	}
}

func TestMineNotARepository(t *testing.T) {
	_, err := Run(context.Background(), Options{Repos: []Repo{{Path: t.TempDir()}}, Catalog: testCatalog()}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("got %v, want a not-a-git-repository error", err)
	}
}

// TestRepoName clones real repositories with git and checks the owner/name
// derived from hosted, local and missing origins.
func TestRepoName(t *testing.T) {
	root := t.TempDir()
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	mirror := filepath.Join(root, "mirror", "psf+requests", "repo")
	if err := os.MkdirAll(mirror, 0o755); err != nil {
		t.Fatal(err)
	}
	run(mirror, "init", "-q")
	plain := filepath.Join(root, "plain", "myproject.git")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	run(plain, "init", "-q", "--bare")
	run(root, "clone", "-q", mirror, "clone-of-mirror")
	run(root, "clone", "-q", "file://"+mirror, "file-clone")
	run(root, "clone", "-q", plain, "pallets__flask")
	run(root, "clone", "-q", plain, "work")
	hosted := filepath.Join(root, "hosted")
	run(root, "init", "-q", hosted)
	run(hosted, "remote", "add", "origin", "https://github.com/pallets/itsdangerous.git")
	scp := filepath.Join(root, "scp")
	run(root, "init", "-q", scp)
	run(scp, "remote", "add", "origin", "git@github.com:django/django")
	for _, c := range []struct{ dir, want string }{
		{"clone-of-mirror", "psf/requests"}, // local origin .../psf+requests/repo
		{"file-clone", "psf/requests"},
		{"pallets__flask", "pallets/flask"}, // local origin without owner: the clone's name
		{"work", "work"},
		{"hosted", "pallets/itsdangerous"},
		{"scp", "django/django"},
		{"mirror/psf+requests/repo", "psf/requests"}, // no origin: the mirror's layout
	} {
		if got := RepoName(context.Background(), filepath.Join(root, c.dir)); got != c.want {
			t.Errorf("RepoName(%s) = %q, want %q", c.dir, got, c.want)
		}
	}
}
