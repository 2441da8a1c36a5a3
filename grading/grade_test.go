package grading

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/testlog"
)

func res(pairs ...string) []testlog.Result {
	var out []testlog.Result
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, testlog.Result{ID: pairs[i], Status: testlog.Status(pairs[i+1])})
	}
	return out
}

// TestGrade covers every clause of spec §2.5, one row per clause; want is
// the status under polybench, swebench and strict.
func TestGrade(t *testing.T) {
	t.Parallel()
	P, F, S, E, X := "PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL"
	tests := []struct {
		name     string
		f2p, p2p []string
		run      RunOutcome
		want     [3]Status
	}{
		{"all pass", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P, "b", P)},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"F2P fails", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", F, "b", P), ExitCode: 1},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"P2P fails", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P, "b", F), ExitCode: 1},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"empty log: polybench needs a non-empty map; swebench counts missing as failed; strict infra",
			[]string{"a"}, nil, RunOutcome{ExitCode: 2},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusInfraFailure}},
		{"empty log, empty lists: unresolved everywhere (SWE-bench 5 does not read an empty log as a pass)", nil, nil, RunOutcome{},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusInfraFailure}},
		{"P2P missing from log: polybench ignores, swebench fails", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P)},
			[3]Status{StatusResolved, StatusUnresolved, StatusUnresolved}},
		{"P2P in ERROR: polybench ignores, swebench fails", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P, "b", E), ExitCode: 1},
			[3]Status{StatusResolved, StatusUnresolved, StatusUnresolved}},
		{"F2P in ERROR fails everywhere", []string{"a"}, nil, RunOutcome{Results: res("a", E), ExitCode: 1},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"F2P XFAIL: SWE-bench would pass it; hardened, it passes nowhere (a patch can call pytest.xfail)", []string{"a"}, nil, RunOutcome{Results: res("a", X)},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"F2P SKIPPED fails everywhere (SWE-bench 5: a skipped F2P test is not a resolution)", []string{"a"}, nil, RunOutcome{Results: res("a", S)},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"P2P SKIPPED: ignored by swebench and strict, not failed for polybench", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P, "b", S)},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"all passed but exit non-zero: inconsistent in every mode (hardened: a report rewritten after the runner wrote it)", []string{"a"}, nil, RunOutcome{Results: res("a", P), ExitCode: 1},
			[3]Status{StatusInconsistent, StatusInconsistent, StatusInconsistent}},
		{"an unrelated failure explains the exit status", []string{"a"}, nil, RunOutcome{Results: res("a", P, "other", F), ExitCode: 1},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"duplicate id with conflicting statuses, last PASSED: hardened, the id fails in polybench and strict (swebench is inconsistent first)", []string{"a"}, nil, RunOutcome{Results: res("a", F, "a", P), ExitCode: 1},
			[3]Status{StatusUnresolved, StatusInconsistent, StatusUnresolved}},
		{"Java P2P in ERROR: SWE-PolyBench's JUnit reader lists it failed", []string{"a"}, []string{"b"},
			RunOutcome{Results: res("a", P, "b", E), ExitCode: 1, Language: "Java", Framework: "junit"},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"Mocha hook failure in P2P: in SWE-PolyBench's failures list", []string{"a"}, []string{"b"},
			RunOutcome{Results: res("a", P, "b", E), ExitCode: 1, Language: "JavaScript", Framework: "mocha"},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"Jest suite error in P2P: not in SWE-PolyBench's lists", []string{"a"}, []string{"b"},
			RunOutcome{Results: res("a", P, "b", E), ExitCode: 1, Language: "TypeScript", Framework: "jest"},
			[3]Status{StatusResolved, StatusUnresolved, StatusUnresolved}},
		{"TAP ok # SKIP of an F2P test: SWE-PolyBench would pass it; hardened, it passes nowhere", []string{"a"}, nil,
			RunOutcome{Results: res("a", S), Language: "JavaScript", Framework: "tap"},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"TAP ok # SKIP of a P2P test still passes for polybench", []string{"a"}, []string{"b"},
			RunOutcome{Results: res("a", P, "b", S), Language: "JavaScript", Framework: "tap"},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"TAP not ok # TODO in P2P fails for polybench", []string{"a"}, []string{"b"},
			RunOutcome{Results: res("a", P, "b", X), Language: "JavaScript", Framework: "tap"},
			[3]Status{StatusUnresolved, StatusResolved, StatusResolved}},
		{"F2P XPASS: passed nowhere", []string{"a"}, nil, RunOutcome{Results: res("a", "XPASS")},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"P2P XPASS: polybench ignores it, SWE-bench never parsed it (missing)", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P, "b", "XPASS")},
			[3]Status{StatusResolved, StatusUnresolved, StatusUnresolved}},
		{"Java compilation error without test failures: SWE-PolyBench reads no test", []string{"a"}, nil,
			RunOutcome{Results: res("a", P), Language: "Java", Framework: "surefire", Log: []byte("[ERROR] COMPILATION ERROR :\n<testsuite>")},
			[3]Status{StatusUnresolved, StatusResolved, StatusResolved}},
		{"Java build failure with test failures: the reports are read", []string{"a"}, []string{"b"},
			RunOutcome{Results: res("a", P, "b", P, "c", F), ExitCode: 1, Language: "Java", Framework: "surefire",
				Log: []byte("[INFO] BUILD FAILURE\n[ERROR] There are test failures.")},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"build failure marks are ignored outside Java", []string{"a"}, nil,
			RunOutcome{Results: res("a", P), Language: "Python", Framework: "pytest", Log: []byte("BUILD FAILURE")},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"truncated parametrized F2P id: SWE-bench matches the ids it prefixes", []string{"t.py:None:test_x[log(photon"}, nil,
			RunOutcome{Results: res("t.py:None:test_x[log(photon)]", P, "t.py:None:test_x[log(photon)-2]", X)},
			[3]Status{StatusUnresolved, StatusResolved, StatusResolved}},
		{"truncated id whose matches disagree on pass-or-fail stays missing", []string{"t.py:None:test_x[a("}, nil,
			RunOutcome{Results: res("t.py:None:test_x[a(1)]", P, "t.py:None:test_x[a(2)]", F), ExitCode: 1},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"a closed bracket id is matched exactly only", []string{"t.py:None:test_x[1]"}, nil,
			RunOutcome{Results: res("t.py:None:test_x[1]-b", P)},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"duplicate P2P PASSED then FAILED: polybench sees it failed", []string{"a"}, []string{"b"}, RunOutcome{Results: res("a", P, "b", P, "b", F), ExitCode: 1},
			[3]Status{StatusUnresolved, StatusUnresolved, StatusUnresolved}},
		{"duplicate id same status is fine", []string{"a"}, nil, RunOutcome{Results: res("a", P, "a", P)},
			[3]Status{StatusResolved, StatusResolved, StatusResolved}},
		{"timeout: unresolved everywhere", []string{"a"}, nil, RunOutcome{Results: res("a", P), ExitCode: -1, TimedOut: true},
			[3]Status{StatusTimedOut, StatusTimedOut, StatusTimedOut}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, _ := Grade(tt.f2p, tt.p2p, tt.run)
			got := [3]Status{v.PolyBench.Status, v.SWEBench.Status, v.Strict.Status}
			if got != tt.want {
				t.Errorf("statuses (polybench, swebench, strict) = %v, want %v", got, tt.want)
			}
			for _, m := range Modes {
				vm := v.Get(m)
				if vm.Resolved != (vm.Status == StatusResolved) {
					t.Errorf("%s: resolved %v with status %s", m, vm.Resolved, vm.Status)
				}
				if !vm.Resolved && vm.Reason == "" {
					t.Errorf("%s: unresolved without a reason", m)
				}
			}
			wantDiffer := (tt.want[0] == StatusResolved) != (tt.want[1] == StatusResolved) || (tt.want[1] == StatusResolved) != (tt.want[2] == StatusResolved)
			if v.Differ() != wantDiffer {
				t.Errorf("Differ() = %v, want %v", v.Differ(), wantDiffer)
			}
		})
	}
}

