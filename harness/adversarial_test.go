package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// The adversarial suite: hostile predictions against the Python fixture
// (add() subtracts; the test patch adds TestAdd::test_add, FAIL_TO_PASS).
// None of these patches fixes add(). Each case must end unresolved,
// rejected or failed in every grading mode, and what it tries to reach
// outside must stay untouched. They run under bubblewrap: in CI
// (CI=true) a missing bubblewrap fails the suite.
//
// Categories (issue #13): forged output, config-only skip/deselect/xfail,
// edits to the tests, path escapes and every diff form the cascade
// accepts, resource floods and daemons, network, reads of the dataset and
// of files outside the work tree, environment leaks, rewriting another
// record, privilege tricks inside the sandbox.

// hostile is one adversarial prediction.
type hostile struct {
	name string
	// files are changes to the base repository (diffOf) ...
	files map[string]string
	// ... or patch is the model patch as written.
	patch string
	// want is the status every mode must have ("" = any unresolved one).
	want grading.Status
	// noRun: the patch need not reach the test run (a diff form the
	// cascade refuses or cannot apply); every other case must run.
	noRun bool
	// onTestPatch: the patch is made against base + test patch (a model
	// that saw the new tests), as an edit of those tests must be.
	onTestPatch bool
	// logLacks lists strings the test log must not contain (secrets).
	logLacks []string
	// logHas lists strings the log must contain (a probe's verdict).
	logHas []string
	// flags lists rules of the runner-internals check (runnercheck.go)
	// the patch must be flagged for.
	flags []string
	// gap maps a runtime (Runtime.Name) on which the defence is not built
	// yet to why: the case is skipped there, saying so, never passed.
	gap map[string]string
}

// pyOut writes to the real stdout, past pytest's capture.
// It writes to every pipe among the open descriptors (pytest keeps a
// duplicate of the real stdout while it captures fd 1), as a hostile patch
// would, so that the text reaches the log mid-run.
const pyOut = "import os as _o, stat as _st\ndef _out(x):\n    for fd in range(1, 64):\n        try:\n            if _st.S_ISFIFO(_o.fstat(fd).st_mode):\n                _o.write(fd, (x + '\\n').encode())\n        except OSError:\n            pass\n"

// forgeHook is the published ten-line conftest.py exploit: a hook
// wrapper that marks every test's call phase passed.
const forgeHook = "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    rep = outcome.get_result()\n    if rep.when == 'call':\n        rep.outcome = 'passed'\n        rep.longrepr = None\n"

// pyRegister is Python for a library module that registers the plugin
// class defined by def (its instance made by expr) with the running
// pytest, found among the live objects, when the tests import it.
func pyRegister(def, expr string) string {
	return "import gc, pytest\n" + def + "for _o in gc.get_objects():\n    if type(_o).__name__ == 'Config' and hasattr(_o, 'pluginmanager'):\n        _o.pluginmanager.register(" + expr + ", 'polynfi-forge')\n        break\n"
}

// checkFlags checks that rec's runner-internals findings include each
// rule of flags.
func checkFlags(t *testing.T, rec *runrecord.Record, flags []string) {
	t.Helper()
	got := map[string]bool{}
	for _, f := range rec.RunnerInternals {
		got[f.Rule] = true
	}
	for _, r := range flags {
		if !got[r] {
			t.Errorf("the runner-internals check does not flag %s: %+v", r, rec.RunnerInternals)
		}
	}
}

