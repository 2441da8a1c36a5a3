package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// The history attack (issue 24 item 1): the clone of the Python fixture
// has the fix of add() in a commit after the base (a descendant of it, on
// a branch and under a tag, as in a full clone of a published
// repository), and the model patch, at import, searches every ref,
// reflog and object of the work tree's repository for a descendant of
// HEAD and checks the files it changes out of it. Whatever the runtime,
// the work tree's .git must not hold that commit: the case must end
// unresolved, and its probe must say it found nothing.

// stealFix is Python that looks for a descendant of HEAD among everything
// git keeps and checks out of it the files of HEAD it changes (tests
// excepted), then loads the new calc.py over the module being imported.
const stealFix = `import os as _o, re as _re, subprocess as _sp
def _steal():
    root = _o.path.dirname(_o.path.abspath(__file__))
    def g(*a):
        return _sp.run(('git', '-c', 'safe.directory=*') + a, cwd=root, capture_output=True, text=True)
    head = g('rev-parse', 'HEAD').stdout.strip()
    text = ''
    for a in (('rev-list', '--all', '--reflog'), ('for-each-ref', '--format=%(objectname)'), ('stash', 'list', '--format=%H'),
              ('fsck', '--unreachable', '--lost-found', '--no-reflogs'), ('cat-file', '--batch-all-objects', '--batch-check')):
        text += g(*a).stdout + '\n'
    gd = _o.path.join(root, '.git')
    for d, _, fs in _o.walk(gd):
        for f in fs:
            if d.startswith(_o.path.join(gd, 'objects')):
                continue
            try:
                text += open(_o.path.join(d, f), errors='replace').read() + '\n'
            except OSError:
                pass
    seen = set()
    for c in _re.findall(r'\b[0-9a-f]{40}\b', text):
        if c in seen or c == head:
            continue
        seen.add(c)
        if g('cat-file', '-t', c).stdout.strip() != 'commit':
            continue
        if g('merge-base', '--is-ancestor', head, c).returncode != 0:
            continue
        files = [f for f in g('diff', '--name-only', head, c).stdout.split()
                 if not f.startswith('tests/') and g('cat-file', '-e', head + ':' + f).returncode == 0]
        if files and g('checkout', c, '--', *files).returncode == 0:
            _out('FIX-STOLEN from %s %s' % (c, files))
            return True
    _out('NO-DESCENDANT among %d ids' % len(seen))
    return False
if not _o.environ.get('STOLE') and _steal():
    _o.environ['STOLE'] = '1'
    exec(open(__file__).read(), globals())
`

// addFixCommit commits the gold version of calc.py after the fixture's
// base commit, on branch "fix" and under tag "v1.0.1" of its clone (the
// clone's HEAD stays at the base), and returns the fix commit's id.
func addFixCommit(t *testing.T, fx *pyFixture) string {
	t.Helper()
	run(t, fx.repo, "git", "checkout", "--quiet", "-b", "fix")
	if err := os.WriteFile(filepath.Join(fx.repo, "calc.py"), []byte(calcGold), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, fx.repo, "git", "commit", "--quiet", "-am", "fix add")
	fix := run(t, fx.repo, "git", "rev-parse", "HEAD")
	run(t, fx.repo, "git", "tag", "v1.0.1")
	run(t, fx.repo, "git", "checkout", "--quiet", "main")
	return fix
}

