package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestScoreDiffBaseStaged: --staged compares the index, not the work
// tree: an unstaged edit and an untracked broken file are left out, a
// staged regression is seen.
func TestScoreDiffBaseStaged(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": documented})
	t.Chdir(dir)
	if err := os.WriteFile("pkg/num.py", []byte(bareExcept), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "pkg/num.py")
	// Unstaged on top: the docstrings back; untracked: a broken file.
	os.WriteFile("pkg/num.py", []byte(documented), 0o644)
	os.WriteFile("pkg/scratch.py", []byte("def scratch(:\n"), 0o644)

	out, errOut, code := run(t, "score", "--isolated", "--diff-base", "HEAD", "--staged", "--fail-on", "regression,invalid", "--format", "json")
	if code != ExitFindings || !strings.Contains(out, `"regression: ERR I_p -`) || strings.Contains(out, "scratch.py") {
		t.Errorf("--staged: exit %d\n%s\n%s", code, out, errOut)
	}
	// The work tree: the unstaged docstrings and the untracked broken file.
	out, _, code = run(t, "score", "--isolated", "--diff-base", "HEAD", "--fail-on", "regression,invalid", "--format", "json")
	if code != ExitFindings || !strings.Contains(out, "scratch.py") || strings.Contains(out, `"regression: ERR`) {
		t.Errorf("work tree: exit %d\n%s", code, out)
	}
	if _, _, code := run(t, "score", "--staged", "pkg"); code != ExitUsage {
		t.Errorf("--staged without --diff-base: exit %d, want 2", code)
	}
}

// preCommit returns the command that runs the pre-commit framework
// (requirements-dev.txt installs it); it fails under CI=true and skips
// elsewhere when missing.
func preCommit(t *testing.T) []string {
	t.Helper()
	if p, err := exec.LookPath("pre-commit"); err == nil {
		return []string{p}
	}
	if exec.Command("python3", "-m", "pre_commit", "--version").Run() == nil {
		return []string{"python3", "-m", "pre_commit"}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("pre-commit is required (pip install -r requirements-dev.txt)")
	}
	t.Skip("pre-commit is not installed (pip install -r requirements-dev.txt)")
	return nil
}

// TestPreCommitHooks runs the hooks of .pre-commit-hooks.yaml with the
// real pre-commit framework, installed as the git hook of a repository
// made here: a commit that adds a bare except is refused (the regression
// gate), one that breaks a file is refused by both hooks, one that adds
// docstrings goes through while an untracked broken file lies in the work
// tree (the hook looks at the staged change only). The -system hooks run
// the polynfi on PATH; the golang hooks, which pre-commit builds from the
// repository, run the same entries (checked here).
func TestPreCommitHooks(t *testing.T) {
	pc := preCommit(t)
	repoRoot, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language string
	}
	if err := yaml.Unmarshal(manifest, &hooks); err != nil {
		t.Fatal(err)
	}
	entries := map[string]string{}
	for _, h := range hooks {
		entries[h.ID] = h.Entry
	}
	for _, id := range []string{"polynfi", "polynfi-score"} {
		if entries[id] == "" || entries[id] != entries[id+"-system"] {
			t.Errorf("hook %s: entry %q, its -system twin %q", id, entries[id], entries[id+"-system"])
		}
	}

	bin := buildStamped(t)
	// The hook repository: the manifest alone, committed.
	hookRepo := commitTree(t, map[string]string{".pre-commit-hooks.yaml": string(manifest)})
	rev := strings.TrimSpace(git(t, hookRepo, "rev-parse", "HEAD"))
	cfg := "repos:\n  - repo: " + hookRepo + "\n    rev: " + rev + "\n    hooks:\n      - id: polynfi-system\n      - id: polynfi-score-system\n"
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented, ".pre-commit-config.yaml": cfg})

	home := t.TempDir()
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PRE_COMMIT_HOME="+filepath.Join(home, "pre-commit"), "HOME="+home,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	runIn := func(name string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		var o bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &o
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return o.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), 0
	}
	if out, code := runIn(pc[0], append(pc[1:], "install")...); code != 0 {
		t.Fatalf("pre-commit install: exit %d\n%s", code, out)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	head := func() string { return strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")) }
	start := head()

	// A bare except: refused by the regression gate.
	write("pkg/num.py", bareExcept)
	git(t, dir, "add", "pkg/num.py")
	out, code := runIn("git", "commit", "-q", "-m", "bare except")
	if code == 0 || head() != start || !regexp.MustCompile(`polynfi \(non-functional quality of the staged change\)\.+Failed`).MatchString(out) ||
		!strings.Contains(out, "gate failed: regression: ERR I_p -") {
		t.Fatalf("bare except: exit %d\n%s", code, out)
	}
	git(t, dir, "reset", "-q", "--hard", start)

	// A file that does not parse: both hooks refuse it.
	write("pkg/broken.py", "def broken(x:\n")
	git(t, dir, "add", "pkg/broken.py")
	out, code = runIn("git", "commit", "-q", "-m", "broken")
	if code == 0 || head() != start || strings.Count(out, "Failed") != 2 || !strings.Contains(out, "pkg/broken.py (syntax_error) cannot be scored") {
		t.Fatalf("broken file: exit %d\n%s", code, out)
	}
	git(t, dir, "reset", "-q", "--hard", start)
	os.Remove(filepath.Join(dir, "pkg/broken.py"))

	// Docstrings, with an untracked broken file in the work tree: passes.
	write("pkg/num.py", documented)
	git(t, dir, "add", "pkg/num.py")
	write("pkg/scratch.py", "def scratch(:\n")
	out, code = runIn("git", "commit", "-q", "-m", "docstrings")
	if code != 0 || head() == start || strings.Count(out, "Passed") != 2 {
		t.Fatalf("docstrings: exit %d\n%s", code, out)
	}
}
