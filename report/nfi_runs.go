package report

import (
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
)

// NFIRun is one (task, agent, run) line of an SWE-NFI suite run's
// per-instance drill-down: validity and why not, functional correctness
// and why not, I_p per aspect (fractions; only on functionally correct
// runs, as the paper computes it), the task's Human Reference I_p(h), and
// the stored files of the run, relative to the run directory ('/'
// separators): Record always, Log only when the task's test command was
// started (set by the caller after checking the file is there).
type NFIRun struct {
	InstanceID string `json:"instance_id"`
	Model      string `json:"model_name_or_path"`
	Run        int    `json:"run"`
	Aspect     string `json:"aspect"`
	Scope      string `json:"scope"`
	Valid      bool   `json:"valid"`
	// InvalidReason is nfisuite's reason (missing, empty, unparsable,
	// patch_error), "" for a valid run.
	InvalidReason string `json:"invalid_reason,omitempty"`
	Tested        bool   `json:"tested"`
	// TestStatus is passed, failed, inconsistent, infra_failure, timeout
	// or error ("" when the tests did not run).
	TestStatus          string `json:"test_status,omitempty"`
	FunctionallyCorrect bool   `json:"functionally_correct"`
	TestsPassed         int    `json:"tests_passed"`
	TestsTotal          int    `json:"tests_total"`
	// Reason says in one line why the run is invalid or not functionally
	// correct (or how many tests passed when it is).
	Reason      string           `json:"reason"`
	Improvement *nfi.Improvement `json:"improvement,omitempty"`
	Human       nfi.Improvement  `json:"human_improvement"`
	Record      string           `json:"record"`
	Log         string           `json:"log,omitempty"`
}

// NFIRuns lists every record as a drill-down line, by agent, task and run.
// Log is set to the run's log name (logs/<nfirecord.LogName>) when the
// record says its test command was started; callers clear it when the
// file is not there.
func NFIRuns(records []nfirecord.Record) []NFIRun {
	rs := append([]nfirecord.Record(nil), records...)
	nfirecord.SortRecords(rs)
	out := make([]NFIRun, 0, len(rs))
	for _, r := range rs {
		u := NFIRun{InstanceID: r.InstanceID, Model: r.Model, Run: r.Run, Aspect: r.Aspect, Scope: r.Scope,
			Valid: r.Valid, InvalidReason: r.InvalidReason, Tested: r.Tested, TestStatus: r.TestStatus,
			FunctionallyCorrect: r.FunctionallyCorrect, TestsPassed: r.TestsPassed, TestsTotal: r.TestsTotal,
			Human: r.Human, Record: nfirecord.RecordRelPath(r.Model, r.InstanceID, r.Run)}
		if r.FunctionallyCorrect {
			u.Improvement = r.Improvement
		}
		u.Reason = nfiRunReason(r)
		// The log is written once the test command ran (a harness error
		// before it, TestStatus "error", leaves none).
		if r.Tested && r.TestStatus != "" && r.TestStatus != "error" {
			u.Log = "logs/" + nfirecord.LogName(r.InstanceID, r.Model, r.Run)
		}
		out = append(out, u)
	}
	return out
}

// nfiRunReason is the drill-down's "why" of one record.
func nfiRunReason(r nfirecord.Record) string {
	detail := strings.Join(strings.Fields(r.InvalidDetail), " ")
	join := func(head string) string {
		if detail == "" {
			return head
		}
		return head + ": " + detail
	}
	switch {
	case !r.Valid:
		return join("invalid (" + r.InvalidReason + ")")
	case !r.Tested:
		return "not tested"
	case r.TestStatus == "passed" && r.FunctionallyCorrect:
		return fmt.Sprintf("tests passed %d/%d", r.TestsPassed, r.TestsTotal)
	case r.TestStatus == "failed":
		return fmt.Sprintf("tests failed: %d/%d passed, exit %d", r.TestsPassed, r.TestsTotal, r.TestExitCode)
	case r.TestStatus == "timeout":
		return fmt.Sprintf("tests timed out: %d/%d passed", r.TestsPassed, r.TestsTotal)
	case r.TestStatus == "inconsistent":
		return join(fmt.Sprintf("test results inconsistent (%d/%d passed, exit %d; strict grading)", r.TestsPassed, r.TestsTotal, r.TestExitCode))
	case r.TestStatus == "infra_failure":
		return join(fmt.Sprintf("no test result could be read (exit %d)", r.TestExitCode))
	case r.TestStatus == "error":
		return join("harness error (the tests could not be run)")
	}
	return join(r.TestStatus)
}

// TableNFIRuns is the ID of the SWE-NFI per-run table.
const TableNFIRuns = "nfi-runs"

// ipText shows the target aspect's I_p and every other aspect that moved,
// in pp ("DOC +5.3, STY −1.0"); Dash when im is nil.
func ipText(im *nfi.Improvement, target string) string {
	if im == nil {
		return Dash
	}
	var parts []string
	for _, a := range nfi.Aspects {
		v, ok := im.Get(a)
		if !ok || (a.Code() != target && math0(100*v)) {
			continue
		}
		c := pp(Cell{Value: v, OK: true})
		if a.Code() == target {
			parts = append([]string{a.Code() + " " + c}, parts...)
		} else {
			parts = append(parts, a.Code()+" "+c)
		}
	}
	if len(parts) == 0 {
		return Dash
	}
	return strings.Join(parts, ", ")
}

// NFIRunsTable is the SWE-NFI per-run drill-down: task (its target
// aspect and scope), agent, run, validity, functional correctness, why,
// I_p and the Human Reference's I_p(h) (target aspect first, then the
// aspects that moved), and links (relative to the run directory) to the
// run's test log and record.
func NFIRunsTable(runs []NFIRun) Table {
	t := Table{ID: TableNFIRuns, Title: "Runs: every (task, agent, run)",
		Header: []string{"task", "aspect", "agent", "run", "valid", "func.", "why", "I_p (pp)", "I_p(h) (pp)", "log", "record"}}
	for _, u := range runs {
		valid, fn := "yes", Dash
		if !u.Valid {
			valid = "no"
		}
		if u.Tested {
			fn = "fail"
			if u.FunctionallyCorrect {
				fn = "pass"
			}
		}
		reason := u.Reason
		if len([]rune(reason)) > 120 {
			reason = string([]rune(reason)[:117]) + "..."
		}
		h := u.Human
		scope := map[string]string{"single": "S", "multi": "M"}[u.Scope]
		if scope == "" {
			scope = u.Scope
		}
		row := []string{u.InstanceID, u.Aspect + " " + scope, u.Model, itoa(u.Run), valid, fn, reason,
			ipText(u.Improvement, u.Aspect), ipText(&h, u.Aspect), Dash, "record"}
		links := make([]string, len(row))
		if u.Log != "" {
			row[9], links[9] = "log", u.Log
		}
		links[10] = u.Record
		t.Rows = append(t.Rows, row)
		t.Links = append(t.Links, links)
	}
	t.Notes = []string{"aspect: the task's target aspect and scope (S single-file, M multi-file). valid: the output is non-empty and every target file parses; func.: the task's tests pass on it (strict grading), " +
		Dash + " when they did not run. I_p is computed on functionally correct runs only (target aspect first, then every aspect that moved). " +
		"Links are relative to the run directory (the text format prints the paths); a run whose tests did not start has no log."}
	return t
}