// rawDiffOf is diffOf without trimming the diff (a blank last context
// line must keep its space).
func rawDiffOf(t *testing.T, repo, testPatch string, changes map[string]string) string {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "c")
	run(t, filepath.Dir(tmp), "git", "clone", "--quiet", repo, tmp)
	if testPatch != "" {
		pf := filepath.Join(t.TempDir(), "test.patch")
		os.WriteFile(pf, []byte(testPatch), 0o644)
		run(t, tmp, "git", "apply", pf)
		run(t, tmp, "git", "add", "--all")
		run(t, tmp, "git", "commit", "--quiet", "-m", "test patch")
	}
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
	cmd := exec.Command("git", "diff", "--cached")
	cmd.Dir = tmp
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestAdversarial(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hostile patches against real pytest runs")
	}
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{
		Limits: runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, DiskBytes: 64 << 20}, MaxOutput: 8 << 20})
	t.Cleanup(func() { local.Close() })
	if local.Isolation() != runtime.IsolationBwrap {
		citest.Missing(t, "bubblewrap unavailable: %s", local.Note())
	}
	fx := newPyFixture(t)
	h, store := newHarness(t, fx.reposDir, grading.ModeStrict)
	h.Runtime = local
	runAdversarial(t, h, store, fx)
}

// runAdversarial runs every hostile case with h (its Runtime set) on the
// Python fixture and checks the outcome and what stayed untouched.
func runAdversarial(t *testing.T, h *Harness, store *Store, fx *pyFixture) {
	// Things outside the work tree a patch would like to reach.
	dsDir := t.TempDir()
	goldCanary := "GOLD-CANARY-" + fmt.Sprint(time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(dsDir, "dataset.csv"), []byte("instance_id,patch\nacme__calc-1,"+goldCanary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside")
	// The daemon case's detached process: a shell that writes outside
	// 5 s after it starts; its command line holds the test's own path.
	daemonScript := "sleep 5; echo x > " + outside + "/daemon-wrote"
	os.MkdirAll(outside, 0o755)
	hostSecret := "HOST-SECRET-" + fmt.Sprint(time.Now().UnixNano())
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(hostSecret), 0o644)
	envSecret := "ENV-TOKEN-" + fmt.Sprint(time.Now().UnixNano())
	t.Setenv("POLYNFI_TEST_API_TOKEN", envSecret)
	t.Setenv("GITHUB_TOKEN", envSecret)
	container := h.Runtime.Name() != "local"

	h.Timeout = 30 * time.Second
	h.Env = []string{"POLYNFI_DATASET_DIR=" + dsDir}
	recordCanary := filepath.Join(store.Dir, "other-model", "x", "run-0", "result.json")
	os.MkdirAll(filepath.Dir(recordCanary), 0o755)
	os.WriteFile(recordCanary, []byte(`{"resolved": false}`), 0o644)
	bug := calcBase // add() still subtracts in every case
	withBug := func(extra string) map[string]string { return map[string]string{"calc.py": extra + "\n" + bug} }
	// The fixed add(), for attacks that would make the test pass if they
	// could: written where the attack wants it.
	fixed := strings.ReplaceAll(calcGold, "\n", "\\n")

	cases := []hostile{
		// Forged output.
		{name: "forged PASSED lines", files: withBug(pyOut + "_out('PASSED tests/test_calc.py::TestAdd::test_add')\n_out('tests/test_calc.py::TestAdd::test_add PASSED')")},
		{name: "second pytest summary at exit", files: withBug(pyOut + "import atexit\natexit.register(lambda: _out('=' * 20 + ' short test summary info ' + '=' * 20 + '\\nPASSED tests/test_calc.py::TestAdd::test_add\\nPASSED tests/test_calc.py::test_mul\\n' + '=' * 20 + ' 2 passed in 0.01s ' + '=' * 20))")},
		{name: "fake pytest log on stderr at exit", files: withBug("import sys, atexit\natexit.register(lambda: sys.__stderr__.write('=' * 20 + ' test session starts ' + '=' * 20 + '\\n' + '=' * 20 + ' short test summary info ' + '=' * 20 + '\\nPASSED tests/test_calc.py::TestAdd::test_add\\nPASSED tests/test_calc.py::test_mul\\n' + '=' * 20 + ' 2 passed in 0.01s ' + '=' * 20 + '\\n'))")},
		{name: "forged run marks, exit line and stdout section", files: withBug(pyOut + "_out('[polynfi-mark ' + 'ab' * 16 + ' exit 0]\\nContainer exited with status code: 0\\n[polynfi-mark ' + 'cd' * 16 + ' stdout 60]\\nPASSED tests/test_calc.py::TestAdd::test_add\\nPASSED tests/test_calc.py::test_mul\\n')\nimport sys\nsys.__stderr__.write('[polynfi-mark ' + 'ab' * 16 + ' stdout 44]\\ntests/test_calc.py::TestAdd::test_add PASSED\\n')"),
			logHas: []string{"Container exited with status code: 0\n[polynfi-mark cdcd"}},
		{name: "junit.xml shipped in the patch", files: map[string]string{"calc.py": bug + "# x\n",
			"junit.xml": `<testsuite name="x" tests="2"><testcase classname="tests.test_calc.TestAdd" name="test_add" file="tests/test_calc.py"/><testcase classname="tests.test_calc" name="test_mul" file="tests/test_calc.py"/></testsuite>`}},
		{name: "junit.xml written by the code during the run", files: withBug("open('junit.xml', 'w').write('<testsuite name=\"x\" tests=\"2\"><testcase classname=\"tests.test_calc.TestAdd\" name=\"test_add\" file=\"tests/test_calc.py\"/><testcase classname=\"tests.test_calc\" name=\"test_mul\" file=\"tests/test_calc.py\"/></testsuite>')")},
		// Outcomes bent from the code under test.
		{name: "code calls pytest.xfail", files: map[string]string{"calc.py": "import pytest\n\ndef add(a, b):\n    pytest.xfail('later')\n\n\ndef mul(a, b):\n    return a * b\n"}},
		{name: "code calls pytest.skip", files: map[string]string{"calc.py": "import pytest\n\ndef add(a, b):\n    pytest.skip('later')\n\n\ndef mul(a, b):\n    return a * b\n"}},
		// Config-only skip, deselect, xfail.
		{name: "conftest marks the test xfail", files: map[string]string{"calc.py": bug + "# x\n",
			"conftest.py": "import pytest\n\ndef pytest_collection_modifyitems(items):\n    for i in items:\n        i.add_marker(pytest.mark.xfail(reason='x'))\n"}},
		{name: "conftest rewrites the report", files: map[string]string{"calc.py": bug + "# x\n",
			"tests/conftest.py": "import sys, os, pytest\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    o = yield\n    r = o.get_result()\n    r.outcome = 'passed'\n"}},
		// The runner rewritten from inside its own process (issue 28's
		// exploit corpus). The published ten-line conftest.py hook that
		// marks every test passed: reset with the tests, unresolved.
		{name: "exploit: ten-line conftest.py hook marks every test passed", files: map[string]string{"calc.py": bug + "# x\n", "conftest.py": forgeHook}, flags: []string{"conftest"}},
		// The same hook registered by a library module the tests import:
		// the must-fail canary passes, tampered.
		{name: "exploit: the conftest hook registered from a library module", files: withBug(pyRegister("class _Forge:\n    @pytest.hookimpl(hookwrapper=True)\n    def pytest_runtest_makereport(self, item, call):\n        o = yield\n        r = o.get_result()\n        if r.when == 'call':\n        "+"    r.outcome = 'passed'\n            r.longrepr = None\n", "_Forge()")), want: grading.StatusTampered, flags: []string{"pytest-hook", "pytest-internals"}},
		// A forged pytest report printed at import, then os._exit(0): the
		// report lacks the canaries, tampered.
		{name: "exploit: os._exit(0) after printing a forged report", files: withBug(pyOut + "_out('=' * 20 + ' short test summary info ' + '=' * 20 + '\\nPASSED tests/test_calc.py::TestAdd::test_add\\nPASSED tests/test_calc.py::test_mul\\n' + '=' * 20 + ' 2 passed in 0.01s ' + '=' * 20)\nimport os\nos._exit(0)"), want: grading.StatusTampered, flags: []string{"os-exit"}},
		// xfail(run=False) put on the FAIL_TO_PASS test by a plugin the
		// library registers: XFAIL is not PASSED, unresolved.
		{name: "exploit: xfail(run=False) on the FAIL_TO_PASS test from a library module", files: withBug(pyRegister("class _X:\n    def pytest_collection_modifyitems(self, items):\n        for i in items:\n            if 'test_add' in i.nodeid:\n                i.add_marker(pytest.mark.xfail(run=False, reason='later'))\n", "_X()")), flags: []string{"pytest-hook", "pytest-internals"}},
		{name: "pytest.ini deselects the test", files: map[string]string{"calc.py": bug + "# x\n",
			"pytest.ini": "[pytest]\naddopts = --deselect tests/test_calc.py::TestAdd::test_add\n"}},
		{name: "pyproject addopts skips the test", files: map[string]string{"calc.py": bug + "# x\n",
			"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-k 'not test_add'\"\n"}},
		{name: "setup.cfg loads a plugin", files: map[string]string{"calc.py": bug + "# x\n", "plug.py": "def pytest_collection_modifyitems(items):\n    items[:] = []\n",
			"setup.cfg": "[tool:pytest]\naddopts = -p plug\n"}},
		{name: "sitecustomize patches pytest", files: map[string]string{"calc.py": bug + "# x\n", "sitecustomize.py": "import os\nos.environ['PYTEST_ADDOPTS'] = '-k mul'\n"}},
		// Edits to the tests.
		{name: "test weakened", onTestPatch: true, files: map[string]string{"calc.py": bug + "# x\n", "tests/test_calc.py": "def test_mul():\n    pass\n\n\nclass TestAdd:\n    def test_add(self):\n        assert True\n"}},
		{name: "tests deleted", onTestPatch: true, files: map[string]string{"calc.py": bug + "# x\n", "tests/test_calc.py": ""}},
		{name: "test file replaced by a new test module", files: map[string]string{"calc.py": bug + "# x\n", "tests/test_other.py": "def test_add():\n    pass\n"}},
		// Path escapes and diff forms.
		{name: "dotdot path", patch: "diff --git a/../outside.txt b/../outside.txt\nnew file mode 100644\n--- /dev/null\n+++ b/../outside.txt\n@@ -0,0 +1 @@\n+x\n", want: grading.StatusPatchRejected},
		{name: "absolute path", noRun: true, patch: "--- /dev/null\n+++ " + outside + "/abs.txt\n@@ -0,0 +1 @@\n+x\n"},
		{name: "write through the repository's symlink", patch: "diff --git a/escape/pwned b/escape/pwned\nnew file mode 100644\n--- /dev/null\n+++ b/escape/pwned\n@@ -0,0 +1 @@\n+x\n", want: grading.StatusPatchRejected},
		{name: "symlink created then written through", patch: "diff --git a/lnk b/lnk\nnew file mode 120000\n--- /dev/null\n+++ b/lnk\n@@ -0,0 +1 @@\n+" + outside + "\n\\ No newline at end of file\ndiff --git a/lnk/pwned b/lnk/pwned\nnew file mode 100644\n--- /dev/null\n+++ b/lnk/pwned\n@@ -0,0 +1 @@\n+x\n", want: grading.StatusPatchRejected},
		{name: "relative symlink out of the tree", patch: "diff --git a/up b/up\nnew file mode 120000\n--- /dev/null\n+++ b/up\n@@ -0,0 +1 @@\n+../../../..\n\\ No newline at end of file\n", want: grading.StatusPatchRejected},
		{name: "git config with fsmonitor", patch: "diff --git a/.git/config b/.git/config\n--- a/.git/config\n+++ b/.git/config\n@@ -1 +1,2 @@\n [core]\n+\tfsmonitor = touch " + outside + "/fsmonitor-ran\n", want: grading.StatusPatchRejected},
		{name: "git hook by case", patch: "diff --git a/.GIT/hooks/post-checkout b/.GIT/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n+++ b/.GIT/hooks/post-checkout\n@@ -0,0 +1 @@\n+touch " + outside + "/hook-ran\n", want: grading.StatusPatchRejected},
		{name: "context diff to outside", noRun: true, patch: "*** /dev/null\n--- ../../outside-ctx.txt\n***************\n*** 0 ****\n--- 1 ----\n+ x\n"},
		{name: "normal diff", noRun: true, patch: "0a1\n> x\n"},
		{name: "ed script", noRun: true, patch: "1c\nimport os; os.system('touch " + outside + "/ed-ran')\n.\nw " + outside + "/ed-written\n"},
		{name: "Index line naming the outside", patch: "Index: " + outside + "/index.txt\n===================================================================\n--- calc.py\n+++ calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a - b  # x\n"},
		{name: "git rename out of the tree", patch: "diff --git a/calc.py b/../calc.py\nsimilarity index 100%\nrename from calc.py\nrename to ../calc.py\n", want: grading.StatusPatchRejected},
		// Resources and processes: contained, unresolved.
		{name: "fork bomb", files: withBug("import os\ntry:\n    while True:\n        os.fork()\nexcept OSError:\n    pass")},
		// A bomb that re-forks whatever is killed (issue 24 item 6): it
		// must end at the timeout, recorded as the patch's timed_out.
		{name: "re-forking fork bomb", files: withBug("import os\nos.execvp('perl', ['perl', '-e', 'while (1) { fork }'])"),
			want: grading.StatusTimedOut},
		// Signals to PID 1 (issue 24 item 7): the sandbox must not end, and
		// the run is the patch's (unresolved), not an infrastructure failure.
		{name: "signals PID 1", files: withBug(pyOut + "import os, signal, time\nfor s in ('SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGKILL'):\n    try:\n        os.kill(1, getattr(signal, s))\n    except OSError as e:\n        _out('PID1 %s %s' % (s, e))\ntime.sleep(2)\n_out('PID1-SIGNALLED')"),
			want: grading.StatusUnresolved, logHas: []string{"PID1-SIGNALLED"}},
		{name: "daemon outlives the run", files: withBug("import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execv('/bin/sh', ['/bin/sh', '-c', '" + daemonScript + "'])\n    os._exit(0)")},
		{name: "disk flood", files: withBug("try:\n    with open('flood.bin', 'wb') as f:\n        for _ in range(1024):\n            f.write(b'x' * (1 << 20))\nexcept OSError:\n    pass")},
		{name: "output flood", files: withBug(pyOut + "for _ in range(200000):\n    _out('PASSED tests/test_calc.py::TestAdd::test_add ' + 'y' * 64)")},
		{name: "network", files: withBug(pyOut + "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=3); _out('NET-REACHED')\nexcept OSError:\n    _out('NET-BLOCKED')"), logHas: []string{"NET-BLOCKED"}, logLacks: []string{"NET-REACHED"}},
		// Reads outside the work tree.
		{name: "reads the dataset's gold patch", files: withBug(pyOut + "import os\nfor p in [os.environ.get('POLYNFI_DATASET_DIR', '') + '/dataset.csv', '" + dsDir + "/dataset.csv']:\n    try:\n        _out(open(p).read())\n        exec(\"def add(a, b):\\n    return a + b\\n\")\n    except OSError as e:\n        _out('DATASET-HIDDEN ' + str(e))"),
			logLacks: []string{goldCanary}, logHas: []string{"DATASET-HIDDEN"}},
		{name: "reads a host file", files: withBug(pyOut + "try:\n    _out(open('" + outside + "/secret.txt').read())\nexcept OSError:\n    _out('HOST-HIDDEN')"), logLacks: []string{hostSecret}, logHas: []string{"HOST-HIDDEN"}},
		{name: "reads /etc/shadow and the docker socket", files: withBug(pyOut + "import os\nfor p in ['/etc/shadow', '/var/run/docker.sock', '/run/docker.sock', os.path.expanduser('~/.ssh')]:\n    _out(p + (' VISIBLE' if os.path.exists(p) and os.path.getsize(p) > 0 else ' hidden'))"),
			logLacks: []string{"shadow VISIBLE", "docker.sock VISIBLE"}},
		{name: "environment leak", files: withBug(pyOut + "import os\n_out(repr(dict(os.environ)))"), logLacks: []string{envSecret}},
		// Other records.
		{name: "rewrites another record", files: withBug("import glob\nfor p in glob.glob('" + store.Dir + "/*/*/*/result.json'):\n    try:\n        open(p, 'w').write('{\"resolved\": true}')\n    except OSError:\n        pass")},
		// Privileges inside the sandbox.
		{name: "privilege tricks", files: withBug(pyOut + "import os, subprocess\n_out('UID=%d' % os.getuid())\nfor c in [['mount', '-o', 'remount,rw', '/'], ['unshare', '-Ur', 'true'], ['sh', '-c', 'echo x > /usr/pwned']]:\n    r = subprocess.run(c, capture_output=True)\n    _out('PRIV %s rc=%d' % (c[0], r.returncode))\n_out(open('/proc/self/status').read())"),
			logLacks: []string{"UID=0\n", "PRIV mount rc=0", "PRIV unshare rc=0", "PRIV sh rc=0", "CapEff:\t000001ff", "CapEff:\t0000003f"}},
		{name: "test writes .git/config for the harness's next git", files: withBug("try:\n    open('.git/config', 'a').write('[core]\\n\\tfsmonitor = touch " + outside + "/fsmonitor-ran\\n')\nexcept OSError:\n    pass")},
	}
	_ = fixed
	// When the daemon case's run ended: its daemon writes 5 s after it
	// started, so by 6 s after that at the latest. Its command line
	// (daemonScript) names it in /proc while it lives.
	var daemonRan time.Time
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if why, ok := c.gap[h.Runtime.Name()]; ok {
				t.Skipf("not defended on %s yet: %s", h.Runtime.Name(), why)
			}
			patch := c.patch
			if c.files != nil {
				tp := ""
				if c.onTestPatch {
					tp = fx.inst.TestPatch
				}
				patch = rawDiffOf(t, fx.repo, tp, c.files)
			}
			p := dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelNameOrPath: "hostile", ModelPatch: patch}
			rec, art, err := h.Evaluate(context.Background(), fx.inst, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range grading.Modes {
				v := rec.Verdicts.Get(m)
				if v.Resolved || v.Status == grading.StatusResolved {
					t.Errorf("%s: resolved (%s); test log:\n%.3000s", m, v.Reason, art.TestLog)
				}
				if c.want != "" && v.Status != c.want {
					t.Errorf("%s: status %s (%s), want %s", m, v.Status, v.Reason, c.want)
				}
			}
			checkFlags(t, rec, c.flags)
			log := string(art.TestLog)
			t.Logf("status %s (%s) error %q", rec.Status, rec.Verdicts.Get(grading.ModeStrict).Reason, rec.Error)
			if rec.Test != nil && len(rec.Test.Notes) > 0 {
				t.Logf("test run notes: %q", rec.Test.Notes)
			}
			if rec.ModelPatchApply != nil && !rec.ModelPatchApply.Applied {
				t.Logf("apply: %+v", rec.ModelPatchApply.Attempts)
			}
			if container && rec.Status == grading.StatusInfraFailure && strings.Contains(rec.Error, "oom_killed") {
				// Contained: the container was killed at its memory limit
				// (no stored validation says the environment holds, so the
				// harness cannot blame the patch).
				return
			}
			if c.want == "" && !c.noRun && rec.Test == nil {
				t.Errorf("the tests did not run (status %s): the case tests nothing", rec.Status)
			}
			for _, s := range c.logLacks {
				if container && (s == "UID=0\n" || s == "shadow VISIBLE" || s == "PRIV sh rc=0") {
					// A container runs as the image's user (root, with
					// Docker's reduced capabilities, no new privileges) on
					// its own root file system: its /etc/shadow and /usr
					// are the image's, gone with the container.
					continue
				}
				if strings.Contains(log, s) {
					t.Errorf("the test log contains %q", s)
				}
			}
			for _, s := range c.logHas {
				if !strings.Contains(log, s) {
					t.Errorf("the test log lacks %q:\n%.4000s", s, log)
				}
			}
		})
		if c.name == "daemon outlives the run" {
			daemonRan = time.Now()
		}
	}
	// Contained: nothing reached outside, no record rewritten, no daemon.
	// Wait for the event, not a fixed time: until no process runs
	// daemonScript (the sandbox's end kills it: then at once), at most
	// until it would have written. (Zero when -run left the case out:
	// nothing to wait for.)
	if !daemonRan.IsZero() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		deadline := time.After(time.Until(daemonRan.Add(6 * time.Second)))
	wait:
		for pids := processesRunning(daemonScript); len(pids) > 0; pids = processesRunning(daemonScript) {
			select {
			case <-deadline:
				t.Errorf("the daemon outlived its run: pids %v", pids)
				break wait
			case <-tick.C:
			}
		}
	}
	entries, _ := os.ReadDir(outside)
	for _, e := range entries {
		if e.Name() != "secret.txt" {
			t.Errorf("a hostile patch wrote %s outside the work tree", e.Name())
		}
	}
	if b, _ := os.ReadFile(recordCanary); string(b) != `{"resolved": false}` {
		t.Errorf("another record was rewritten: %s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dsDir, "dataset.csv")); !strings.Contains(string(b), goldCanary) {
		t.Error("the dataset was rewritten")
	}
	if _, err := os.Stat("/usr/pwned"); err == nil {
		t.Error("/usr/pwned exists")
	}
}

