// Package runrecord holds what a polynfi run directory keeps on disk for
// the instance evaluation (harness): the per-instance Record (result.json
// and the files beside it), the run's Manifest (polynfi-run.json), their
// JSON encodings and the functions that read and write them. It runs
// nothing and compiles no sandbox or container client: package report
// reads runs through it alone.
package runrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/images/imagespec"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
)

// RecordSchema is the version of the Record layout. 3: canaries
// (TestRun.Canaries, StatusTampered) and Record.RunnerInternals; a
// record of an earlier version is evaluated again (harness.Store.Done).
const RecordSchema = 3

// Key identifies a record: one prediction (model, run) of one instance,
// with the SHA-256 of what it applies. A record whose key differs only in
// PatchSHA256 is stale: the patch changed and the instance is evaluated
// again.
type Key struct {
	InstanceID  string `json:"instance_id"`
	Model       string `json:"model_name_or_path"`
	Run         int    `json:"run"`
	PatchSHA256 string `json:"patch_sha256"`
}

// TestRun describes the test command's execution.
type TestRun struct {
	Command  string `json:"command"` // the script run with bash -c, as in command.sh
	ExitCode int    `json:"exit_code"`
	// TestExitCode is the test command's own exit status when a SWE-bench
	// eval script recorded it (ExitCode is then the script's).
	TestExitCode *int     `json:"test_exit_code,omitempty"`
	TimedOut     bool     `json:"timed_out"`
	TimeoutS     float64  `json:"timeout_s"`
	DurationS    float64  `json:"duration_s"`
	Isolation    string   `json:"isolation"`
	Notes        []string `json:"notes,omitempty"`
	// Parser is "junit" when JUnit XML reports were read, else the
	// framework detected in the log ("" when none was recognised).
	Parser       string   `json:"parser"`
	JUnitReports []string `json:"junit_reports,omitempty"` // workspace-relative
	NumResults   int      `json:"num_results"`             // parsed results, duplicates counted
	// Stream is the output stream the log reading came from: "stdout", or
	// "stderr" when stdout held no recognisable log.
	Stream string `json:"stream,omitempty"`
	// LogSecret is the attempt's secret that the marks of its stored log
	// carry (32 hex digits; harness/runlog.go): a re-grading reads the log only
	// through marks with this secret. Written after the run; never passed
	// into the sandbox.
	LogSecret string `json:"log_secret,omitempty"`
	// Workdir is the work tree's path in the sandbox, which test ids are
	// made relative to.
	Workdir string `json:"workdir,omitempty"`
	// Canaries are the tests the harness added to the run (harness/canary.go),
	// written into the record after the run; CanaryNote says why none
	// were placed.
	Canaries   []Canary `json:"canaries,omitempty"`
	CanaryNote string   `json:"canary_note,omitempty"`
}

// Timing splits an instance's wall time, in seconds. OverheadS is
// everything except the test command and the image's pull or build
// (ImageS): workspace or container start, apply, parse, grade, metrics,
// record and sandbox removal.
type Timing struct {
	// The parts of the image's resolution, of the sandbox's start and of
	// the test patch's application that the evaluation waited for (less
	// than their whole when Run started the sandbox ahead).
	ImageS     float64 `json:"image_s,omitempty"`  // resolving, pulling or building the image
	WorkspaceS float64 `json:"workspace_s"`        // work tree made, or container created and started, patch files copied in
	RemoveS    float64 `json:"remove_s,omitempty"` // sandbox removed (0 when Run removes it in the background)
	ApplyS     float64 `json:"apply_s"`            // test patch (see above), model patch, path checks, test files reset
	TestS      float64 `json:"test_s"`
	ParseS     float64 `json:"parse_s"`
	CanaryS    float64 `json:"canary_s,omitempty"` // canaries written into the test files (harness/canary.go)
	// RunnerCheckS: the runner-internals check of the model patch (harness/runnercheck.go).
	RunnerCheckS float64 `json:"runner_check_s,omitempty"`
	MetricsS     float64 `json:"metrics_s"`   // RetrievalS + NFIS
	RetrievalS   float64 `json:"retrieval_s"` // localization metrics
	NFIS         float64 `json:"nfi_s"`       // NFI deltas of the changed source files
	TotalS       float64 `json:"total_s"`
	OverheadS    float64 `json:"overhead_s"`
}

// NFIDelta is the SWE-NFI score change of the changed source files
// (Python, Java, JavaScript, TypeScript; see harness.NFISource): the base version
// against the version after the model patch, each file judged by the rules
// of its language. Files lists the changed source files.
type NFIDelta struct {
	Catalog string    `json:"catalog"`
	Files   []string  `json:"files"`
	Delta   nfi.Delta `json:"delta"`
	// NoRules names the languages of changed files that no rule of the
	// catalog judges (syntax.Language names: "java", ...): their files are
	// parsed for validity only and have no S_p, so an aspect the other
	// files do not score has no I_p (n/a, not 0).
	NoRules []string `json:"no_rules,omitempty"`
}

