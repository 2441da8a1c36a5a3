package gitexec

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfiguredProgramsNeverRun: a repository whose configuration (its
// own and an included file) names programs for fsmonitor, a clean/smudge
// filter, a textconv driver, hooks and an ssh command; every git command
// polynfi runs through gitexec (status, add, diff, checkout, commit) leaves
// the canary files uncreated.
func TestConfiguredProgramsNeverRun(t *testing.T) {
	dir := t.TempDir()
	canary := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.txt filter=evil diff=evil\n"), 0o644)
	git("add", "a.txt", ".gitattributes")
	git("commit", "-qm", "base")
	touch := func(name string) string { return "touch " + filepath.Join(canary, name) + "; cat" }
	inc := filepath.Join(t.TempDir(), "included.cfg")
	os.WriteFile(inc, []byte("[filter \"evil2\"]\n\tclean = "+touch("included-clean")+"\n"), 0o644)
	git("config", "core.fsmonitor", touch("fsmonitor"))
	git("config", "filter.evil.clean", touch("clean"))
	git("config", "filter.evil.smudge", touch("smudge"))
	git("config", "filter.evil.required", "true")
	git("config", "diff.evil.textconv", touch("textconv"))
	git("config", "core.sshCommand", touch("ssh"))
	git("config", "diff.evil.command", touch("diffcommand"))
	git("config", "include.path", inc)
	os.WriteFile(filepath.Join(dir, ".git", "hooks", "post-checkout"), []byte("#!/bin/sh\n"+touch("hook")+"\n"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-commit"), []byte("#!/bin/sh\n"+touch("hook")+"\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.md"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.txt filter=evil diff=evil\n*.md filter=evil2\n"), 0o644)

	ctx := context.Background()
	for _, args := range [][]string{
		{"status", "--porcelain"},
		{"add", "--all", "."},
		{"diff", "--cached", "--no-ext-diff"},
		{"diff", "--no-ext-diff", "HEAD", "--", "a.txt"},
		{"commit", "-qm", "x"},
		{"checkout", "-q", "HEAD~1", "--", "a.txt"},
		{"reset", "-q", "--hard", "HEAD"},
	} {
		if out, err := Output(ctx, dir, nil, args...); err != nil {
			t.Errorf("git %v: %v %s", args, err, out)
		}
	}
	entries, _ := os.ReadDir(canary)
	for _, e := range entries {
		t.Errorf("a configured program ran: %s", e.Name())
	}
}

// TestWorktreeConfigRefused: core.worktree would move git's writes out of
// the directory polynfi names; gitexec refuses the repository.
func TestWorktreeConfigRefused(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", dir, "config", "core.worktree", t.TempDir()).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	_, err := Output(context.Background(), dir, nil, "status")
	if err == nil || !strings.Contains(err.Error(), "core.worktree") {
		t.Errorf("err %v, want core.worktree refused", err)
	}
}

// TestCleanEnvironment: the caller's GIT_DIR and tokens do not reach git.
func TestCleanEnvironment(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	t.Setenv("GIT_DIR", "/nonexistent-polynfi")
	t.Setenv("GITHUB_TOKEN", "secret")
	for _, kv := range Env(t.TempDir()) {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.Contains(kv, "secret") {
			t.Errorf("leaked: %s", kv)
		}
	}
	if _, err := Output(context.Background(), dir, nil, "status"); err != nil {
		t.Errorf("status with GIT_DIR set in the caller: %v", err)
	}
}

// TestExternalDiffRefused: diff.external cannot be unset from the command
// line, so a repository naming one is refused rather than run.
func TestExternalDiffRefused(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	exec.Command("git", "-C", dir, "config", "diff.external", "touch "+filepath.Join(dir, "ran")).Run()
	if _, err := Output(context.Background(), dir, nil, "diff"); err == nil || !strings.Contains(err.Error(), "diff.external") {
		t.Errorf("err %v, want diff.external refused", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the external diff ran")
	}
}

// TestSubmoduleConfigNeverRuns: a checked-out submodule whose own
// configuration names a clean filter, with its work tree dirty: status
// and diff of the superproject through gitexec never run git inside the
// submodule's work tree (diff.ignoreSubmodules=dirty), so the filter, which
// neutralize cannot see, does not run. Plain git runs it.
func TestSubmoduleConfigNeverRuns(t *testing.T) {
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	sub, top := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(sub, "a.py"), []byte("x = 1\n"), 0o644)
	os.WriteFile(filepath.Join(sub, ".gitattributes"), []byte("*.py filter=evil\n"), 0o644)
	run(sub, "init", "-q")
	run(sub, "add", "-A")
	run(sub, "commit", "-qm", "s")
	os.WriteFile(filepath.Join(top, "m.py"), []byte("y = 1\n"), 0o644)
	run(top, "init", "-q")
	run(top, "add", "-A")
	run(top, "commit", "-qm", "t")
	run(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor")
	run(top, "commit", "-qm", "sub")
	canary := filepath.Join(t.TempDir(), "ran")
	run(filepath.Join(top, "vendor"), "config", "filter.evil.clean", "touch "+canary+"; cat")
	os.WriteFile(filepath.Join(top, "vendor", "a.py"), []byte("x = 2\n"), 0o644)
	run(top, "status", "--porcelain")
	if _, err := os.Stat(canary); err != nil {
		t.Fatalf("fixture: plain git status did not run the submodule's filter")
	}
	os.Remove(canary)
	ctx := context.Background()
	for _, args := range [][]string{{"status", "--porcelain"}, {"diff", "--raw", "HEAD"}, {"diff", "HEAD"}} {
		if _, err := Output(ctx, top, nil, args...); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(canary); err == nil {
			t.Fatalf("git %v ran the submodule's filter.evil.clean", args)
		}
	}
}