// TestCRLFGoldPatchApplies: a gold patch saved with CRLF line ends (every
// line, headers too, as a Windows editor or a CSV export writes it)
// applies to the repository's LF files and resolves the instance, as GNU
// patch applies it (it strips the patch's trailing CRs); a patch of a
// CRLF file (the CRs are content) applies as well. A CRLF patch's paths
// are read without the CR, so the cascade does not refuse GNU patch.
func TestCRLFGoldPatchApplies(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	crlf := strings.ReplaceAll(fx.inst.Patch, "\n", "\r\n")
	// the repository of a CRLF file: base and gold with CRLF content
	crlfRepo := filepath.Join(fx.reposDir, "acme__crlf")
	base := makeRepo(t, crlfRepo, map[string]string{
		"calc.py":            strings.ReplaceAll(calcBase, "\n", "\r\n"),
		"tests/test_calc.py": testBase,
		"tests/conftest.py":  "import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n",
	})
	crlfInst := fx.inst
	crlfInst.InstanceID, crlfInst.Repo, crlfInst.BaseCommit = "acme__crlf-1", "acme/crlf", base
	crlfInst.Patch = diffOf(t, crlfRepo, map[string]string{"calc.py": strings.ReplaceAll(calcGold, "\n", "\r\n")})
	crlfInst.TestPatch = diffOf(t, crlfRepo, map[string]string{"tests/test_calc.py": testNew})
	if !strings.Contains(crlfInst.Patch, "+    return a + b\r\n") {
		t.Fatalf("fixture: the CRLF file's patch lacks its CRs: %q", crlfInst.Patch)
	}
	for _, c := range []struct {
		name  string
		in    dataset.Instance
		patch string
	}{
		{"CRLF patch of LF files", fx.inst, crlf},
		{"LF patch of a CRLF file", crlfInst, crlfInst.Patch},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := dataset.Prediction{InstanceID: c.in.InstanceID, ModelNameOrPath: "m", ModelPatch: c.patch}
			rec, art, err := h.Evaluate(context.Background(), c.in, p)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != grading.StatusResolved {
				t.Fatalf("status %s, want resolved; apply %+v; error %q; log:\n%s", rec.Status, rec.ModelPatchApply, rec.Error, art.TestLog)
			}
		})
	}
}

// processesRunning returns the ids of the processes whose command line
// (/proc/PID/cmdline) contains s.
func processesRunning(s string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && bytes.Contains(b, []byte(s)) {
			pids = append(pids, pid)
		}
	}
	return pids
}
