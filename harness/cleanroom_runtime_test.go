package harness

import (
	"context"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// runCleanRoomCases evaluates, with the clean room on (h.CleanRoom is set
// here), four patches of the pytest fixture in h's runtime: the gold
// patch (source only: no re-run, resolved); the gold patch reading a JSON
// data file it adds beside calc.py (data is source: kept, no re-run,
// resolved: no false "tampered"); a patch whose add() fix lives in a
// hidden file calc.py executes (.calcfix.py, non-source: resolved in the
// run, not in the clean room without it: tampered in every mode); and the
// pytest hook registered from the library module (the canaries: tampered).
func runCleanRoomCases(t *testing.T, h *Harness, fx *pyFixture) {
	h.CleanRoom = true
	t.Cleanup(func() { h.CleanRoom = false })
	readsOps := "import json as _json, os as _os\n_OPS = _json.load(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'calc_ops.json')))\n\n\ndef add(a, b):\n    return a + b if _OPS['add'] == '+' else a - b\n\n\ndef mul(a, b):\n    return a * b\n"
	execFix := calcBase + "\n\nimport os as _os\nexec(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), '.calcfix.py')).read())\n"
	cases := []struct {
		name     string
		files    map[string]string
		resolved bool
		ran      bool   // the clean room re-ran the tests
		dropped  string // the one path it dropped
	}{
		{"gold", map[string]string{"calc.py": calcGold}, true, false, ""},
		{"gold reading a data file it adds", map[string]string{"calc.py": readsOps, "calc_ops.json": `{"add": "+"}`}, true, false, ""},
		{"fix hidden in a non-source file", map[string]string{"calc.py": execFix, ".calcfix.py": "def add(a, b):\n    return a + b\n"}, false, true, ".calcfix.py"},
		{"pytest hook registered from the library", map[string]string{"calc.py": calcBase + "\n" + pyRegister("class _Forge:\n    @pytest.hookimpl(hookwrapper=True)\n    def pytest_runtest_makereport(self, item, call):\n        o = yield\n        r = o.get_result()\n        if r.when == 'call':\n            r.outcome = 'passed'\n            r.longrepr = None\n", "_Forge()")}, false, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			patch := rawDiffOf(t, fx.repo, "", c.files)
			rec, art, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelNameOrPath: "cleanroom", ModelPatch: patch})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("status %s (%s); clean room %+v", rec.Status, rec.Verdicts.Strict.Reason, rec.CleanRoom)
			for _, m := range grading.Modes {
				v := rec.Verdicts.Get(m)
				if v.Resolved != c.resolved {
					t.Errorf("%s: resolved %v (%s %s), want %v; log:\n%.3000s", m, v.Resolved, v.Status, v.Reason, c.resolved, art.TestLog)
				}
				if !c.resolved && v.Status != grading.StatusTampered {
					t.Errorf("%s: status %s (%s), want tampered", m, v.Status, v.Reason)
				}
			}
			if c.ran {
				if cr := rec.CleanRoom; cr == nil || !cr.Ran || !cr.Tampered || len(cr.Dropped) != 1 || cr.Dropped[0] != c.dropped {
					t.Errorf("clean room %+v: want a re-run dropping %s that disagrees", cr, c.dropped)
				}
			} else if c.resolved {
				if cr := rec.CleanRoom; cr == nil || cr.Ran || len(cr.Dropped) != 0 {
					t.Errorf("clean room %+v: want no re-run, nothing dropped (a patch of source paths)", cr)
				}
			}
		})
	}
}

// TestCleanRoomLocal runs runCleanRoomCases in the local runtime
// (bubblewrap).
func TestCleanRoomLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest")
	}
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{
		Limits: runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, DiskBytes: 64 << 20}, MaxOutput: 8 << 20})
	t.Cleanup(func() { local.Close() })
	if local.Isolation() != runtime.IsolationBwrap {
		citest.Missing(t, "bubblewrap unavailable: %s", local.Note())
	}
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModeStrict)
	h.Runtime = local
	runCleanRoomCases(t, h, fx)
}
