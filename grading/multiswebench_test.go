package grading

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

// msbInstance: TestOld passes throughout, TestNew fails with the test
// patch, TestSkipped is skipped, TestAdded is new; TestGone passes at the
// base commit only (the test patch removes it); TestSide passes with the
// test patch and is in no map.
func msbInstance() *dataset.MultiSWEBench {
	return &dataset.MultiSWEBench{
		Org: "o", Repo: "r", Number: 1,
		P2P:       map[string]dataset.MSBTest{"TestOld": {Run: "PASS", Test: "PASS", Fix: "PASS"}},
		F2P:       map[string]dataset.MSBTest{"TestNew": {Run: "NONE", Test: "FAIL", Fix: "PASS"}},
		S2P:       map[string]dataset.MSBTest{"TestSkipped": {Run: "SKIP", Test: "SKIP", Fix: "PASS"}},
		N2P:       map[string]dataset.MSBTest{"TestAdded": {Run: "NONE", Test: "NONE", Fix: "PASS"}},
		RunResult: &dataset.MSBResult{Passed: []string{"TestGone", "TestOld", "TestSide"}, Skipped: []string{"TestSkipped"}},
		TestPatchResult: &dataset.MSBResult{Passed: []string{"TestOld", "TestSide"}, Failed: []string{"TestNew"},
			Skipped: []string{"TestSkipped"}},
	}
}

func msbRun(kv ...string) []testlog.Result {
	var out []testlog.Result
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, testlog.Result{ID: kv[i], Status: testlog.Status(kv[i+1])})
	}
	return out
}

func TestGradeMultiSWEBench(t *testing.T) {
	gold := []string{"TestOld", "PASSED", "TestNew", "PASSED", "TestSkipped", "PASSED", "TestAdded", "PASSED", "TestSide", "PASSED"}
	with := func(kv ...string) []string { return append(append([]string{}, gold...), kv...) }
	for _, c := range []struct {
		name     string
		run      []string
		timedOut bool
		resolved bool
		status   Status
		reason   string
	}{
		{"gold", gold, false, true, StatusResolved, ""},
		{"f2p still failing", with("TestNew", "FAILED"), false, false, StatusUnresolved, "two statuses"},
		{"f2p failing only", []string{"TestOld", "PASSED", "TestNew", "FAILED", "TestSkipped", "PASSED", "TestAdded", "PASSED"}, false, false, StatusUnresolved, `"TestNew" (FAIL → FAIL, want FAIL → PASS)`},
		{"f2p missing", []string{"TestOld", "PASSED", "TestSkipped", "PASSED", "TestAdded", "PASSED"}, false, false, StatusUnresolved, `"TestNew" (FAIL → NONE`},
		{"s2p still skipped", []string{"TestOld", "PASSED", "TestNew", "PASSED", "TestSkipped", "SKIPPED", "TestAdded", "PASSED"}, false, false, StatusUnresolved, `"TestSkipped" (SKIP → SKIP`},
		{"p2p error", []string{"TestOld", "ERROR", "TestNew", "PASSED", "TestSkipped", "PASSED", "TestAdded", "PASSED"}, false, false, StatusUnresolved, `"TestOld" passed with the test patch and fails`},
		{"an unlisted test broken", with("TestSide", "FAILED"), false, false, StatusUnresolved, "two statuses"},
		{"an unlisted test broken alone", []string{"TestOld", "PASSED", "TestNew", "PASSED", "TestSkipped", "PASSED", "TestAdded", "PASSED", "TestSide", "FAILED"}, false, false, StatusUnresolved, `"TestSide" passed with the test patch`},
		{"anomalous", with("TestGone", "FAILED"), false, false, StatusUnresolved, "anomalous pattern"},
		{"nothing fixed", []string{"TestOld", "PASSED", "TestSide", "PASSED"}, false, false, StatusUnresolved, "no test goes from failing"},
		{"no results", nil, false, false, StatusUnresolved, "no test results"},
		{"timed out", gold, true, false, StatusTimedOut, "timeout"},
		{"xfail is not read", with("TestExtra", "XFAIL"), false, true, StatusResolved, ""},
	} {
		v := GradeMultiSWEBench(msbInstance(), msbRun(c.run...), c.timedOut)
		if v.Resolved != c.resolved || v.Status != c.status || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%s: resolved %v status %s reason %q; want %v %s containing %q", c.name, v.Resolved, v.Status, v.Reason, c.resolved, c.status, c.reason)
		}
	}
	// Without recorded runs the transition maps give the statuses.
	m := msbInstance()
	m.RunResult, m.TestPatchResult = nil, nil
	if v := GradeMultiSWEBench(m, msbRun(gold...), false); !v.Resolved {
		t.Errorf("no recorded runs, gold: %s %s", v.Status, v.Reason)
	}
	if v := GradeMultiSWEBench(m, msbRun("TestOld", "PASSED", "TestNew", "FAILED", "TestSkipped", "PASSED", "TestAdded", "PASSED"), false); v.Resolved {
		t.Error("no recorded runs, f2p failing: resolved")
	}
	v := GradeMultiSWEBench(msbInstance(), msbRun(gold...), false)
	if strings.Join(v.FailToPass.Success, ",") != "TestNew,TestSkipped,TestAdded" || strings.Join(v.PassToPass.Success, ",") != "TestOld" {
		t.Errorf("lists %+v %+v", v.FailToPass, v.PassToPass)
	}
	if mode, err := ParseMode("multi-swe-bench"); err != nil || mode != ModeMultiSWEBench {
		t.Errorf("ParseMode(multi-swe-bench) = %q, %v", mode, err)
	}
	vs := Verdicts{Strict: Verdict{Status: StatusUnresolved}}
	if vs.Get(ModeMultiSWEBench).Status != StatusUnresolved {
		t.Error("Get(multi-swe-bench) without its verdict is not the strict one")
	}
	vs.MultiSWEBench = &Verdict{Resolved: true, Status: StatusResolved}
	if !vs.Get(ModeMultiSWEBench).Resolved || !vs.Differ() {
		t.Error("Get/Differ ignore the multi-swe-bench verdict")
	}
}
