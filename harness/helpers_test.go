package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/testlog"
)

// fixedGitEnv makes commit ids deterministic.
var fixedGitEnv = []string{
	"GIT_AUTHOR_NAME=Fixture", "GIT_AUTHOR_EMAIL=fixture@example.com", "GIT_AUTHOR_DATE=2024-01-01T00:00:00Z",
	"GIT_COMMITTER_NAME=Fixture", "GIT_COMMITTER_EMAIL=fixture@example.com", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z",
	"GIT_CONFIG_NOSYSTEM=1", "HOME=/nonexistent",
}

func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), fixedGitEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// makeRepo creates a git repository at dir with files committed as one
// commit and returns the commit id.
func makeRepo(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "git", "init", "--quiet", "--initial-branch=main")
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(c, "symlink:") {
			if err := os.Symlink(strings.TrimPrefix(c, "symlink:"), full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, dir, "git", "add", "--all")
	run(t, dir, "git", "commit", "--quiet", "-m", "base")
	return run(t, dir, "git", "rev-parse", "HEAD")
}

// diffOf returns the git diff that turns files (at base, in a scratch copy
// of repo) into the changed versions; a "" content deletes the file.
func diffOf(t testing.TB, repo string, changes map[string]string) string {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "c")
	run(t, filepath.Dir(tmp), "git", "clone", "--quiet", repo, tmp)
	for p, c := range changes {
		full := filepath.Join(tmp, p)
		if c == "" {
			os.Remove(full)
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, tmp, "git", "add", "--all")
	return run(t, tmp, "git", "diff", "--cached") + "\n"
}

// The Python fixture: add() has a bug (it subtracts); the test patch adds
// a test of add; the gold patch fixes it.
const (
	calcBase = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
	calcGold = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
	testBase = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
	testNew  = "from calc import add, mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n\n\nclass TestAdd:\n    def test_add(self):\n        assert add(2, 3) == 5\n"
)

type pyFixture struct {
	reposDir string
	repo     string // the clone
	inst     dataset.Instance
}

func newPyFixture(t testing.TB) *pyFixture {
	t.Helper()
	reposDir := t.TempDir()
	repo := filepath.Join(reposDir, "acme__calc")
	base := makeRepo(t, repo, map[string]string{
		"calc.py":            calcBase,
		"tests/test_calc.py": testBase,
		"tests/conftest.py":  "import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n",
		"escape":             "symlink:/tmp",
	})
	inst := dataset.Instance{
		InstanceID: "acme__calc-1", Repo: "acme/calc", BaseCommit: base, Language: dataset.Python, TaskCategory: "Bug Fix",
		Patch:       diffOf(t, repo, map[string]string{"calc.py": calcGold}),
		TestPatch:   diffOf(t, repo, map[string]string{"tests/test_calc.py": testNew}),
		TestCommand: "python3 -m pytest -rA -p no:cacheprovider tests/test_calc.py",
		FailToPass:  []string{"tests/test_calc.py::TestAdd::test_add"},
		PassToPass:  []string{"tests/test_calc.py::test_mul"},
	}
	return &pyFixture{reposDir: reposDir, repo: repo, inst: inst}
}

func newHarness(t testing.TB, reposDir string, mode grading.Mode) (*Harness, *Store) {
	t.Helper()
	store, err := OpenStore(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	t.Cleanup(func() { local.Close() })
	h := &Harness{
		Repos:      clones.New(reposDir, filepath.Join(store.Dir, ".repos")),
		Runtime:    local,
		ScratchDir: store.ScratchDir(),
		NativeMode: mode,
		RunID:      "test",
	}
	return h, store
}

// res builds results from id, status pairs.
func res(pairs ...string) []testlog.Result {
	var out []testlog.Result
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, testlog.Result{ID: pairs[i], Status: testlog.Status(pairs[i+1])})
	}
	return out
}
