package harness

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/internal/plural"
	"github.com/polynfi/polynfi/runrecord"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
)

// Model names of validation's jobs.
const (
	ValidationGold    = "gold"     // the instance's reference patch
	ValidationNoPatch = "no-patch" // no patch: base + test patch alone
)

// InstanceValidation is the validation of one instance: Holds when the gold
// patch resolved (native mode) in every one of GoldRuns runs and, without a
// patch, no FAIL_TO_PASS test passed and no PASS_TO_PASS test failed (strict
// mode's lists: a FAIL_TO_PASS test passes only as PASSED).
type InstanceValidation struct {
	Validation
	GoldRuns     int              `json:"gold_runs"`
	GoldResolved int              `json:"gold_resolved"`
	GoldStatuses []grading.Status `json:"gold_statuses"`
	// GoldErrors are the harness errors of gold runs that ended in error
	// or infra_failure.
	GoldErrors []string `json:"gold_errors,omitempty"`
	// NoPatchStatus is the strict status of the run without a patch.
	NoPatchStatus grading.Status `json:"no_patch_status"`
	// NoPatchF2PPassing lists FAIL_TO_PASS tests that pass without the
	// patch; NoPatchP2PFailing PASS_TO_PASS tests that fail without it.
	NoPatchF2PPassing []string `json:"no_patch_f2p_passing"`
	NoPatchP2PFailing []string `json:"no_patch_p2p_failing"`
	// VerdictStable is set when the gold runs agree: all resolved or none
	// did (runs with no record or no test run excepted).
	VerdictStable bool `json:"verdict_stable"`
	// FlakyTests are the FAIL_TO_PASS and PASS_TO_PASS tests whose outcome
	// changed between the gold runs (strict mode), sorted by test.
	FlakyTests []TestFlakiness `json:"flaky_tests"`
}

