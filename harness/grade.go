package harness

import (
	"fmt"

	"github.com/polynfi/polynfi/testlog"
)

// Mode is a grading mode: how parsed test results decide "resolved".
type Mode string

// The grading modes, computed together from the same parsed results.
// Source: polynfi evaluation spec §2.5.
const (
	// ModePolyBench is SWE-PolyBench's rule: resolved ⇔ the log parsed to
	// at least one test ∧ F2P ⊆ passed ∧ P2P ∩ failed = ∅. Passed means
	// PASSED, failed means FAILED; a test missing from the log or in ERROR
	// does not count against. Source: SWE-PolyBench
	// src/poly_bench_evaluation/scoring.py instance_level_scoring.
	ModePolyBench Mode = "polybench"
	// ModeSWEBench is SWE-bench's rule: a test passed when its (last)
	// status is PASSED or XFAIL, failed when it is missing, FAILED or
	// ERROR, and is neither when SKIPPED; resolved ⇔ no F2P and no P2P test
	// failed. Source: SWE-bench swebench/harness/grading.py (test_passed,
	// test_failed, get_eval_tests_report, get_resolution_status).
	ModeSWEBench Mode = "swebench"
	// ModeStrict is ModeSWEBench plus: a SKIPPED F2P test fails; an id
	// reported more than once with different statuses fails; a run whose
	// log parses to no test is infra_failure; a run in which no parsed
	// test failed or errored but the command exited non-zero is
	// inconsistent. Both are unresolved. Source: polynfi evaluation spec
	// §2.5 (strict).
	ModeStrict Mode = "strict"
)

// Modes lists the grading modes in report order.
var Modes = []Mode{ModePolyBench, ModeSWEBench, ModeStrict}

// ParseMode returns the Mode named s.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown grading mode %q (want polybench, swebench or strict)", s)
}

// Status is the outcome class of one instance under one mode.
type Status string

// Outcome classes. Only StatusResolved is resolved.
const (
	StatusResolved      Status = "resolved"
	StatusUnresolved    Status = "unresolved"
	StatusEmptyPatch    Status = "empty_patch"    // the prediction carries no change
	StatusPatchFailed   Status = "patch_failed"   // no attempt of the apply cascade applied it
	StatusPatchRejected Status = "patch_rejected" // it writes outside the workspace
	StatusTimedOut      Status = "timed_out"      // the test command hit its timeout
	StatusInconsistent  Status = "inconsistent"   // strict: no test failed, exit status non-zero
	StatusInfraFailure  Status = "infra_failure"  // strict: the log parsed to no test at all
	StatusError         Status = "error"          // the harness could not evaluate (no repo, test patch does not apply, ...)
)

// TestsStatus is SWE-bench's success/failure split of a test list.
type TestsStatus struct {
	Success []string `json:"success"`
	Failure []string `json:"failure"`
}

// Verdict is the grading of one instance under one mode.
type Verdict struct {
	Resolved   bool        `json:"resolved"`
	Status     Status      `json:"status"`
	FailToPass TestsStatus `json:"FAIL_TO_PASS"`
	PassToPass TestsStatus `json:"PASS_TO_PASS"`
	// Reason explains an unresolved verdict in one line ("" when resolved).
	Reason string `json:"reason,omitempty"`
}

// Verdicts holds the three modes' verdicts of one instance.
type Verdicts struct {
	PolyBench Verdict `json:"polybench"`
	SWEBench  Verdict `json:"swebench"`
	Strict    Verdict `json:"strict"`
}

// Get returns the verdict of mode m (the strict one for an unknown mode).
func (v *Verdicts) Get(m Mode) Verdict {
	switch m {
	case ModePolyBench:
		return v.PolyBench
	case ModeSWEBench:
		return v.SWEBench
	}
	return v.Strict
}

// Differ reports whether the modes disagree on resolved.
func (v *Verdicts) Differ() bool {
	return v.PolyBench.Resolved != v.SWEBench.Resolved || v.SWEBench.Resolved != v.Strict.Resolved
}

// AllModes returns verdicts that give every mode the same unresolved status
// (for instances decided before any test ran: empty, failed or rejected
// patch, harness error).
func AllModes(s Status, reason string) Verdicts {
	v := Verdict{Status: s, Reason: reason, FailToPass: TestsStatus{}, PassToPass: TestsStatus{}}
	return Verdicts{PolyBench: v, SWEBench: v, Strict: v}
}

// RunOutcome is what grading needs from a test run: the parsed results in
// log order with duplicates, the exit status and whether the run was killed
// at its timeout.
type RunOutcome struct {
	Results  []testlog.Result
	ExitCode int
	TimedOut bool
}

// PolyBenchOutput carries SWE-PolyBench's per-instance result fields
// (PolyBenchOutput in polybench_data.py) that are not in Verdict.
type PolyBenchOutput struct {
	WithLogs     bool     `json:"with_logs"`
	AllF2PPassed bool     `json:"all_f2p_passed"`
	NoP2PFailed  bool     `json:"no_p2p_failed"`
	PassedTests  []string `json:"passed_tests"`
	FailedTests  []string `json:"failed_tests"`
}

