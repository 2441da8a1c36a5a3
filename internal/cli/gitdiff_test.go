package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/driver"
)

// commitTree makes a git repository in a temp directory with files committed
// on branch main, and returns its path.
func commitTree(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is required: %v", err)
	}
	dir := writeTree(t, files)
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "init")
	return dir
}

// git runs git in dir with a fixed identity; it fails the test on error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmdForTest(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// gitCmdForTest prepares git in dir with a fixed identity and no user configuration.
func gitCmdForTest(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	return cmd
}

// branch makes branch name from main with files written (content "" removes
// the file) and committed, and checks it out.
func branch(t *testing.T, dir, name string, files map[string]string) {
	t.Helper()
	git(t, dir, "checkout", "-q", "-B", name, "main")
	for p, c := range files {
		full := filepath.Join(dir, p)
		if c == "" {
			os.Remove(full)
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", name)
}

// diffJSON is the part of diff's JSON the tests read.
type diffJSON struct {
	Git *struct {
		MergeBase string `json:"merge_base"`
		Head      string `json:"head"`
	} `json:"git"`
	Before        []struct{ Path string } `json:"before_files"`
	After         []struct{ Path string } `json:"after_files"`
	ImprovementPP map[string]float64      `json:"improvement_pp"`
	Valid         bool                    `json:"valid"`
	Invalid       []struct {
		Path, Version, Status string
	} `json:"invalid_files"`
	Findings        map[string]int    `json:"findings"`
	Renamed         map[string]string `json:"renamed_files"`
	SplitFrom       map[string]string `json:"split_from"`
	Unscored        []string          `json:"excluded_files"`
	FileRegressions []struct {
		Path, Origin, Kind, Aspect string
	} `json:"file_regressions"`
	NewSuppressions []struct {
		Path string
		Line int
		Rule string
	} `json:"new_suppressions"`
	Gates []string `json:"gates_failed"`
	Run   struct {
		Suppressions string `json:"suppressions"`
		Version      string `json:"polynfi_version"`
	} `json:"run"`
}

func decodeDiff(t *testing.T, out string) diffJSON {
	t.Helper()
	var d diffJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	return d
}

const (
	undocumented = "def parse(text):\n    return int(text)\n\n\ndef fmt(n):\n    return str(n)\n"
	documented   = "\"\"\"Numbers.\"\"\"\n\n\ndef parse(text):\n    \"\"\"Parse text.\n\n    Args:\n        text: the digits.\n    \"\"\"\n    return int(text)\n\n\ndef fmt(n):\n    \"\"\"Format n.\n\n    Args:\n        n: the number.\n    \"\"\"\n    return str(n)\n"
	bareExcept   = "def parse(text):\n    try:\n        return int(text)\n    except:\n        return 0\n\n\ndef fmt(n):\n    return str(n)\n"
	otherModule  = "def other(x):\n    return x\n"
)

// TestGitDiffGates: the three branches of the issue on a real repository:
// docstrings pass the gate and show the improvement, a bare except fails
// --fail-on regression, a broken file fails --fail-on invalid and never
// shows an improvement.
func TestGitDiffGates(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented, "pkg/other.py": otherModule, "README": "x\n"})
	t.Chdir(dir)
	gates := []string{"--fail-on", "regression,invalid", "--isolated"}

	branch(t, dir, "docs", map[string]string{"pkg/num.py": documented})
	out, errOut, code := run(t, append([]string{"diff", "--base", "main", "--format", "json"}, gates...)...)
	d := decodeDiff(t, out)
	if code != ExitOK || !d.Valid || d.ImprovementPP["DOC"] <= 0 {
		t.Fatalf("docs: exit %d, DOC %+v pp, valid %v (want 0, > 0, true)\n%s", code, d.ImprovementPP["DOC"], d.Valid, errOut)
	}
	// Only the touched file is scored, read from git at both revisions.
	if len(d.Before) != 1 || len(d.After) != 1 || d.After[0].Path != "pkg/num.py" || d.Git == nil || d.Git.Head == "" {
		t.Errorf("docs: files %+v / %+v, git %+v", d.Before, d.After, d.Git)
	}
	text, _, _ := run(t, append([]string{"diff", "--base", "main"}, gates...)...)
	if !strings.Contains(text, "DOC") || !strings.Contains(text, "+") || !strings.Contains(text, "fixed   DOC-R04 pkg/num.py") {
		t.Errorf("docs text:\n%s", text)
	}
	// Nothing of the work tree changed (no checkout): still on docs.
	if b := strings.TrimSpace(git(t, dir, "rev-parse", "--abbrev-ref", "HEAD")); b != "docs" {
		t.Errorf("HEAD is %s after diff, want docs", b)
	}

	branch(t, dir, "except", map[string]string{"pkg/num.py": bareExcept})
	out, errOut, code = run(t, append([]string{"diff", "--base", "main", "--format", "json"}, gates...)...)
	d = decodeDiff(t, out)
	if code != ExitFindings || d.ImprovementPP["ERR"] >= 0 || !strings.Contains(errOut, "gate failed: regression: ERR") {
		t.Fatalf("bare except: exit %d, ERR %v pp, stderr %q (want 1, < 0, a regression gate)", code, d.ImprovementPP["ERR"], errOut)
	}
	if len(d.Gates) == 0 || d.Findings[driver.BaselineNew] == 0 {
		t.Errorf("bare except: gates %v findings %v", d.Gates, d.Findings)
	}
	// The same change without gates exits 0: gates are opt-in.
	if _, _, code := run(t, "diff", "--base", "main", "--isolated"); code != ExitOK {
		t.Errorf("bare except without gates: exit %d, want 0", code)
	}
	// A gate on another aspect does not trip.
	if _, _, code := run(t, "diff", "--base", "main", "--isolated", "--fail-on", "regression:DOC"); code != ExitOK {
		t.Errorf("bare except, --fail-on regression:DOC: exit %d, want 0", code)
	}

	// The case: one of two files broken while the other gains
	// docstrings. Leaving the broken file out would show +DOC.
	branch(t, dir, "broken", map[string]string{"pkg/num.py": documented, "pkg/other.py": "def other(x:\n    return x\n"})
	out, errOut, code = run(t, append([]string{"diff", "--base", "main", "--format", "json"}, gates...)...)
	d = decodeDiff(t, out)
	if code != ExitFindings || d.Valid || len(d.ImprovementPP) != 0 || !strings.Contains(errOut, "gate failed: invalid: pkg/other.py") {
		t.Fatalf("broken: exit %d, valid %v, I_p %v, stderr %q (want 1, false, none, an invalid gate)", code, d.Valid, d.ImprovementPP, errOut)
	}
	if len(d.Invalid) != 1 || d.Invalid[0].Path != "pkg/other.py" || d.Invalid[0].Version != "after" || d.Invalid[0].Status != "syntax_error" {
		t.Errorf("broken: invalid files %+v, want pkg/other.py after syntax_error", d.Invalid)
	}
	for _, f := range []string{"text", "markdown", "github"} {
		out, _, code := run(t, "diff", "--base", "main", "--isolated", "--format", f)
		// No improvement in any form: no "+N.N" cell or notice.
		if code != ExitFindings || regexp.MustCompile(`\+[0-9]+\.[0-9]`).MatchString(out) || !strings.Contains(out, "undefined") {
			t.Errorf("broken, %s: exit %d (want 1, no improvement, says undefined)\n%s", f, code, out)
		}
		if !strings.Contains(out, "pkg/other.py") {
			t.Errorf("broken, %s: does not name the broken file\n%s", f, out)
		}
	}
	// Even without gates the undefined comparison exits 1.
	if _, _, code := run(t, "diff", "--base", "main", "--isolated"); code != ExitFindings {
		t.Errorf("broken without gates: exit %d, want 1", code)
	}

	// A change touching no Python file, or only adding one, passes the
	// gates: there is no I_p, and nothing is broken.
	branch(t, dir, "nopy", map[string]string{"README": "y\n"})
	if out, errOut, code := run(t, append([]string{"diff", "--base", "main"}, gates...)...); code != ExitOK || (!strings.Contains(out, "no scored file changed") || strings.Contains(out, "ASPECT")) {
		t.Errorf("no .py change: exit %d\n%s%s", code, out, errOut)
	}
	branch(t, dir, "addonly", map[string]string{"pkg/new.py": documented})
	if out, errOut, code := run(t, append([]string{"diff", "--base", "main", "--fail-under", "DOC=0.5"}, gates...)...); code != ExitOK || !strings.Contains(out, "added:   pkg/new.py") {
		t.Errorf("only an added file: exit %d\n%s%s", code, out, errOut)
	}

	// --head reads another revision without checking it out; a rename is followed.
	git(t, dir, "checkout", "-q", "-B", "rename", "main")
	git(t, dir, "mv", "pkg/num.py", "pkg/numbers.py")
	git(t, dir, "commit", "-q", "-m", "rename")
	git(t, dir, "checkout", "-q", "main")
	out, _, code = run(t, "diff", "--base", "main", "--head", "rename", "--isolated", "--format", "json")
	d = decodeDiff(t, out)
	if code != ExitOK || d.Renamed["pkg/numbers.py"] != "pkg/num.py" || len(d.Before) != 1 || d.Before[0].Path != "pkg/numbers.py" {
		t.Errorf("rename: exit %d, renamed %v, before %+v", code, d.Renamed, d.Before)
	}
	// A revision that does not exist is a usage error.
	if _, errOut, code := run(t, "diff", "--base", "nope", "--isolated"); code != ExitUsage || !strings.Contains(errOut, `"nope"`) {
		t.Errorf("unknown base: exit %d, %q", code, errOut)
	}
}

