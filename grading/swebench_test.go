package grading

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/swebenchoracle"
	"github.com/polynfi/polynfi/testlog"
)

// The published pytest-dev__pytest-5227 lists "[100%]", "[" and
// "[100%]------------------------------" in PASS_TO_PASS: SWE-bench's
// parse_log_pytest reads them from "PASSED [100%]" lines that inner pytest
// sessions with live logging print. pytest5227 has the shape of that
// instance (its ids, a log of a gold run in the eval script's format).
var (
	pytest5227F2P = []string{
		"testing/logging/test_reporting.py::test_log_cli_enabled_disabled[True]",
		"testing/logging/test_reporting.py::test_sections_single_new_line_after_test_outcome",
	}
	pytest5227P2P = []string{
		"[100%]", "[", "[100%]------------------------------",
		"testing/logging/test_reporting.py::test_nothing_logged",
		"testing/logging/test_reporting.py::test_messages_logged",
		"testing/logging/test_reporting.py::test_log_cli_default_level",
	}
)

func read5227(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "swebench", "pytest-5227.log"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Resolved as SWE-bench 5.0.2 resolves it, with the ids as the dataset
// spells them; the reading polynfi used before log_parser (framework
// detection, polynfi's pytest ids) leaves it unresolved.
func TestSWEBenchPytest5227(t *testing.T) {
	t.Parallel()
	log := read5227(t)
	r := ReadSWEBenchLog("parse_log_pytest", log, testlog.SWEBenchContext{InstanceID: "pytest-dev__pytest-5227"})
	if !r.Found || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("reading: %+v", r)
	}
	v := GradeSWEBenchReading(pytest5227F2P, pytest5227P2P, "", r)
	if !v.Resolved || v.Status != StatusResolved {
		t.Fatalf("verdict %+v, want resolved", v)
	}
	if diff := cmp.Diff(pytest5227P2P, v.PassToPass.Success); diff != "" {
		t.Errorf("P2P successes keep the dataset's spelling (-want +got):\n%s", diff)
	}

	// The detection reading (no log_parser).
	cands := logReadings(log, t.TempDir())
	fw, results, f2p, p2p := chooseReading(cands, pytest5227F2P, pytest5227P2P, "")
	old, _ := Grade(f2p, p2p, RunOutcome{Results: results, Framework: fw, Log: log})
	if old.SWEBench.Resolved || !strings.Contains(old.SWEBench.Reason, "[100%]") {
		t.Errorf("detection reading: %+v; this test expects it to miss [100%%]", old.SWEBench)
	}
}