func TestGradeSplitsAndPolyBenchFields(t *testing.T) {
	t.Parallel()
	v, out := Grade([]string{"a", "c"}, []string{"b", "d"}, RunOutcome{Results: res("a", "PASSED", "b", "FAILED", "c", "SKIPPED", "x", "PASSED"), ExitCode: 1})
	want := Verdict{Status: StatusUnresolved,
		FailToPass: TestsStatus{Success: []string{"a"}, Failure: []string{"c"}},
		PassToPass: TestsStatus{Success: []string{}, Failure: []string{"b", "d"}},
		Reason:     "1 FAIL_TO_PASS test(s) not passing (first: c); 2 PASS_TO_PASS test(s) failing (first: b)"}
	if diff := cmp.Diff(want, v.SWEBench); diff != "" {
		t.Errorf("swebench verdict (-want +got):\n%s", diff)
	}
	wantOut := PolyBenchOutput{WithLogs: true, AllF2PPassed: false, NoP2PFailed: false,
		PassedTests: []string{"a", "x"}, FailedTests: []string{"b"}}
	if diff := cmp.Diff(wantOut, out); diff != "" {
		t.Errorf("polybench output (-want +got):\n%s", diff)
	}
	if got := v.Strict.FailToPass.Failure; !cmp.Equal(got, []string{"c"}) {
		t.Errorf("strict F2P failures %v, want [c]", got)
	}
	// A skipped P2P test is maintained (SWE-bench's test_maintained).
	v, _ = Grade([]string{"a"}, []string{"b"}, RunOutcome{Results: res("a", "PASSED", "b", "SKIPPED")})
	if got := v.SWEBench.PassToPass.Success; !cmp.Equal(got, []string{"b"}) {
		t.Errorf("swebench P2P successes %v, want [b]", got)
	}
	// SWE-PolyBench's with_logs and F2P ⊆ passed hold for a log without
	// tests; resolution still needs one parsed test (spec §2.5).
	v, out = Grade(nil, nil, RunOutcome{})
	if !out.WithLogs || !out.AllF2PPassed || !out.NoP2PFailed || v.PolyBench.Resolved {
		t.Errorf("empty log: output %+v, polybench resolved %v; want with_logs, all_f2p_passed, no_p2p_failed and unresolved", out, v.PolyBench.Resolved)
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%s) = %s, %v", m, got, err)
		}
	}
	if _, err := ParseMode("lenient"); err == nil {
		t.Error("ParseMode(lenient): want an error")
	}
}