// TestGitDiffNewCode: --new-code keeps the findings on added or changed
// lines; findings in untouched code of the same file are left out.
func TestGitDiffNewCode(t *testing.T) {
	dir := commitTree(t, map[string]string{"m.py": bareExcept})
	t.Chdir(dir)
	branch(t, dir, "feat", map[string]string{"m.py": bareExcept + "\n\ndef added(y):\n    try:\n        return y()\n    except:\n        return None\n"})
	all, _, _ := run(t, "diff", "--base", "main", "--isolated", "--format", "github")
	fresh, _, _ := run(t, "diff", "--base", "main", "--isolated", "--format", "github", "--new-code")
	if !strings.Contains(fresh, "line=15") || strings.Contains(fresh, "line=4,") {
		t.Errorf("--new-code annotations:\n%s", fresh)
	}
	if !strings.Contains(all, "line=15") {
		t.Errorf("annotations:\n%s", all)
	}
	out, _, _ := run(t, "diff", "--base", "main", "--isolated", "--format", "json", "--new-code")
	d := decodeDiff(t, out)
	if d.Findings[driver.BaselineUnchanged] != 0 || d.Findings[driver.BaselineNew] == 0 {
		t.Errorf("--new-code counts %v: want new findings only", d.Findings)
	}
}