// Record is the result of evaluating one prediction of one instance, as
// written to result.json. Field names follow SWE-PolyBench's per-instance
// result (patch_applied, generation, with_logs, all_f2p_passed,
// no_p2p_failed, resolved, passed_tests, failed_tests) and SWE-bench's
// report (FAIL_TO_PASS/PASS_TO_PASS success and failure, per mode).
// Resolved and Status are those of the dataset's native mode.
type Record struct {
	Schema int `json:"schema_version"`
	Key
	// InstanceSHA256 fingerprints what the instance asks (Instance.EvalSHA256):
	// a record is reused only while the instance is unchanged.
	InstanceSHA256 string `json:"instance_sha256"`
	RunID          string `json:"run_id"`
	Repo           string `json:"repo"`
	BaseCommit     string `json:"base_commit"`
	Language       string `json:"language"`
	TaskCategory   string `json:"task_category,omitempty"`

	PatchApplied bool `json:"patch_applied"`
	Generation   bool `json:"generation"`
	grading.PolyBenchOutput
	Resolved   bool             `json:"resolved"`
	Status     grading.Status   `json:"status"`
	NativeMode grading.Mode     `json:"native_mode"`
	Verdicts   grading.Verdicts `json:"verdicts"`

	// TestEdits lists what the model patch did to the tests (harness's guardTests):
	// files reset before the run, test configuration changed.
	TestEdits *TestEdits `json:"test_edits,omitempty"`
	// RunnerInternals lists where the model patch's code outside the tests
	// reaches into the test runner or the process's reporting
	// (harness/runnercheck.go); any makes the strict verdict unresolved.
	RunnerInternals []RunnerFinding `json:"runner_internals,omitempty"`
	TestPatchApply  *ApplyResult    `json:"test_patch_apply,omitempty"`
	ModelPatchApply *ApplyResult    `json:"model_patch_apply,omitempty"`
	Test            *TestRun        `json:"test,omitempty"`
	// Error says what went wrong for StatusError, patch_rejected,
	// patch_failed and infrastructure failures.
	Error string `json:"error,omitempty"`
	// InfraReason is set when the evaluation ended in a failure of the
	// environment (one of the runtime.Reason* constants: daemon_unreachable,
	// image_unavailable, image_build_failed, oom_killed, sandbox_gone, ...);
	// Status is then infra_failure in every mode and a re-run evaluates the
	// instance again. deadline_exceeded: the runtime ended the sandbox at
	// its deadline (Sandbox.DeadlineS; a Kubernetes pod's
	// activeDeadlineSeconds) while a set-up command, or the test command
	// within its timeout, still ran. A test command that had already run
	// past its timeout when that happened is the test's verdict instead:
	// timed_out, Test.TimedOut, a note naming the deadline.
	InfraReason string `json:"infra_failure_reason,omitempty"`
	// Attempts counts the evaluations of this record's instance in this
	// run: more than 1 after infrastructure failures were retried.
	Attempts int `json:"attempts,omitempty"`
	// RetriedInfraFailures are the earlier attempts of this run that ended
	// in an infrastructure failure and were retried, oldest first: each
	// one's reason, error and sandbox (pod and node on Kubernetes).
	RetriedInfraFailures []InfraAttempt `json:"retried_infra_failures,omitempty"`
	// Sandbox describes where the instance ran (runtime, container id,
	// isolation, notes).
	Sandbox *SandboxInfo `json:"sandbox,omitempty"`
	// Image is the image a container runtime used and how it was chosen
	// (row, template, build from the row's Dockerfile, task directory).
	Image *imagespec.Choice `json:"image,omitempty"`

	// CleanRoom is the clean-room re-run (harness.Harness.CleanRoom, --clean-room):
	// its verdicts, and Tampered when they disagree with this run's.
	CleanRoom *CleanRoom `json:"clean_room,omitempty"`

	// Retrieval holds the localization metrics (package retrieval) when
	// they were computed.
	Retrieval *retrieval.InstanceMetrics `json:"retrieval,omitempty"`
	// NFI holds the NFI deltas of changed source files (.py, .js, .ts, ...) when computed.
	NFI *NFIDelta `json:"nfi,omitempty"`

	// Agent cost, copied from the prediction.
	AgentDurationS *float64 `json:"agent_duration_s,omitempty"`
	TokensIn       *int64   `json:"tokens_in,omitempty"`
	TokensOut      *int64   `json:"tokens_out,omitempty"`
	CostUSD        *float64 `json:"cost_usd,omitempty"`

	// RegradeHistory lists the verdicts `polynfi regrade --apply` replaced,
	// oldest first: the old verdicts stay beside the new ones.
	RegradeHistory []RegradeEntry `json:"regrade_history,omitempty"`

	Timing Timing `json:"timing"`
	// CopyS is the seconds spent copying files into the sandbox (a
	// benchmark reads it); not stored.
	CopyS      float64   `json:"-"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
}

// RegradeEntry is a record's verdicts before one `polynfi regrade --apply`:
// when it ran (UTC), the polynfi version that re-graded, and the parser,
// verdicts, native status and resolved flag it replaced.
type RegradeEntry struct {
	At       time.Time        `json:"regraded_at"`
	Version  string           `json:"polynfi_version"`
	Parser   string           `json:"parser"`
	Resolved bool             `json:"resolved"`
	Status   grading.Status   `json:"status"`
	Verdicts grading.Verdicts `json:"verdicts"`
}

// Names of the files in a record directory.
const (
	ResultFile  = "result.json"
	LogFile     = "test.log"
	PatchFile   = "model.patch"
	CommandFile = "command.sh"
)

// StoreMarker is the file ClaimDir (and so harness.OpenStore) writes
// into a directory it takes as its store. A non-empty directory without it, without ManifestFile and
// that is not a run written before either existed (RunDirKind) is not
// polynfi's: ClaimDir refuses it and deletes nothing in it.
const StoreMarker = ".polynfi-store"

// ErrNotStore is returned (wrapped, with the directory) by ClaimDir and
// harness.OpenStore for a non-empty directory that is not a polynfi run.
var ErrNotStore = errors.New("is a non-empty directory that is not a polynfi run (no " + ManifestFile + " or " + StoreMarker + "); give a new or empty directory, or the --out of an earlier polynfi run")

// ClaimDir makes dir polynfi's output directory: it creates dir when
// missing and writes StoreMarker into it. A directory that exists is taken
// only when it is empty or already polynfi's (StoreMarker, ManifestFile,
// or a legacy run RunDirKind recognises); otherwise the error wraps
// ErrNotStore and nothing in dir is touched. An unreadable manifest is an
// error naming the file.
func ClaimDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case len(entries) > 0:
		if _, err := os.Stat(filepath.Join(dir, StoreMarker)); err == nil {
			return nil
		}
		kind, _, err := RunDirKind(dir)
		if err != nil {
			return err
		}
		if kind == "" {
			return fmt.Errorf("%s %w", dir, ErrNotStore)
		}
	}
	return atomicfile.Write(filepath.Join(dir, StoreMarker), []byte("polynfi output directory: polynfi may delete .work/ and its own temp files in here\n"))
}

// InfraAttempt is one attempt that ended in an infrastructure failure and
// was retried (Record.RetriedInfraFailures).
type InfraAttempt struct {
	Reason  string       `json:"reason"` // a runtime.Reason* value
	Error   string       `json:"error,omitempty"`
	Sandbox *SandboxInfo `json:"sandbox,omitempty"`
}

// SandboxInfo is where an instance ran, as a record keeps it: the same
// fields and JSON as runtime.Info (harness converts one into the other),
// declared here so that reading a record compiles no runtime.
type SandboxInfo struct {
	Runtime   string   `json:"runtime"`              // "local", "docker", "kubernetes"
	ID        string   `json:"id,omitempty"`         // container id, pod name, or work tree
	Image     string   `json:"image,omitempty"`      // image the sandbox was made from
	Node      string   `json:"node,omitempty"`       // cluster node (kubernetes)
	Isolation string   `json:"isolation,omitempty"`  // "bwrap", "none", "container", "pod"
	StartS    float64  `json:"start_s,omitempty"`    // seconds from creating the sandbox to its running
	DeadlineS float64  `json:"deadline_s,omitempty"` // seconds after its start at which the backend ends it (0: none)
	Notes     []string `json:"notes,omitempty"`      // limits not enforced, no isolation, ...
}

// TestEdits says what a model patch did to the tests.
type TestEdits struct {
	// Reset lists the test files and runner configuration files the patch
	// changed, and the files it created that would shadow a test framework
	// (harness.CheckRunnerPaths); they were reset to base + test patch (the
	// created ones removed) before the tests ran.
	Reset []string `json:"reset,omitempty"`
	// Config lists the files whose test configuration the patch changed
	// ("file: part"); the instance is unresolved in every mode.
	Config []string `json:"config,omitempty"`
}

// Any reports whether the patch edited tests or test configuration.
func (t *TestEdits) Any() bool { return t != nil && (len(t.Reset) > 0 || len(t.Config) > 0) }

// ApplyAttempt is one try of the cascade.
type ApplyAttempt struct {
	Method string `json:"method"`
	OK     bool   `json:"ok"`
	Output string `json:"output,omitempty"` // combined output, truncated to 4 KiB
}

// ApplyResult says whether a patch applied and how.
type ApplyResult struct {
	Applied  bool           `json:"applied"`
	Method   string         `json:"method,omitempty"` // the attempt that applied it
	Attempts []ApplyAttempt `json:"attempts"`
}

// CleanRoom is the clean-room re-run of a record (harness.Harness.CleanRoom): the
// FAIL_TO_PASS and PASS_TO_PASS tests run again in a fresh sandbox with
// the model patch's source paths applied and every other path it changed
// (Dropped: configuration, build scripts, runner plugins, test helpers,
// data) as base + test patch have it. Ran is false when there was nothing
// to re-run (Skipped says why: the patch changes source paths only, or it
// cannot be split). Verdicts are the re-run's; Tampered is set when its
// resolved differs from the run's in any mode, Reason then says how. TotalS
// is the re-run's wall time in seconds (sandbox, apply, tests); TestS its
// test command's.
type CleanRoom struct {
	Ran      bool              `json:"ran"`
	Skipped  string            `json:"skipped,omitempty"`
	Dropped  []string          `json:"dropped,omitempty"`
	Status   grading.Status    `json:"status,omitempty"`
	Verdicts *grading.Verdicts `json:"verdicts,omitempty"`
	Tampered bool              `json:"tampered"`
	Reason   string            `json:"reason,omitempty"`
	Error    string            `json:"error,omitempty"`
	TotalS   float64           `json:"total_s"`
	TestS    float64           `json:"test_s"`
}

// RunnerFinding is one place where a model patch's code reaches into the
// test runner or the process's reporting.
type RunnerFinding struct {
	File string `json:"file"`
	Line int    `json:"line"` // 1-based, in the file after the patch
	Rule string `json:"rule"`
	// Text is the code found (at most 120 bytes).
	Text string `json:"text"`
}

// String is "FILE:LINE: RULE: TEXT".
func (f RunnerFinding) String() string {
	return f.File + ":" + strconv.Itoa(f.Line) + ": " + f.Rule + ": " + f.Text
}

// Canary is one test the harness added to a run.
type Canary struct {
	// Name is the random token in the test's name (an identifier: "c"
	// and 20 hex digits); a result is the canary's when its id holds it.
	Name string `json:"name"`
	// File is the workspace-relative test file it was appended to.
	File string `json:"file"`
	// Fail: the canary must fail (else it must pass).
	Fail bool `json:"must_fail,omitempty"`
}

// DirName maps a model name to a directory name, never hidden. An
// ordinary name (non-empty, only [A-Za-z0-9._/-], not starting with ".",
// no "_" beside a "/") gets SWE-bench's directory (logs/run_evaluation/
// <run>/<model with / as __>/<instance>, run_evaluation.py): "/" becomes
// "__", nothing else changes, so a name holding "__" keeps it. Any other
// name is escaped (characters outside [A-Za-z0-9._-] and "/" become "_", a
// leading "." becomes "_", cut to 100 bytes) and followed by "~" and the
// first 12 hex digits of the name's SHA-256: "~" never appears in an
// ordinary mapping, so the two forms cannot meet, and the hash keeps
// escaped names apart ("" -> "~e3b0c44298fc", "." -> "_~cdb4ee2aea69").
// The mapping is injective but for SWE-bench's own collision: names that
// differ only by "/" against "__" ("org/m" and "org__m") share a
// directory, and harness.Store.Save refuses the second one's record.
func DirName(s string) string {
	ordinary := s != "" && s[0] != '.' && len(s) <= 200 &&
		!strings.Contains(s, "_/") && !strings.Contains(s, "/_")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteByte(c)
		case c == '.':
			if i == 0 {
				b.WriteByte('_')
			} else {
				b.WriteByte(c)
			}
		case c == '/':
			b.WriteString("__")
		default:
			ordinary = false
			b.WriteByte('_')
		}
	}
	out := b.String()
	if ordinary {
		return out
	}
	if len(out) > 100 {
		out = out[:100]
	}
	sum := sha256.Sum256([]byte(s))
	return out + "~" + hex.EncodeToString(sum[:6])
}

// RecordRelDir is the directory of k's record relative to the store's
// directory, with forward slashes (for links in reports).
func RecordRelDir(k Key) string {
	return DirName(k.Model) + "/" + k.InstanceID + "/" + fmt.Sprintf("run-%d", k.Run)
}
