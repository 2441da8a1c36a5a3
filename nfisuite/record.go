// Package nfisuite is the SWE-NFI evaluation suite (arXiv 2607.27409 §4,
// polynfi spec §3.1): for every agent run on an NFI task it decides validity
// (non-empty output, every target file parses), functional correctness (the
// task's tests pass on the output, strict grading) and, on correct runs only,
// the improvement I_p per aspect, next to the human reference improvement
// I_p(h) of the same task. Each run becomes one Record; package report turns
// records into the paper's tables.
package nfisuite

import "github.com/polynfi/polynfi/nfi"

// Invalid reasons of a Record.
const (
	ReasonMissing    = "missing"     // the agent submitted no prediction for this task and run
	ReasonEmpty      = "empty"       // the output is empty
	ReasonUnparsable = "unparsable"  // a target file does not parse
	ReasonPatchError = "patch_error" // a diff prediction does not apply to the code before
)

// Record is the result of one agent run on one NFI task. Improvement is set
// only when FunctionallyCorrect (the paper computes I_p on correct runs only);
// Human is the task's reference improvement I_p(h), the same for every run.
// Durations are wall-clock seconds; token counts and cost are as the
// prediction reported them (nil when not reported).
type Record struct {
	InstanceID string `json:"instance_id"`
	Model      string `json:"model_name_or_path"`
	Run        int    `json:"run"`
	Aspect     string `json:"aspect"` // target aspect code (DOC, ERR, LIB, STY, LOG)
	Scope      string `json:"scope"`  // single | multi

	Valid         bool   `json:"valid"`
	InvalidReason string `json:"invalid_reason,omitempty"`
	InvalidDetail string `json:"invalid_detail,omitempty"`

	// Tested is true when the task's tests ran on the output.
	Tested              bool   `json:"tested"`
	FunctionallyCorrect bool   `json:"functionally_correct"`
	TestStatus          string `json:"test_status,omitempty"` // passed | failed | inconsistent | infra_failure | timeout | error
	TestsPassed         int    `json:"tests_passed"`
	TestsTotal          int    `json:"tests_total"`
	TestExitCode        int    `json:"test_exit_code"`

	Before      *nfi.Scores      `json:"scores_before,omitempty"`
	After       *nfi.Scores      `json:"scores_after,omitempty"`
	Improvement *nfi.Improvement `json:"improvement,omitempty"`
	Human       nfi.Improvement  `json:"human_improvement"`
	Flips       []nfi.Flip       `json:"flipped,omitempty"`

	DurationS *float64 `json:"duration_s,omitempty"`
	TokensIn  *int64   `json:"tokens_in,omitempty"`
	TokensOut *int64   `json:"tokens_out,omitempty"`
	CostUSD   *float64 `json:"cost_usd,omitempty"`

	// Key identifies the evaluated output: sha256 of the prediction's content.
	Key string `json:"key"`
	// TaskSHA256 fingerprints the task as evaluated (TaskFingerprint): a
	// record is reused only while its task is unchanged.
	TaskSHA256 string `json:"task_sha256"`
	// EvalSeconds is how long polynfi took to evaluate this run.
	EvalSeconds float64 `json:"eval_seconds"`
}

// Tokens returns tokens_in + tokens_out; ok is false when neither was reported.
func (r Record) Tokens() (n int64, ok bool) {
	if r.TokensIn != nil {
		n, ok = n+*r.TokensIn, true
	}
	if r.TokensOut != nil {
		n, ok = n+*r.TokensOut, true
	}
	return n, ok
}
