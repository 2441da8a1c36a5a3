// Package nfirecord holds what an SWE-NFI suite run directory keeps on
// disk (package nfisuite writes it): one Record per agent run of a task
// under records/, the test logs' names under logs/, and the functions that
// read them. It runs nothing: package report reads suite runs through it
// alone.
package nfirecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfi"
)

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

// RecordPath is where a record lives: Out/records/<model>/<instance_id>/run-<n>.json.
func RecordPath(out, model, instanceID string, run int) string {
	return filepath.Join(out, filepath.FromSlash(RecordRelPath(model, instanceID, run)))
}

// RecordRelPath is RecordPath relative to the run directory, with '/'
// separators (a link in a report).
func RecordRelPath(model, instanceID string, run int) string {
	return fmt.Sprintf("records/%s/%s/run-%d.json", FileName(model), FileName(instanceID), run)
}

// LogName is the file name, in the run directory's logs/, of the test log
// of one run (stderr, then stdout, then the exit line); it exists only for
// runs whose test command was started.
func LogName(instanceID, model string, run int) string {
	return fmt.Sprintf("%s.%s.run%d.log", FileName(instanceID), FileName(model), run)
}

// SortRecords orders records by model, instance and run.
func SortRecords(rs []Record) {
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		if a.InstanceID != b.InstanceID {
			return a.InstanceID < b.InstanceID
		}
		return a.Run < b.Run
	})
}

// UnreadableRecord is a record file that could not be read or decoded:
// its path and the error.
type UnreadableRecord struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// LoadRecords reads every record under dir/records. A record file that does
// not decode is an error naming it (ReadRecords reads past it).
func LoadRecords(dir string) ([]Record, error) {
	out, bad, err := ReadRecords(dir)
	if err == nil && len(bad) > 0 {
		err = fmt.Errorf("%s: %s", bad[0].Path, bad[0].Error)
	}
	return out, err
}

// ReadRecords reads every record under dir/records, listing each record
// file it cannot read or decode instead of stopping there.
func ReadRecords(dir string) ([]Record, []UnreadableRecord, error) {
	var out []Record
	var bad []UnreadableRecord
	root := filepath.Join(dir, "records")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			bad = append(bad, UnreadableRecord{Path: p, Error: err.Error()})
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") || atomicfile.IsTemp(p) {
			return nil
		}
		// Never through a link: a record replaced by one is unreadable.
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := safepath.ReadFileIn(dir, rel)
		if err != nil {
			bad = append(bad, UnreadableRecord{Path: p, Error: err.Error()})
			return nil
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			bad = append(bad, UnreadableRecord{Path: p, Error: err.Error()})
			return nil
		}
		out = append(out, r)
		return nil
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: no NFI suite records (records/ is missing)", dir)
	}
	SortRecords(out)
	return out, bad, err
}

// FileName maps a model name or instance id to a file name: every byte
// outside [A-Za-z0-9._-] becomes "_".
func FileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b)
}
