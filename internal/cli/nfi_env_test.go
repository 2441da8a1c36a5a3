package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfi"
)

// TestNFIMissingEnvironmentIsSetupError: an SWE-NFI task whose
// environment repository is missing (no repositories directory, a
// directory without it, a clone without the commit) stops eval with exit
// 3 and a message naming the task, the repository and where it was looked
// for; nothing is recorded as a failed test. With the repository there,
// the gold run passes.
func TestNFIMissingEnvironmentIsSetupError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	repo := filepath.Join(dir, "clones", "acme__calc")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	before := "def add(a, b):\n    return a + b\n"
	after := "\"\"\"Arithmetic.\"\"\"\n\n\ndef add(a: int, b: int) -> int:\n    \"\"\"Return a + b.\"\"\"\n    return a + b\n"
	for p, c := range map[string]string{"calc/ops.py": before, "calc/__init__.py": "", "tests/test_ops.py": "from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		if err := os.WriteFile(filepath.Join(repo, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	task := func(commit string) string {
		tk := dataset.NFITask{InstanceID: "acme__calc-1", Repo: "acme/calc", Description: "Document add.", Aspect: nfi.Documentation, Scope: "single",
			Files:       []dataset.NFIFile{{Path: "calc/ops.py", Before: before, After: after}},
			TestCommand: "python3 -m pytest -rA -p no:cacheprovider tests",
			Environment: &dataset.NFIEnvironment{Repo: "acme/calc", BaseCommit: commit}}
		b, _ := json.Marshal(tk)
		d := t.TempDir()
		p := filepath.Join(d, "tasks.jsonl")
		if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := task(base)
	for _, c := range []struct {
		name, ds string
		extra    []string
		want     []string
	}{
		{"no repositories directory", good, nil, []string{"acme__calc-1", "acme/calc", filepath.Join(filepath.Dir(good), "repos"), "--repos-dir"}},
		{"repository not in it", good, []string{"--repos-dir", t.TempDir()}, []string{"acme__calc-1", "acme/calc", "repository not found"}},
		{"commit not in it", task(strings.Repeat("ab", 20)), []string{"--repos-dir", filepath.Dir(repo)}, []string{"acme__calc-1", repo, "has no commit " + strings.Repeat("ab", 20)}},
	} {
		out := filepath.Join(t.TempDir(), "eval")
		code, stdout, stderr := mainCode(append([]string{"eval", "--dataset", c.ds, "--predictions", "gold", "--out", out, "--no-isolation"}, c.extra...)...)
		if code != ExitError || !strings.Contains(stderr, "set-up error") {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, code, ExitError, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: %q not in\n%s", c.name, w, stderr)
			}
		}
		if entries, _ := os.ReadDir(filepath.Join(out, "records")); len(entries) > 0 {
			t.Errorf("%s: %d records written", c.name, len(entries))
		}
	}
	if _, err := exec.LookPath("python3"); err == nil {
		if code := exec.Command("python3", "-c", "import pytest").Run(); code == nil {
			out := filepath.Join(t.TempDir(), "eval")
			stdout, _ := mainOK(t, "eval", "--dataset", good, "--predictions", "gold", "--out", out, "--no-isolation", "--repos-dir", filepath.Dir(repo))
			if !strings.Contains(stdout, "test runs by status: passed 1") {
				t.Errorf("with the repository:\n%s", stdout)
			}
		} else if os.Getenv("CI") == "true" {
			t.Fatal("pytest is missing in CI")
		}
	}
}
