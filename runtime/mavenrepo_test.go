package runtime

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
)

// mkRepo makes dir/.m2/repository holding a file "marker" with text.
func mkRepo(t *testing.T, dir, text string) string {
	t.Helper()
	repo := filepath.Join(dir, ".m2", "repository")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "marker"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo
}

// TestMavenRepository: the passwd home's repository first (where Maven on
// the host puts it, whatever $HOME is), else $HOME's, else none.
func TestMavenRepository(t *testing.T) {
	t.Parallel()
	home, passwd, empty := t.TempDir(), t.TempDir(), t.TempDir()
	homeRepo, passwdRepo := mkRepo(t, home, "home"), mkRepo(t, passwd, "passwd")
	for _, c := range []struct{ home, passwd, want string }{
		{home, passwd, passwdRepo},
		{home, empty, homeRepo},
		{home, "", homeRepo},
		{empty, passwd, passwdRepo},
		{"", passwd, passwdRepo},
		{empty, empty, ""},
		{empty, "", ""},
		{"/", "/", ""},
	} {
		if got := MavenRepository(c.home, c.passwd); got != c.want {
			t.Errorf("MavenRepository(%q, %q) = %q, want %q", c.home, c.passwd, got, c.want)
		}
	}
}

// TestBwrapMavenRepositoryAtHome: a fresh HOME under /tmp that is not the
// passwd home and has no Maven repository; the repository filled under the
// passwd home (as `mvn` on the host fills it) is where the sandbox's Maven
// looks, $HOME/.m2/repository, read-only. Before, the sandbox showed only
// $HOME/.m2/repository and the sample's Java instances ran offline against
// an empty repository.
func TestBwrapMavenRepositoryAtHome(t *testing.T) {
	home, err := os.MkdirTemp("", "polynfi-fresh-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	t.Setenv("HOME", home)
	filled := t.TempDir()
	repo := mkRepo(t, filled, "from the passwd home")
	r := newTestLocal(t, LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	// the passwd home of whoever runs the test is not ours to fill: the
	// Local is given the repository MavenRepository would find there
	if got := MavenRepository(home, filled); got != repo {
		t.Fatalf("MavenRepository = %q, want %q", got, repo)
	}
	r.mavenRepo = repo
	res, err := r.Run(context.Background(), Command{Dir: t.TempDir(),
		Script: `cat "$HOME/.m2/repository/marker"; echo; touch "$HOME/.m2/repository/new" && echo writable`})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout); got != "from the passwd home\n" {
		t.Errorf("sandbox read %q (exit %d, stderr %s), want the marker of the repository", got, res.ExitCode, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "new")); err == nil {
		t.Error("the sandbox wrote into the Maven repository")
	}
}