// Grade computes the three verdicts of a completed test run against the
// instance's FAIL_TO_PASS and PASS_TO_PASS lists, and SWE-PolyBench's extra
// output fields. It is pure.
func Grade(f2p, p2p []string, run RunOutcome) (Verdicts, PolyBenchOutput) {
	pb, out := gradePolyBench(f2p, p2p, run)
	v := Verdicts{PolyBench: pb, SWEBench: gradeSWEBench(f2p, p2p, run, false), Strict: gradeSWEBench(f2p, p2p, run, true)}
	if run.TimedOut {
		// Neither harness keeps the test output of a run it stopped.
		reason := "test command killed at its timeout"
		for _, p := range []*Verdict{&v.PolyBench, &v.SWEBench, &v.Strict} {
			p.Resolved, p.Status, p.Reason = false, StatusTimedOut, reason
		}
	}
	return v, out
}

func gradePolyBench(f2p, p2p []string, run RunOutcome) (Verdict, PolyBenchOutput) {
	out := PolyBenchOutput{PassedTests: []string{}, FailedTests: []string{}}
	passed, failed := map[string]bool{}, map[string]bool{}
	for _, r := range run.Results {
		switch r.Status {
		case testlog.Passed:
			out.PassedTests = append(out.PassedTests, r.ID)
			passed[r.ID] = true
		case testlog.Failed:
			out.FailedTests = append(out.FailedTests, r.ID)
			failed[r.ID] = true
		}
	}
	v := Verdict{Status: StatusUnresolved, FailToPass: TestsStatus{Success: []string{}, Failure: []string{}},
		PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	// PolyBench's parsers return an empty result for a log with no test.
	out.WithLogs = len(run.Results) > 0
	if !out.WithLogs {
		v.Reason = "no test results in the log"
		return v, out
	}
	for _, t := range f2p {
		if passed[t] {
			v.FailToPass.Success = append(v.FailToPass.Success, t)
		} else {
			v.FailToPass.Failure = append(v.FailToPass.Failure, t)
		}
	}
	for _, t := range p2p {
		if failed[t] {
			v.PassToPass.Failure = append(v.PassToPass.Failure, t)
		} else {
			v.PassToPass.Success = append(v.PassToPass.Success, t)
		}
	}
	out.AllF2PPassed = len(v.FailToPass.Failure) == 0
	out.NoP2PFailed = len(v.PassToPass.Failure) == 0
	v.Resolved = out.AllF2PPassed && out.NoP2PFailed
	if v.Resolved {
		v.Status = StatusResolved
	} else {
		v.Reason = failReason(v)
	}
	return v, out
}

func gradeSWEBench(f2p, p2p []string, run RunOutcome, strict bool) Verdict {
	sm := testlog.ToMap(run.Results) // last status wins, as SWE-bench's dict
	conflict := map[string]bool{}
	if strict {
		first := map[string]testlog.Status{}
		for _, r := range run.Results {
			if s, ok := first[r.ID]; ok && s != r.Status {
				conflict[r.ID] = true
			} else if !ok {
				first[r.ID] = r.Status
			}
		}
	}
	v := Verdict{Status: StatusUnresolved, FailToPass: TestsStatus{Success: []string{}, Failure: []string{}},
		PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	classify := func(t string, isF2P bool, ts *TestsStatus) {
		s, ok := sm[t]
		switch {
		case strict && conflict[t]:
			ts.Failure = append(ts.Failure, t)
		case ok && (s == testlog.Passed || s == testlog.XFail):
			ts.Success = append(ts.Success, t)
		case !ok || s == testlog.Failed || s == testlog.Error:
			ts.Failure = append(ts.Failure, t)
		case strict && isF2P && s == testlog.Skipped:
			ts.Failure = append(ts.Failure, t)
		}
		// Otherwise (SKIPPED, not strict F2P): neither, as SWE-bench.
	}
	for _, t := range f2p {
		classify(t, true, &v.FailToPass)
	}
	for _, t := range p2p {
		classify(t, false, &v.PassToPass)
	}
	v.Resolved = len(v.FailToPass.Failure) == 0 && len(v.PassToPass.Failure) == 0
	if strict {
		if len(run.Results) == 0 {
			v.Resolved, v.Status, v.Reason = false, StatusInfraFailure, "the log parsed to no test at all: the environment, not the patch, is broken"
			return v
		}
		bad := false
		for _, r := range run.Results {
			if r.Status == testlog.Failed || r.Status == testlog.Error {
				bad = true
				break
			}
		}
		if !bad && run.ExitCode != 0 {
			v.Resolved, v.Status = false, StatusInconsistent
			v.Reason = fmt.Sprintf("no parsed test failed but the test command exited %d", run.ExitCode)
			return v
		}
	}
	if v.Resolved {
		v.Status = StatusResolved
	} else {
		v.Reason = failReason(v)
	}
	return v
}

func failReason(v Verdict) string {
	var parts []string
	if n := len(v.FailToPass.Failure); n > 0 {
		parts = append(parts, fmt.Sprintf("%d FAIL_TO_PASS test(s) not passing (first: %s)", n, v.FailToPass.Failure[0]))
	}
	if n := len(v.PassToPass.Failure); n > 0 {
		parts = append(parts, fmt.Sprintf("%d PASS_TO_PASS test(s) failing (first: %s)", n, v.PassToPass.Failure[0]))
	}
	if len(parts) == 0 {
		return "unresolved"
	}
	if len(parts) == 2 {
		return parts[0] + "; " + parts[1]
	}
	return parts[0]
}
