package grading

import "github.com/polynfi/polynfi/testlog"

// ModeStrict is ModeSWEBench plus: an id reported more than once with
// different statuses fails; a run whose log parses to no test is
// infra_failure (the environment, not the patch, is broken); the
// inconsistent check reads every parsed result, not only the last
// status of each id. Source: polynfi evaluation spec §2.5 (strict).
const ModeStrict Mode = "strict"

// gradeStrict is ModeStrict's verdict of a test_command run: SWE-bench's
// classification (gradeSWEBench) with every id reported under two
// statuses failing, no parsed test an infrastructure failure, and the
// inconsistent check over every result.
func gradeStrict(f2p, p2p []string, run RunOutcome) Verdict {
	v := classifyStatusMap(newStatusMap(run.Results), f2p, p2p, conflicts(run.Results))
	if len(run.Results) == 0 {
		v.Status, v.Reason = StatusInfraFailure, "the log parsed to no test at all: the environment, not the patch, is broken"
		return v
	}
	return finishStatusVerdict(v, anyFailed(run.Results), run)
}

// conflicts returns the ids results report with more than one status.
func conflicts(results []testlog.Result) map[string]bool {
	out := map[string]bool{}
	first := map[string]testlog.Status{}
	for _, r := range results {
		if s, ok := first[r.ID]; ok && s != r.Status {
			out[r.ID] = true
		} else if !ok {
			first[r.ID] = r.Status
		}
	}
	return out
}