// runHistoryAttack evaluates the history attack with h (its Runtime, and
// Images for a container runtime, set) on fx (with addFixCommit done).
func runHistoryAttack(t *testing.T, h *Harness, fx *pyFixture) {
	t.Helper()
	patch := rawDiffOf(t, fx.repo, "", map[string]string{"calc.py": calcBase + "\n" + pyOut + stealFix})
	p := dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelNameOrPath: "hostile", ModelPatch: patch}
	rec, art, err := h.Evaluate(context.Background(), fx.inst, p)
	if err != nil {
		t.Fatal(err)
	}
	log := string(art.TestLog)
	t.Logf("status %s (%s) error %q", rec.Status, rec.Verdicts.Get(grading.ModeStrict).Reason, rec.Error)
	for _, m := range grading.Modes {
		if v := rec.Verdicts.Get(m); v.Resolved || v.Status == grading.StatusResolved {
			t.Errorf("%s: resolved: the patch checked the fix out of the repository's history; test log:\n%.4000s", m, log)
		}
	}
	if rec.Test == nil {
		t.Fatalf("the tests did not run (status %s, %s): the case tests nothing", rec.Status, rec.Error)
	}
	if strings.Contains(log, "FIX-STOLEN") {
		t.Errorf("the fix commit is in the sandbox's repository:\n%.4000s", log)
	} else if !strings.Contains(log, "NO-DESCENDANT") {
		t.Errorf("the probe did not run:\n%.4000s", log)
	}
}

// TestAdversarialHistory is the history attack in the local runtime
// (bubblewrap).
func TestAdversarialHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hostile patch against a real pytest run")
	}
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{
		Limits: runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, DiskBytes: 64 << 20}, MaxOutput: 8 << 20})
	t.Cleanup(func() { local.Close() })
	if local.Isolation() != runtime.IsolationBwrap {
		citest.Missing(t, "bubblewrap unavailable: %s", local.Note())
	}
	fx := newPyFixture(t)
	addFixCommit(t, fx)
	h, _ := newHarness(t, fx.reposDir, grading.ModeStrict)
	h.Runtime = local
	h.Timeout = time.Minute
	runHistoryAttack(t, h, fx)
}

// TestCheckoutOneCommit checks Repos.Checkout (the build context of the
// instance images polynfi builds) on a clone with later history: the
// base commit alone, nothing that names or holds another commit.
func TestCheckoutOneCommit(t *testing.T) {
	fx := newPyFixture(t)
	fix := addFixCommit(t, fx)
	run(t, fx.repo, "git", "tag", "-a", "-m", "annotated", "v0.9", fx.inst.BaseCommit)
	repos := clones.New(fx.reposDir, t.TempDir())
	dir := filepath.Join(t.TempDir(), "repo")
	if err := repos.Checkout(context.Background(), fx.inst.Repo, fx.inst.BaseCommit[:10], dir); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "git", "rev-parse", "HEAD"); got != fx.inst.BaseCommit {
		t.Errorf("HEAD %s, want the base commit %s", got, fx.inst.BaseCommit)
	}
	if got := run(t, dir, "git", "rev-list", "--all", "--reflog"); got != fx.inst.BaseCommit {
		t.Errorf("commits reachable: %q, want the base commit alone", got)
	}
	for _, args := range [][]string{{"for-each-ref"}, {"remote"}, {"stash", "list"}} {
		if got := run(t, dir, append([]string{"git"}, args...)...); got != "" {
			t.Errorf("git %s: %q, want nothing", strings.Join(args, " "), got)
		}
	}
	objs := run(t, dir, "git", "cat-file", "--batch-all-objects", "--batch-check")
	if strings.Contains(objs, fix) || strings.Count(objs, " commit ") != 1 {
		t.Errorf("objects:\n%s\nwant one commit, not %s", objs, fix)
	}
	for _, p := range []string{"ORIG_HEAD", "FETCH_HEAD", "logs", "packed-refs", "hooks"} {
		if _, err := os.Lstat(filepath.Join(dir, ".git", p)); err == nil {
			t.Errorf(".git/%s exists", p)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "calc.py")); err != nil || string(b) != calcBase {
		t.Errorf("calc.py: %q, %v; want the base version", b, err)
	}
	tree, err := repos.TreeOf(context.Background(), fx.inst.Repo, fx.inst.BaseCommit)
	if want := run(t, dir, "git", "rev-parse", "HEAD^{tree}"); err != nil || tree != want {
		t.Errorf("TreeOf: %q, %v; want %s", tree, err, want)
	}
	if err := repos.Checkout(context.Background(), fx.inst.Repo, "0123456789abcdef", filepath.Join(t.TempDir(), "x")); err == nil {
		t.Error("a commit the clone lacks: no error")
	}
}
