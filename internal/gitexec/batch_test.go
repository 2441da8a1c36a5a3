package gitexec

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// batchRepo is a repository with one commit: a.txt ("hello\n") and
// big.txt (1000 bytes), and a hook, filter and fsmonitor that would touch
// canary if git ran them.
func batchRepo(t *testing.T) (dir, canary string) {
	t.Helper()
	dir, canary = t.TempDir(), filepath.Join(t.TempDir(), "ran")
	ctx := context.Background()
	for _, args := range [][]string{{"init", "-q"}} {
		if out, err := Combined(ctx, dir, nil, args...); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("x", 1000)), 0o644)
	for _, args := range [][]string{{"add", "a.txt", "big.txt"}, {"commit", "-qm", "base"}} {
		if out, err := Combined(ctx, dir, nil, args...); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	cfg := exec.Command("git", "config", "core.fsmonitor", "touch "+canary+"; false")
	cfg.Dir = dir
	if out, err := cfg.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	return dir, canary
}

// TestBatchReadsObjects: one cat-file process answers a blob by
// REV:PATH (content and size), a commit by REV^{commit} without its
// content, a missing path and a name with a line break as not found
// (the process still answers after them), and a blob over the limit by
// its size alone; HasCommit tells a commit from a blob and a missing
// object; the repository's fsmonitor never runs.
func TestBatchReadsObjects(t *testing.T) {
	dir, canary := batchRepo(t)
	b, err := NewBatch(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	o, ok, err := b.Read("HEAD:a.txt", true, 0)
	if err != nil || !ok || o.Type != "blob" || o.Size != 6 || string(o.Data) != "hello\n" || len(o.ID) < 40 {
		t.Errorf("HEAD:a.txt = %+v, %v, %v", o, ok, err)
	}
	if o, ok, err := b.Read("HEAD^{commit}", false, 0); err != nil || !ok || o.Type != "commit" || o.Data != nil || o.Size == 0 {
		t.Errorf("HEAD^{commit} = %+v, %v, %v", o, ok, err)
	}
	for _, name := range []string{"HEAD:nosuch.txt", "HEAD:a.txt\nHEAD:big.txt", "0000000000000000000000000000000000000001"} {
		if _, ok, err := b.Read(name, true, 0); err != nil || ok {
			t.Errorf("%q: ok %v, err %v; want not found", name, ok, err)
		}
	}
	if o, ok, err := b.Read("HEAD:big.txt", true, 100); err != nil || !ok || o.Data != nil || o.Size != 1000 {
		t.Errorf("HEAD:big.txt over the limit = %+v, %v, %v", o, ok, err)
	}
	if o, ok, err := b.Read("HEAD:big.txt", true, 0); err != nil || !ok || len(o.Data) != 1000 {
		t.Errorf("HEAD:big.txt = %d bytes, %v, %v", len(o.Data), ok, err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	for rev, want := range map[string]bool{"HEAD": true, "HEAD:a.txt": false, "0000000000000000000000000000000000000001": false} {
		if got, err := HasCommit(context.Background(), dir, rev); err != nil || got != want {
			t.Errorf("HasCommit(%s) = %v, %v; want %v", rev, got, err, want)
		}
	}
	if _, err := os.Stat(canary); err == nil {
		t.Error("the repository's fsmonitor ran")
	}
}

// TestShellFuncRunsGitAsCommandDoes: the g of ShellFunc(true), run by a
// shell whose environment names another identity, a global configuration
// and a pager, commits as polynfi with the fixed date, reads the
// overrides (hooks path /dev/null), and never runs the repository's
// fsmonitor; ShellFunc(false) defines the same git without env -i.
func TestShellFuncRunsGitAsCommandDoes(t *testing.T) {
	dir, canary := batchRepo(t)
	if strings.Contains(ShellFunc(false), "env -i") || !strings.Contains(ShellFunc(true), "env -i") {
		t.Fatalf("ShellFunc(false) = %q", ShellFunc(false))
	}
	script := ShellFunc(true) + `g config --get core.hooksPath && echo x >> a.txt && g commit -qam two && g log -1 --format='%an %ae %ad' --date=iso-strict`
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GIT_AUTHOR_NAME=someone", "GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "a.txt"), "GIT_PAGER=false"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), "/dev/null\npolynfi polynfi@localhost 2000-01-01T00:00:00+00:00"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Error("the repository's fsmonitor ran")
	}
}