// TestFlakiness is one test's outcomes over an instance's gold runs that
// ran tests (strict mode: a test missing from the log fails): it passed in
// Passed of them and failed in Failed; flaky when both are above 0. List
// is FAIL_TO_PASS or PASS_TO_PASS.
type TestFlakiness struct {
	Test   string `json:"test"`
	List   string `json:"list"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
}

// testTally counts one instance's per-test outcomes over its gold runs.
type testTally map[[2]string]*TestFlakiness

func (t testTally) add(list string, ts grading.TestsStatus) {
	count := func(names []string, pass bool) {
		for _, n := range names {
			k := [2]string{list, n}
			f, ok := t[k]
			if !ok {
				f = &TestFlakiness{Test: n, List: list}
				t[k] = f
			}
			if pass {
				f.Passed++
			} else {
				f.Failed++
			}
		}
	}
	count(ts.Success, true)
	count(ts.Failure, false)
}

// flaky returns the tests that both passed and failed, sorted by test then list.
func (t testTally) flaky() []TestFlakiness {
	out := []TestFlakiness{}
	for _, f := range t {
		if f.Passed > 0 && f.Failed > 0 {
			out = append(out, *f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Test != out[j].Test {
			return out[i].Test < out[j].Test
		}
		return out[i].List < out[j].List
	})
	return out
}

// ValidationJobs returns validation's jobs: per instance, the gold patch
// runs times (runs 0..runs-1, model ValidationGold) and no patch once
// (model ValidationNoPatch). The harness must have RunEmpty set.
func ValidationJobs(instances []dataset.Instance, runs int) []Job {
	var jobs []Job
	for _, in := range instances {
		for r := 0; r < runs; r++ {
			jobs = append(jobs, Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: ValidationGold, ModelPatch: in.Patch, Run: r}})
		}
		jobs = append(jobs, Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: ValidationNoPatch}})
	}
	return jobs
}

// Validate judges each instance from the records of its validation jobs
// (records[i] for jobs[i]; nil for a job without a record). A run where no
// test ran (strict infra_failure: a missing toolchain, an unresolvable
// build plugin) is said to be so, "no test ran", with its reason, never
// counted as tests that fail.
func Validate(jobs []Job, records []*runrecord.Record, runs int) []InstanceValidation {
	byID := map[string]*InstanceValidation{}
	var order []string
	// runs where no test ran (strict infra_failure): gold runs per id with
	// the first one's reason; the no-patch run's reason
	goldNone, goldNoneWhy, noPatchNone := map[string]int{}, map[string]string{}, map[string]string{}
	tallies := map[string]testTally{}
	for i, j := range jobs {
		id := j.Instance.InstanceID
		v, ok := byID[id]
		if !ok {
			v = &InstanceValidation{Validation: Validation{InstanceID: id}, GoldRuns: runs,
				GoldStatuses: []grading.Status{}, NoPatchF2PPassing: []string{}, NoPatchP2PFailing: []string{}}
			byID[id] = v
			order = append(order, id)
		}
		rec := records[i]
		switch j.Prediction.ModelNameOrPath {
		case ValidationGold:
			if rec == nil {
				v.GoldStatuses = append(v.GoldStatuses, "")
				continue
			}
			v.GoldStatuses = append(v.GoldStatuses, rec.Status)
			if rec.Status == grading.StatusError || rec.Status == grading.StatusInfraFailure {
				v.GoldErrors = append(v.GoldErrors, rec.Error)
			}
			if rec.Resolved {
				v.GoldResolved++
			}
			if rec.Verdicts.Strict.Status == grading.StatusInfraFailure {
				if goldNone[id]++; goldNone[id] == 1 {
					goldNoneWhy[id] = rec.Verdicts.Strict.Reason
				}
			} else if rec.Status != grading.StatusError {
				if tallies[id] == nil {
					tallies[id] = testTally{}
				}
				tallies[id].add("FAIL_TO_PASS", rec.Verdicts.Strict.FailToPass)
				tallies[id].add("PASS_TO_PASS", rec.Verdicts.Strict.PassToPass)
			}
		case ValidationNoPatch:
			if rec == nil {
				continue
			}
			s := rec.Verdicts.Strict
			v.NoPatchStatus = s.Status
			if s.Status == grading.StatusInfraFailure {
				noPatchNone[id] = s.Reason
				continue
			}
			v.NoPatchF2PPassing = append(v.NoPatchF2PPassing, s.FailToPass.Success...)
			v.NoPatchP2PFailing = append(v.NoPatchP2PFailing, s.PassToPass.Failure...)
		}
	}
	out := make([]InstanceValidation, 0, len(order))
	for _, id := range order {
		v := byID[id]
		var why []string
		switch {
		case v.GoldResolved == 0 && goldNone[id] == v.GoldRuns:
			why = append(why, fmt.Sprintf("no test ran with the gold patch (%s), the environment is broken: %s", plural.Count(v.GoldRuns, "run"), goldNoneWhy[id]))
		case v.GoldResolved == 0:
			why = append(why, fmt.Sprintf("the gold patch never resolved (%s: %s)", plural.Count(v.GoldRuns, "run"), joinStatuses(v.GoldStatuses)))
		case v.GoldResolved < v.GoldRuns:
			why = append(why, fmt.Sprintf("flaky: the gold patch resolved %d of %d runs (%s)", v.GoldResolved, v.GoldRuns, joinStatuses(v.GoldStatuses)))
		}
		v.FlakyTests = tallies[id].flaky()
		if n := len(v.FlakyTests); n > 0 {
			f := v.FlakyTests[0]
			why = append(why, fmt.Sprintf("%d flaky test(s) (first: %s, passed %d of %d gold runs)", n, f.Test, f.Passed, f.Passed+f.Failed))
		}
		stable := 0
		for _, st := range v.GoldStatuses {
			if st != "" && st != grading.StatusError && st != grading.StatusInfraFailure {
				stable++
			}
		}
		v.VerdictStable = v.GoldResolved == 0 || v.GoldResolved == stable
		if len(v.GoldErrors) > 0 {
			why = append(why, "gold run error: "+v.GoldErrors[0])
		}
		switch {
		case v.NoPatchStatus == "":
			why = append(why, "the run without a patch has no record")
		case noPatchNone[id] != "" && goldNone[id] != v.GoldRuns:
			why = append(why, "no test ran without the patch: "+noPatchNone[id])
		case noPatchNone[id] != "":
			why = append(why, "no test ran without the patch either")
		}
		if n := len(v.NoPatchF2PPassing); n > 0 {
			why = append(why, fmt.Sprintf("%d FAIL_TO_PASS test(s) already pass without the patch (first: %s)", n, v.NoPatchF2PPassing[0]))
		}
		if n := len(v.NoPatchP2PFailing); n > 0 {
			why = append(why, fmt.Sprintf("%d PASS_TO_PASS test(s) fail without the patch (first: %s)", n, v.NoPatchP2PFailing[0]))
		}
		v.Holds = len(why) == 0
		v.Reason = strings.Join(why, "; ")
		out = append(out, *v)
	}
	return out
}

func joinStatuses(ss []grading.Status) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		if s == "" {
			s = "no record"
		}
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}