// swebGradeCases are eval logs with each rule of get_logs_eval and
// get_eval_tests_report in play.
func swebGradeCases(t *testing.T) []swebenchoracle.GradeRequest {
	log5227 := string(read5227(t))
	wrap := func(body string) string {
		return "+ cd /testbed\n+ : '>>>>> Start Test Output'\n" + body + "+ : '>>>>> End Test Output'\n"
	}
	withExit := func(body string, code string) string {
		return "+ : '>>>>> Start Test Output'\n" + body + "+ SWEBENCH_TEST_EXIT_CODE=" + code + "\n+ : '>>>>> End Test Output'\n+ echo '>>>>> Test Exit Code: " + code + "'\n>>>>> Test Exit Code: " + code + "\n"
	}
	return []swebenchoracle.GradeRequest{
		{Parser: "parse_log_pytest", Log: log5227, InstanceID: "pytest-dev__pytest-5227", FailToPass: pytest5227F2P, PassToPass: pytest5227P2P},
		// The same log with the model's patch breaking one P2P test.
		{Parser: "parse_log_pytest", Log: strings.Replace(log5227, "PASSED testing/logging/test_reporting.py::test_nothing_logged", "FAILED testing/logging/test_reporting.py::test_nothing_logged - assert 0", 1),
			FailToPass: pytest5227F2P, PassToPass: pytest5227P2P},
		// CRLF line ends (Python reads the log with universal newlines).
		{Parser: "parse_log_pytest", Log: strings.ReplaceAll(log5227, "\n", "\r\n"), FailToPass: pytest5227F2P, PassToPass: pytest5227P2P},
		// No markers: the eval script never reached its tests.
		{Parser: "parse_log_pytest", Log: "PASSED a.py::t\n", FailToPass: []string{"a.py::t"}},
		// A harness failure line anywhere.
		{Parser: "parse_log_pytest", Log: wrap("PASSED a.py::t\n") + ">>>>> Tests Timed Out\n", FailToPass: []string{"a.py::t"}},
		// Exit status 1 and no failing test: the log does not describe the run.
		{Parser: "parse_log_pytest", Log: withExit("PASSED a.py::t\n", "1"), FailToPass: []string{"a.py::t"}},
		{Parser: "parse_log_pytest", Log: withExit("PASSED a.py::t\nFAILED a.py::u - x\n", "1"), FailToPass: []string{"a.py::t"}, PassToPass: []string{"a.py::u"}},
		{Parser: "parse_log_pytest", Log: withExit("PASSED a.py::t\n", "0"), FailToPass: []string{"a.py::t"}},
		// Results outside the markers only: the whole log is read.
		{Parser: "parse_log_pytest", Log: "PASSED a.py::t\n" + wrap("nothing\n"), FailToPass: []string{"a.py::t"}},
		// Nothing read, but a runner summary shows the suite ran (fail_only: resolved).
		{Parser: "parse_log_jest", Log: wrap("Tests:       3 passed, 3 total\n"), FailToPass: []string{"adds"}, EvalType: "fail_only"},
		{Parser: "parse_log_jest", Log: wrap("Tests:       0 passed, 0 total\n"), FailToPass: []string{"adds"}, EvalType: "fail_only"},
		{Parser: "parse_log_jest", Log: wrap("  ✕ adds (3 ms)\n  ✓ keeps\n"), FailToPass: []string{"adds"}, PassToPass: []string{"keeps", "gone"}, EvalType: "fail_only"},
		// Truncated parametrized ids (more "[" than "]"), agreeing and not.
		{Parser: "parse_log_pytest", Log: wrap("PASSED a.py::t[log(x-1]\nPASSED a.py::t[log(x-2]\nXFAIL a.py::u[p(1]\nFAILED a.py::u[p(2]\n"),
			FailToPass: []string{"a.py::t[log(x"}, PassToPass: []string{"a.py::u[p("}},
		// SKIPPED: a failure for F2P, maintained for P2P; an unknown status is in neither list.
		{Parser: "parse_log_pytest", Log: wrap("SKIPPED a.py::t\nSKIPPED a.py::u\nPASSEDX a.py::v\n"),
			FailToPass: []string{"a.py::t", "a.py::v"}, PassToPass: []string{"a.py::u"}},
		{Parser: "parse_log_pytest", Log: wrap("PASSEDX a.py::v\n"), FailToPass: []string{"a.py::v"}},
		// Django with its own ids; a parser that raises.
		{Parser: "parse_log_django", Log: wrap("test_a (m.T) ... ok\ntest_b (m.T) ... FAIL\nFAIL: test_b (m.T)\n"), FailToPass: []string{"test_a (m.T)"}, PassToPass: []string{"test_b (m.T)"}},
		{Parser: "parse_log_django", Log: wrap("test_a (m.T) ... ok\nFAIL:\n"), FailToPass: []string{"test_a (m.T)"}},
		// Two start markers: only the text up to the second is read.
		{Parser: "parse_log_pytest", Log: "+ : '>>>>> Start Test Output'\nPASSED a.py::t\n+ : '>>>>> Start Test Output'\nFAILED a.py::t\n+ : '>>>>> End Test Output'\n", FailToPass: []string{"a.py::t"}},
		{Parser: "parse_log_maven", Log: wrap("+ mvn test -Dtest=com.A#a\n[INFO] BUILD SUCCESS\n+ mvn test -Dtest=com.A#b\n[INFO] BUILD FAILURE\n"),
			FailToPass: []string{"com.A#a"}, PassToPass: []string{"com.A#b"}},
	}
}

// TestSWEBenchGradingOracle grades every case with polynfi and with
// SWE-bench 5.0.2's own get_logs_eval, get_eval_tests_report and
// get_eval_report, and requires the same status map, the same success and
// failure lists and the same resolved.
func TestSWEBenchGradingOracle(t *testing.T) {
	t.Parallel()
	cases := swebGradeCases(t)
	_, want := swebenchoracle.Run(t, nil, cases)
	resolved := 0
	for i, c := range cases {
		w := want[i]
		r := ReadSWEBenchLog(c.Parser, []byte(c.Log), testlog.SWEBenchContext{InstanceID: c.InstanceID})
		v := GradeSWEBenchReading(c.FailToPass, c.PassToPass, c.EvalType, r)
		if w.Error != "" {
			// SWE-bench's grading raised (its parser did): run_instance
			// then writes no report and the instance is not resolved.
			if r.Found || v.Resolved || !strings.Contains(r.Reason, "could not read the log") {
				t.Errorf("case %d: SWE-bench raised %s; polynfi: %+v", i, w.Error, r)
			}
			continue
		}
		if r.Found != w.Found {
			t.Errorf("case %d: found %v (%s), SWE-bench %v", i, r.Found, r.Reason, w.Found)
		}
		wr := w.Results
		if wr == nil {
			wr = [][2]string{}
		}
		got := [][2]string{}
		for _, x := range r.Results {
			got = append(got, [2]string{x.ID, string(x.Status)})
		}
		if diff := cmp.Diff(wr, got); diff != "" {
			t.Errorf("case %d: status map (-swebench +polynfi):\n%s", i, diff)
		}
		if w.Found {
			for _, k := range []struct {
				name string
				ts   TestsStatus
			}{{"FAIL_TO_PASS", v.FailToPass}, {"PASS_TO_PASS", v.PassToPass}} {
				ws := w.Report[k.name]
				if diff := cmp.Diff(ws["success"], k.ts.Success, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") })); diff != "" {
					t.Errorf("case %d: %s success (-swebench +polynfi):\n%s", i, k.name, diff)
				}
				if strings.Join(ws["failure"], "\x00") != strings.Join(k.ts.Failure, "\x00") {
					t.Errorf("case %d: %s failure: swebench %q, polynfi %q", i, k.name, ws["failure"], k.ts.Failure)
				}
			}
		}
		if v.Resolved != w.Resolved {
			t.Errorf("case %d: resolved %v (%s), SWE-bench %v", i, v.Resolved, v.Reason, w.Resolved)
		}
		if w.Resolved {
			resolved++
		}
	}
	if resolved == 0 || resolved == len(cases) {
		t.Errorf("%d of %d cases resolved: the cases do not exercise both outcomes", resolved, len(cases))
	}
	t.Logf("%d eval logs graded alike by polynfi and SWE-bench %s (%d resolved)", len(cases), swebenchoracle.Version, resolved)
}

