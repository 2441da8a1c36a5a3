package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// RecordSchema is the version of Record's JSON.
const RecordSchema = 1

// Statuses of a run.
const (
	StatusCompleted  = "completed"   // the agent exited 0
	StatusFailed     = "failed"      // the agent exited non-zero (or was killed by a signal)
	StatusTimeout    = "timeout"     // killed at the wall-time limit
	StatusOverBudget = "over_budget" // reported more tokens or cost than a budget allows (stopped when seen while running)
	StatusError      = "error"       // polynfi could not run it (workspace, command, sandbox); no prediction
)

// Files of a run's directory, DIR/runs/<agent>/<instance_id>/run-<k>/.
const (
	RecordFile     = "record.json"     // the Record, written last and atomically
	PredictionFile = "prediction.json" // the run's line of predictions.jsonl
	PromptFile     = "prompt.txt"      // the prompt the agent got
	StdoutFile     = "stdout.log"      // the agent's stdout (bounded)
	StderrFile     = "stderr.log"      // the agent's stderr (bounded)
	PatchFile      = "patch.diff"      // the change against the base (git diff --binary)
	TrajectoryDir  = "trajectory"      // what the agent wrote into {out_dir}
	// PredictionsFile is the predictions of every recorded run in DIR, in
	// the format `polynfi eval` reads.
	PredictionsFile = "predictions.jsonl"
)

// Timing splits a run's wall time, in seconds. AgentS is the agent
// command's own wall time (process start to exit); OverheadS is polynfi's
// own share (workspace or container start and preparation, collection,
// records): TotalS − AgentS − ImageS − SetupS.
type Timing struct {
	PrepareS float64 `json:"prepare_s"`
	// ImageS is the time to resolve (or build) the instance's image;
	// SetupS the agent set-up in the container (--agent-copy, --agent-setup).
	// Neither is counted in OverheadS.
	ImageS float64 `json:"image_s,omitempty"`
	// SandboxS is the sandbox's start (a container: create, start, the
	// base repository, the prompt and workspace copied in), RemoveS its
	// removal; both are part of OverheadS.
	SandboxS  float64 `json:"sandbox_s,omitempty"`
	RemoveS   float64 `json:"remove_s,omitempty"`
	SetupS    float64 `json:"setup_s,omitempty"`
	AgentS    float64 `json:"agent_s"`
	CollectS  float64 `json:"collect_s"`
	RecordS   float64 `json:"record_s"`
	TotalS    float64 `json:"total_s"`
	OverheadS float64 `json:"overhead_s"`
}

// Record is everything about one agent run. DurationS is the agent's wall
// time measured by polynfi (process start to exit), the prediction's
// duration_s; the token and cost figures are the agent's own (Usage: nil
// when it did not report them).
type Record struct {
	Schema     int    `json:"schema"`
	InstanceID string `json:"instance_id"`
	Agent      string `json:"model_name_or_path"`
	Preset     string `json:"agent"`
	Run        int    `json:"run"`
	Kind       string `json:"kind"` // "nfi" or "instance"
	TaskSHA256 string `json:"task_sha256"`
	Status     string `json:"status"`
	// Error says why a run did not complete: polynfi's error (status
	// error), the agent's exit code and the last line of its stderr
	// (failed), the wall-time limit (timeout). See Reason.
	Error string `json:"error,omitempty"`
	// OverBudget names the budget a run exceeded ("run tokens 5000 > 4000").
	OverBudget string `json:"over_budget,omitempty"`
	// Command is the exact command run under `bash -c` in the workspace,
	// with the prompt also on stdin.
	Command  string       `json:"command,omitempty"`
	EnvNames []string     `json:"env_names,omitempty"` // the variables the agent saw (values not recorded)
	Sandbox  runtime.Info `json:"sandbox"`
	// Image is the instance's image and how it was obtained (resolved as
	// `polynfi eval --runtime docker` does), for runs in their instance's
	// container.
	Image    *images.Choice `json:"image,omitempty"`
	Hidden   []string       `json:"hidden,omitempty"` // host paths the agent could not see
	ExitCode int            `json:"exit_code"`
	TimedOut bool           `json:"timed_out"`
	Notes    []string       `json:"notes,omitempty"`

	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	DurationS  float64   `json:"duration_s"`
	Usage      Usage     `json:"usage"`
	Timing     Timing    `json:"timing"`

	Changed     []string `json:"changed_paths"`
	Skipped     []string `json:"skipped_paths,omitempty"`
	PatchSHA256 string   `json:"patch_sha256,omitempty"`
	StdoutBytes int      `json:"stdout_bytes"`
	StderrBytes int      `json:"stderr_bytes"`
	Trajectory  []string `json:"trajectory,omitempty"` // files kept from {out_dir}
	// WorkspaceGit is what the workspace's .git held when the agent
	// finished (local runs, whose workspace and its .git are on this
	// machine: nil for the oracle and for runs in a container, whose .git
	// is not copied back).
	WorkspaceGit *GitState `json:"workspace_git,omitempty"`
}

// Reason says why the run did not complete ("" when it did): Error, or
// for records written before it held one, the status and exit code.
func (r *Record) Reason() string {
	switch {
	case r.Status == StatusCompleted:
		return ""
	case r.Status == StatusOverBudget && r.OverBudget != "":
		return "over budget: " + r.OverBudget
	case r.Error != "":
		return r.Error
	case r.Status == StatusFailed:
		return fmt.Sprintf("the agent exited with code %d", r.ExitCode)
	case r.Status == StatusTimeout:
		return "killed at the wall-time limit"
	}
	return r.Status
}

// Failed reports whether --redo runs it again: any status but completed.
func (r *Record) Failed() bool { return r.Status != StatusCompleted }

// RunDir is where a run's files live: DIR/runs/<agent>/<instance_id>/run-<k>.
func RunDir(out, agent, instanceID string, run int) string {
	return filepath.Join(out, "runs", safeName(agent), safeName(instanceID), fmt.Sprintf("run-%d", run))
}

// readRecord reads the record of the run directory dir (see readRecordIn).
func readRecord(dir string) (*Record, bool) { return readRecordIn(dir, dir) }

// readRecordIn reads the record of the run directory dir below out; ok is
// false when there is none, it does not decode, or it is (or lies below
// out) a symbolic link, which is never followed (then the run is done
// again).
func readRecordIn(out, dir string) (*Record, bool) {
	rel, err := filepath.Rel(out, dir)
	if err != nil {
		return nil, false
	}
	b, err := safepath.ReadFileIn(out, filepath.Join(rel, RecordFile))
	if err != nil {
		return nil, false
	}
	r := &Record{}
	if json.Unmarshal(b, r) != nil || r.Schema != RecordSchema {
		return nil, false
	}
	return r, true
}

// LoadRecords reads every run record under out/runs, sorted by agent,
// instance and run. A record that does not decode is an error naming it.
func LoadRecords(out string) ([]*Record, error) {
	var recs []*Record
	root := filepath.Join(out, "runs")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != RecordFile {
			return nil
		}
		// Never through a link: a run directory is not trusted.
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return err
		}
		b, err := safepath.ReadFileIn(out, rel)
		if err != nil {
			return err
		}
		r := &Record{}
		if err := json.Unmarshal(b, r); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		recs = append(recs, r)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	sortRecords(recs)
	return recs, err
}

func sortRecords(rs []*Record) {
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Agent != b.Agent {
			return a.Agent < b.Agent
		}
		if a.InstanceID != b.InstanceID {
			return a.InstanceID < b.InstanceID
		}
		return a.Run < b.Run
	})
}

func jsonIndent(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return append(b, '\n'), err
}
