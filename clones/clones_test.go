package clones

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir for a fixture, with a fixed identity and no user
// or system configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Fixture", "GIT_AUTHOR_EMAIL=fixture@example.com",
		"GIT_COMMITTER_NAME=Fixture", "GIT_COMMITTER_EMAIL=fixture@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// makeRepo makes a repository at dir with files in one commit and
// returns the commit's id.
func makeRepo(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "--quiet", "--initial-branch=main")
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "--all")
	git(t, dir, "commit", "--quiet", "-m", "base")
	return git(t, dir, "rev-parse", "HEAD")
}

func TestBundleRepos(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src")
	base := makeRepo(t, src, map[string]string{"x.txt": "x\n"})
	reposDir := t.TempDir()
	git(t, src, "bundle", "create", "--quiet", filepath.Join(reposDir, "acme__b.bundle"), "--all")
	cache := filepath.Join(t.TempDir(), "cache")
	for i := 0; i < 2; i++ { // the second Repos reuses (and refreshes) the cache
		r := New(reposDir, cache)
		ws, remove, err := r.Workspace(context.Background(), "acme/b", base, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(ws, "x.txt")); err != nil || string(b) != "x\n" {
			t.Errorf("workspace content %q %v", b, err)
		}
		remove()
		if _, err := os.Stat(ws); err == nil {
			t.Error("workspace not removed")
		}
	}
	if !isGitDir(filepath.Join(cache, "acme__b.git")) {
		t.Error("bundle not cached as a bare clone")
	}
	_, _, err := New(reposDir, cache).Workspace(context.Background(), "acme/none", base, t.TempDir())
	if !errors.Is(err, ErrRepoNotFound) {
		t.Errorf("missing repo: err %v", err)
	}
}

// TestWorkspaceCheckoutTree: a workspace is a work tree at the commit
// that does not write to the clone; a checkout holds that one commit and
// no other; TreeOf names the commit's tree; a base_commit the clone does
// not hold, or one that reads as an option, is an error naming the field.
func TestWorkspaceCheckoutTree(t *testing.T) {
	t.Parallel()
	reposDir := t.TempDir()
	src := filepath.Join(reposDir, "acme__w")
	first := makeRepo(t, src, map[string]string{"a.txt": "1\n"})
	if err := os.WriteFile(filepath.Join(src, "a.txt"), []byte("2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, src, "commit", "--quiet", "-am", "second")
	r := New(reposDir, t.TempDir())
	ctx := context.Background()
	ws, remove, err := r.Workspace(ctx, "acme/w", first, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "1\n" {
		t.Errorf("workspace a.txt %q, want the first commit's", b)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(src, "a.txt")); string(b) != "2\n" {
		t.Errorf("the clone changed through its workspace: %q", b)
	}
	co := filepath.Join(t.TempDir(), "co")
	if err := r.Checkout(ctx, "acme/w", first, co); err != nil {
		t.Fatal(err)
	}
	if n := git(t, co, "rev-list", "--count", "HEAD"); n != "1" {
		t.Errorf("checkout holds %s commits, want 1", n)
	}
	if head := git(t, co, "rev-parse", "HEAD"); head != first {
		t.Errorf("checkout HEAD %s, want %s", head, first)
	}
	tree, err := r.TreeOf(ctx, "acme/w", first)
	if err != nil || tree != git(t, src, "rev-parse", first+"^{tree}") {
		t.Errorf("TreeOf: %q %v", tree, err)
	}
	for _, bad := range []string{"0123456789012345678901234567890123456789", "--all"} {
		_, _, err := r.Workspace(ctx, "acme/w", bad, t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "base_commit") {
			t.Errorf("base %q: err %v, want one naming base_commit", bad, err)
		}
	}
}
