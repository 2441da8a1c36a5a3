package grading

import (
	"fmt"

	"github.com/polynfi/polynfi/testlog"
)

// Mode is a grading mode: how parsed test results decide "resolved".
type Mode string

// The grading modes, computed together from the same parsed results.
// Source: polynfi evaluation spec §2.5.
//
// Known differences from the published harnesses, all deliberate:
//   - polybench: SWE-PolyBench's parsers always return a result object, so
//     its resolved test is F2P ⊆ passed ∧ P2P ∩ failed = ∅ even when the log
//     parsed to no test (an instance with an empty F2P list then resolves);
//     polynfi follows the spec and also requires at least one parsed test.
//   - polybench: SWE-PolyBench picks its parser from a per-repository table,
//     with repository-specific id schemes (tailwindcss's Jest title-only ids,
//     material-ui's "file->fullTitle", angular's Bazel log); polynfi detects
//     the framework from the log and reads the generic id of each framework
//     (testlog). TAP "not ok ... # SKIP" is passed here, failed there.
//   - all modes: a run stopped at its timeout is timed_out. SWE-PolyBench
//     parses whatever output the stopped container left (racing with its
//     reader thread); SWE-bench marks the log as timed out and unresolved.
//   - swebench, for rows with a test_command: SWE-bench's eval_type
//     fail_only (some JavaScript datasets grade only FAILED) is not
//     applied, and a run whose log parses to no test is unresolved without
//     consulting SWE-bench's "the suite ran" patterns (they matter only when
//     both test lists are empty). SWE-bench 5.x rows (an eval_script, no
//     test_command) are graded by SWE-bench 5.0.2's own rules, both of
//     these included (swebench.go: ReadSWEBenchLog, GradeSWEBenchReading).
//
// Modes lists the grading modes in report order.
var Modes = []Mode{ModePolyBench, ModeSWEBench, ModeStrict}

// ModesFor returns the modes a report of a run in native mode shows: Modes,
// and native after them when it is not one of them (ModeMultiSWEBench).
func ModesFor(native Mode) []Mode {
	out := append([]Mode(nil), Modes...)
	for _, m := range Modes {
		if m == native {
			return out
		}
	}
	if native != "" {
		out = append(out, native)
	}
	return out
}

// ParseMode returns the Mode named s: one of Modes, ModeMultiSWEBench or
// ModeSWEBenchPro.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	switch Mode(s) {
	case ModeMultiSWEBench, ModeSWEBenchPro:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown grading mode %q (want polybench, swebench, strict, multi-swe-bench or swe-bench-pro)", s)
}

// Status is the outcome class of one instance under one mode.
type Status string

// Outcome classes. Only StatusResolved is resolved.
const (
	StatusResolved      Status = "resolved"
	StatusUnresolved    Status = "unresolved"
	StatusEmptyPatch    Status = "empty_patch"    // the prediction carries no change
	StatusPatchFailed   Status = "patch_failed"   // no attempt of the apply cascade applied it (ReasonNotApplied)
	StatusPatchRejected Status = "patch_rejected" // it writes outside the workspace
	StatusTimedOut      Status = "timed_out"      // the test command hit its timeout
	StatusInconsistent  Status = "inconsistent"   // swebench, strict: no test failed, exit status non-zero
	StatusInfraFailure  Status = "infra_failure"  // strict: the log parsed to no test at all
	StatusError         Status = "error"          // the harness could not evaluate (no repo, test patch does not apply, ...)
	// StatusTampered: what ran in the test process or the patch's non-source
	// paths moved the verdict: the run's report lacks a canary the harness
	// added, passes a must-fail one or fails a must-pass one (canary.go), or
	// the clean-room re-run disagreed with the run (cleanroom.go).
	// Unresolved in every mode, counted apart, never an infrastructure failure.
	StatusTampered Status = "tampered"
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

// Verdicts holds the three modes' verdicts of one instance, and for an
// instance of a Multi-SWE-bench row the multi-swe-bench mode's
// (ModeMultiSWEBench; nil otherwise, and for an instance decided before
// its tests ran, whose status is then the same in every mode).
type Verdicts struct {
	PolyBench     Verdict  `json:"polybench"`
	SWEBench      Verdict  `json:"swebench"`
	Strict        Verdict  `json:"strict"`
	MultiSWEBench *Verdict `json:"multi_swe_bench,omitempty"`
	// SWEBenchPro is the swe-bench-pro mode's verdict (ModeSWEBenchPro)
	// of an instance of a SWE-bench Pro row whose tests ran; nil otherwise.
	SWEBenchPro *Verdict `json:"swe_bench_pro,omitempty"`
}

// Get returns the verdict of mode m (the strict one for an unknown mode,
// and for ModeMultiSWEBench when the instance has no such verdict).
func (v *Verdicts) Get(m Mode) Verdict {
	switch m {
	case ModePolyBench:
		return v.PolyBench
	case ModeSWEBench:
		return v.SWEBench
	case ModeMultiSWEBench:
		if v.MultiSWEBench != nil {
			return *v.MultiSWEBench
		}
	case ModeSWEBenchPro:
		if v.SWEBenchPro != nil {
			return *v.SWEBenchPro
		}
	}
	return v.Strict
}

// Differ reports whether the modes disagree on resolved.
func (v *Verdicts) Differ() bool {
	if v.MultiSWEBench != nil && v.MultiSWEBench.Resolved != v.Strict.Resolved {
		return true
	}
	if v.SWEBenchPro != nil && v.SWEBenchPro.Resolved != v.Strict.Resolved {
		return true
	}
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
// log order with duplicates, the exit status, whether the run was killed at
// its timeout, and, for the polybench mode's parser-specific rules, the
// instance's language, the framework that read the results (a
// testlog.Framework name, "junit" for JUnit XML reports) and the log.
type RunOutcome struct {
	Results   []testlog.Result
	ExitCode  int
	TimedOut  bool
	Language  string
	Framework string
	Log       []byte
	// CanaryFailed: a must-fail canary the harness added failed in this
	// run (canary.go), which explains a non-zero exit status when no
	// graded test failed (Results holds no canary).
	CanaryFailed bool
}

// PolyBenchOutput carries SWE-PolyBench's per-instance result fields
// (PolyBenchOutput in polybench_data.py) that are not in Verdict. WithLogs
// is true for every graded run: SWE-PolyBench's parsers always return a
// result object, so its with_logs says the test command ran and its log
// was parsed, whether or not a test was found in it.
type PolyBenchOutput struct {
	WithLogs     bool     `json:"with_logs"`
	AllF2PPassed bool     `json:"all_f2p_passed"`
	NoP2PFailed  bool     `json:"no_p2p_failed"`
	PassedTests  []string `json:"passed_tests"`
	FailedTests  []string `json:"failed_tests"`
}

// Reasons a unit scores nothing, as the drill-downs of a full run
// (report's unit reasons, a record's error) and of a --metrics-only run
// say them: one definition for both.
const (
	// ReasonNotApplied: the model patch was tried and no attempt of the
	// apply cascade applied it (StatusPatchFailed).
	ReasonNotApplied = "no attempt of the apply cascade applied the model patch"
	// ReasonEmptyPatch: the prediction is empty; nothing was run.
	ReasonEmptyPatch = "not run: empty patch"
)