// TestScoreDiffBase: score --diff-base scores only the changed files of
// the work tree (committed, unstaged, untracked) and applies the
// comparison gates.
func TestScoreDiffBase(t *testing.T) {
	dir := commitTree(t, map[string]string{"a.py": undocumented, "b.py": otherModule})
	t.Chdir(dir)
	git(t, dir, "checkout", "-q", "-b", "work")
	os.WriteFile(filepath.Join(dir, "a.py"), []byte(bareExcept), 0o644) // unstaged
	os.WriteFile(filepath.Join(dir, "c.py"), []byte(documented), 0o644) // untracked
	out, errOut, code := run(t, "score", "--diff-base", "main", "--isolated", "--format", "json", "--fail-on", "regression")
	var got struct {
		Files []struct{ Path string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	var paths []string
	for _, f := range got.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "a.py,c.py" {
		t.Errorf("scored %v, want a.py,c.py", paths)
	}
	if code != ExitFindings || !strings.Contains(errOut, "regression: ERR") {
		t.Errorf("exit %d, stderr %q: want the regression gate", code, errOut)
	}
	// Without --diff-base the comparison gates are usage errors.
	if _, _, code := run(t, "score", "--isolated", "--fail-on", "regression", "."); code != ExitUsage {
		t.Errorf("score --fail-on regression without a base: exit %d, want 2", code)
	}
}

// TestDiffNamesBrokenSide: with two single files, the invalid one is named
// by its own path and version (the after file was once blamed for the
// before file's error).
func TestDiffNamesBrokenSide(t *testing.T) {
	dir := writeTree(t, map[string]string{"old.py": "def f(:\n", "new.py": documented})
	for _, c := range []struct{ before, after, blamed, version string }{
		{"old.py", "new.py", "old.py", "before"},
		{"new.py", "old.py", "old.py", "after"},
	} {
		out, _, code := run(t, "diff", "--isolated", "--format", "json", filepath.Join(dir, c.before), filepath.Join(dir, c.after))
		d := decodeDiff(t, out)
		if code != ExitFindings || len(d.Invalid) != 1 || d.Invalid[0].Path != filepath.Join(dir, c.blamed) || d.Invalid[0].Version != c.version || len(d.ImprovementPP) != 0 {
			t.Errorf("%s -> %s: exit %d, invalid %+v, I_p %v", c.before, c.after, code, d.Invalid, d.ImprovementPP)
		}
		text, _, _ := run(t, "diff", "--isolated", filepath.Join(dir, c.before), filepath.Join(dir, c.after))
		if !strings.Contains(text, "invalid "+c.version+": "+filepath.Join(dir, c.blamed)+": syntax_error") {
			t.Errorf("%s -> %s: text\n%s", c.before, c.after, text)
		}
	}
}

// TestScoreDiffBaseIgnoresSubmoduleConfig: a checked-out submodule's own
// configuration runs nothing when score --diff-base (or diff --base)
// compares the work tree: its filter.*.clean, which git would run from
// `git status` inside the submodule to see whether its work tree is
// dirty, is never started. Before, the filter ran.
func TestScoreDiffBaseIgnoresSubmoduleConfig(t *testing.T) {
	sub := commitTree(t, map[string]string{"a.py": "x = 1\n", ".gitattributes": "*.py filter=evil\n"})
	dir := commitTree(t, map[string]string{"pkg/num.py": documented})
	git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor")
	git(t, dir, "commit", "-q", "-m", "submodule")
	marker := filepath.Join(t.TempDir(), "ran")
	// The submodule's own configuration (.git/modules/vendor/config).
	git(t, filepath.Join(dir, "vendor"), "config", "filter.evil.clean", "touch "+marker+"; cat")
	// The repository asks git to look into the submodule's work tree
	// (overriding a diff.ignoreSubmodules default), in both places.
	git(t, dir, "config", "-f", ".gitmodules", "submodule.vendor.ignore", "none")
	git(t, dir, "config", "submodule.vendor.ignore", "none")
	// Dirty the submodule's work tree, and change a file of the top.
	os.WriteFile(filepath.Join(dir, "vendor", "a.py"), []byte("x = 2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pkg", "num.py"), []byte(bareExcept), 0o644)
	// The fixture is live: git itself runs the filter from the top.
	if out, _ := gitCmdForTest(dir, "diff", "--raw", "HEAD").CombinedOutput(); len(out) == 0 {
		t.Fatal("git diff shows no change")
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("fixture: git diff did not run the submodule's filter: %v", err)
	}
	os.Remove(marker)
	t.Chdir(dir)
	for _, args := range [][]string{
		{"score", "--isolated", "--diff-base", "HEAD", "--fail-on", "regression"},
		{"score", "--isolated", "--diff-base", "HEAD", "--staged"},
		{"diff", "--isolated", "--base", "HEAD", "--new-code"},
	} {
		out, errOut, code := run(t, args...)
		if code == ExitError || code == ExitUsage {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%v: the submodule's filter.evil.clean ran", args)
		}
	}
	// The change of the top is still seen.
	if out, _, code := run(t, "score", "--isolated", "--diff-base", "HEAD", "--fail-on", "regression"); code != ExitFindings || !strings.Contains(out, "pkg/num.py") {
		t.Errorf("top's change: exit %d, want 1\n%s", code, out)
	}
}