// TestPolyBenchOutputListsAsWritten: the record's passed_tests and
// failed_tests as the official code writes them. A failing Java test named
// by its JUnit report, the log's embedded report and Surefire's console
// (the dissenting readings Grade is given) is listed once; a reading by a
// SWE-bench parser lists XFAIL as passed and ERROR as failed
// (grading.py test_passed, test_failed), a pytest reading of SWE-PolyBench
// lists neither.
func TestPolyBenchOutputListsAsWritten(t *testing.T) {
	t.Parallel()
	_, out := Grade([]string{"p.A.f"}, nil, RunOutcome{Language: "java", Framework: "junit", ExitCode: 1,
		Results: res("p.A.f", "FAILED", "p.A.g", "PASSED", "p.A.f", "FAILED", "p.A.f", "FAILED", "p.A.g", "PASSED")})
	if !cmp.Equal(out.FailedTests, []string{"p.A.f"}) || !cmp.Equal(out.PassedTests, []string{"p.A.g"}) {
		t.Errorf("java: passed %v failed %v, want [p.A.g] and [p.A.f] once each", out.PassedTests, out.FailedTests)
	}
	rs := res("a.py::ok", "PASSED", "a.py::xf", "XFAIL", "a.py::err", "ERROR", "a.py::bad", "FAILED", "a.py::sk", "SKIPPED")
	_, out = Grade(nil, nil, RunOutcome{Framework: "swebench:parse_log_pytest", Language: "python", ExitCode: 1, Results: rs})
	if !cmp.Equal(out.PassedTests, []string{"a.py::ok", "a.py::xf"}) || !cmp.Equal(out.FailedTests, []string{"a.py::err", "a.py::bad"}) {
		t.Errorf("swebench reading: passed %v failed %v, want XFAIL passed and ERROR failed", out.PassedTests, out.FailedTests)
	}
	_, out = Grade(nil, nil, RunOutcome{Framework: "pytest", Language: "python", ExitCode: 1, Results: rs})
	if !cmp.Equal(out.PassedTests, []string{"a.py::ok"}) || !cmp.Equal(out.FailedTests, []string{"a.py::bad"}) {
		t.Errorf("polybench pytest reading: passed %v failed %v, want XFAIL and ERROR in neither", out.PassedTests, out.FailedTests)
	}
}