// Records list the dataset's own ids: verdicts graded under polynfi's
// pytest spelling get the SWE-bench node ids back, reason included.
func TestRespellVerdicts(t *testing.T) {
	t.Parallel()
	orig := []string{"tests/t.py::TestA::test_x", "tests/t.py::test_y"}
	norm := ExpectedIDs(orig, string(testlog.Pytest), "")
	if norm[0] != "tests/t.py:TestA:test_x" || norm[1] != "tests/t.py:None:test_y" {
		t.Fatalf("normalized %q", norm)
	}
	p2pOrig := []string{"tests/t.py::test_z"}
	p2pNorm := ExpectedIDs(p2pOrig, string(testlog.Pytest), "")
	v, _ := Grade(norm, p2pNorm, RunOutcome{Results: []testlog.Result{{ID: norm[0], Status: testlog.Passed}, {ID: norm[1], Status: testlog.Failed},
		{ID: p2pNorm[0], Status: testlog.Passed}}, ExitCode: 1})
	RespellVerdicts(&v, norm, orig, p2pNorm, p2pOrig)
	for _, x := range []Verdict{v.PolyBench, v.SWEBench, v.Strict} {
		if diff := cmp.Diff(TestsStatus{Success: orig[:1], Failure: orig[1:]}, x.FailToPass); diff != "" {
			t.Errorf("F2P (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(TestsStatus{Success: p2pOrig, Failure: []string{}}, x.PassToPass); diff != "" {
			t.Errorf("P2P (-want +got):\n%s", diff)
		}
		if !strings.Contains(x.Reason, "(first: tests/t.py::test_y)") {
			t.Errorf("reason %q", x.Reason)
		}
	}
}

// An eval-script run graded in the three modes: with the row's
// log_parser, the 5227 log resolves everywhere; with a log_parser polynfi
// does not implement, the framework is detected (a note says so), the
// "[100%]" P2P ids are not read, and the verdicts still list the dataset's
// ids.
func TestGradeEvalScriptRun(t *testing.T) {
	t.Parallel()
	log := read5227(t)
	in := dataset.Instance{InstanceID: "pytest-dev__pytest-5227", Language: "Python", FailToPass: pytest5227F2P, PassToPass: pytest5227P2P,
		LogParser: "parse_log_pytest", EvalType: dataset.EvalTypePassAndFail}
	o := GradeSWEBenchLog(in, log, 0, false)
	if o.Parser != "swebench:parse_log_pytest" || len(o.Notes) != 0 || o.ExitCode == nil || *o.ExitCode != 0 {
		t.Errorf("parser %q notes %q exit %v", o.Parser, o.Notes, o.ExitCode)
	}
	for m, v := range map[Mode]Verdict{ModeSWEBench: o.Verdicts.SWEBench, ModePolyBench: o.Verdicts.PolyBench, ModeStrict: o.Verdicts.Strict} {
		if !v.Resolved {
			t.Errorf("%s: %+v", m, v)
		}
	}
	if timed := GradeSWEBenchLog(in, log, 0, true); timed.Verdicts.SWEBench.Status != StatusTimedOut {
		t.Errorf("timed out run: %+v", timed.Verdicts.SWEBench)
	}

	in.LogParser = "parse_log_calypso"
	o = GradeSWEBenchLog(in, log, 0, false)
	if o.Parser != "pytest" || len(o.Notes) != 1 || !strings.Contains(o.Notes[0], `"parse_log_calypso" is not one polynfi implements`) {
		t.Errorf("fallback: parser %q notes %q", o.Parser, o.Notes)
	}
	v := o.Verdicts.SWEBench
	if v.Resolved || !cmp.Equal(v.FailToPass.Success, pytest5227F2P) || v.PassToPass.Failure[0] != "[100%]" ||
		!containsStr(v.PassToPass.Success, "testing/logging/test_reporting.py::test_nothing_logged") {
		t.Errorf("fallback verdict %+v", v)
	}
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
