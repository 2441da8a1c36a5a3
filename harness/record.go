package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/images/imagespec"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runtime"
)

// RecordSchema is the version of the Record layout. 3: canaries
// (TestRun.Canaries, StatusTampered) and Record.RunnerInternals; a
// record of an earlier version is evaluated again (Store.Done).
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
	// carry (32 hex digits; runlog.go): a re-grading reads the log only
	// through marks with this secret. Written after the run; never passed
	// into the sandbox.
	LogSecret string `json:"log_secret,omitempty"`
	// Workdir is the work tree's path in the sandbox, which test ids are
	// made relative to.
	Workdir string `json:"workdir,omitempty"`
	// Canaries are the tests the harness added to the run (canary.go),
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
	CanaryS    float64 `json:"canary_s,omitempty"` // canaries written into the test files (canary.go)
	// RunnerCheckS: the runner-internals check of the model patch (runnercheck.go).
	RunnerCheckS float64 `json:"runner_check_s,omitempty"`
	MetricsS     float64 `json:"metrics_s"`   // RetrievalS + NFIS
	RetrievalS   float64 `json:"retrieval_s"` // localization metrics
	NFIS         float64 `json:"nfi_s"`       // NFI deltas of the changed source files
	TotalS       float64 `json:"total_s"`
	OverheadS    float64 `json:"overhead_s"`
}

// NFIDelta is the SWE-NFI score change of the changed source files
// (Python, Java, JavaScript, TypeScript; see NFISource): the base version
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

	// TestEdits lists what the model patch did to the tests (guardTests):
	// files reset before the run, test configuration changed.
	TestEdits *TestEdits `json:"test_edits,omitempty"`
	// RunnerInternals lists where the model patch's code outside the tests
	// reaches into the test runner or the process's reporting
	// (runnercheck.go); any makes the strict verdict unresolved.
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
	Sandbox *runtime.Info `json:"sandbox,omitempty"`
	// Image is the image a container runtime used and how it was chosen
	// (row, template, build from the row's Dockerfile, task directory).
	Image *imagespec.Choice `json:"image,omitempty"`

	// CleanRoom is the clean-room re-run (Harness.CleanRoom, --clean-room):
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

	Timing     Timing    `json:"timing"`
	copyS      float64   // seconds copying files into the sandbox (benchmark)
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

// Artifacts are the files kept beside a record.
type Artifacts struct {
	TestLog    []byte // the combined log, as parsed
	ModelPatch string // the patch applied (for Files predictions, the diff they make)
	Command    string // the exact script run
	// AppliedPatch is, for a model patch that only GNU patch's fuzz
	// applied, the diff it made to the tree (base + test patch); ""
	// otherwise. Retrieval locates the predicted nodes from it
	// (retrieval.Input.Applied). Not stored.
	AppliedPatch string
	// BaseFiles are the base-commit contents of the files the reference
	// and the model patch touch, read in the sandbox when the harness has
	// no local clone of the repository (a SWE-bench image holds it): the
	// source retrieval's node metrics read. Nil otherwise. Not stored.
	BaseFiles retrieval.MemSource
}

// Store keeps one record directory per (model, instance, run) under Dir:
// Dir/<model>/<instance_id>/run-<k>/ with result.json, test.log,
// model.patch and command.sh. Every file is written atomically (temp file
// in the same directory, then rename), result.json last, so a record is
// either complete or absent. Open takes an exclusive lock on Dir so two
// runs cannot share it; Close releases it.
type Store struct {
	Dir  string
	lock *os.File
}

// Names of the files in a record directory.
const (
	ResultFile  = "result.json"
	LogFile     = "test.log"
	PatchFile   = "model.patch"
	CommandFile = "command.sh"
)

// ErrLocked is returned by OpenStore when another process holds the store.
var ErrLocked = errors.New("output directory is in use by another polynfi run")

// StoreMarker is the file OpenStore writes into a directory it takes as
// its store. A non-empty directory without it, without ManifestFile and
// that is not a run written before either existed (RunDirKind) is not
// polynfi's: OpenStore refuses it and deletes nothing in it.
const StoreMarker = ".polynfi-store"

// ErrNotStore is returned (wrapped, with the directory) by OpenStore and
// ClaimDir for a non-empty directory that is not a polynfi run.
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
	return WriteFileAtomic(filepath.Join(dir, StoreMarker), []byte("polynfi output directory: polynfi may delete .work/ and its own temp files in here\n"))
}

// OpenStore opens (creating) the store at dir (ClaimDir: a non-empty
// directory that is not polynfi's is refused with ErrNotStore), locks it,
// and removes what an interrupted run left behind: the scratch directory
// .work and the temp files of interrupted atomic writes, which are only
// ever looked for under polynfi's own names (storeTempFile) in dir itself
// and in record directories (dir/<model>/<instance>/run-<k>).
func OpenStore(dir string) (*Store, error) {
	if err := ClaimDir(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644) // never a link
	if err != nil {
		return nil, err
	}
	if err := lockWithin(f, lockWait); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	s := &Store{Dir: dir, lock: f}
	_ = os.RemoveAll(s.ScratchDir())
	if err := os.MkdirAll(s.ScratchDir(), 0o755); err != nil {
		s.Close()
		return nil, err
	}
	removeStoreTemps(dir)
	if recDirs, err := filepath.Glob(filepath.Join(dir, "*", "*", "run-*")); err == nil {
		for _, d := range recDirs {
			// Only real directories of the store: never one reached
			// through a symbolic link, which may lead anywhere.
			if rel, _ := filepath.Rel(dir, d); !strings.HasPrefix(rel, ".") && noLinkBelow(dir, rel) {
				removeStoreTemps(d)
			}
		}
	}
	return s, nil
}

// storeTempNames are the files polynfi writes atomically into a store
// directory or a record directory; their temp files are
// ".tmp-<name>-<digits>" (internal/atomicfile).
var storeTempNames = []string{ResultFile, LogFile, PatchFile, CommandFile, ManifestFile, StoreMarker,
	"report.json", "report.html", "report.md", "metrics.json", "validation.json",
	"valid.csv", "valid.json", "valid.jsonl"}

// storeTempFile reports whether name is the temp file of an atomic write
// of one of storeTempNames.
func storeTempFile(name string) bool {
	for _, n := range storeTempNames {
		rest, ok := strings.CutPrefix(name, ".tmp-"+n+"-")
		if !ok || rest == "" {
			continue
		}
		if strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// noLinkBelow reports whether every element of rel below dir is a
// directory and none is a symbolic link.
func noLinkBelow(dir, rel string) bool {
	cur := dir
	for _, el := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// removeStoreTemps removes polynfi's temp files directly in dir (not below).
func removeStoreTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && storeTempFile(e.Name()) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// lockWait is how long OpenStore waits for a lock held elsewhere. A run
// that really owns the directory holds it for its whole length; the wait
// only covers a lock that outlives its Close for a moment, because a
// process forked by another goroutine (or another program) holds a copy of
// the descriptor between fork and exec.
const lockWait = 5 * time.Second

// lockWithin takes an exclusive flock on f, trying again every 50 ms for up
// to wait; ErrLocked when it is still held after that.
func lockWithin(f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close releases the lock.
func (s *Store) Close() error {
	if s.lock == nil {
		return nil
	}
	err := s.lock.Close()
	s.lock = nil
	return err
}

// ScratchDir is where workspaces and temporary files of in-flight
// instances live; it is emptied when the store is opened.
func (s *Store) ScratchDir() string { return filepath.Join(s.Dir, ".work") }

// safeName maps a model name to a directory name, never hidden. An
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
// directory, and Save refuses the second one's record.
func safeName(s string) string {
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

// RecordDir returns the directory of key's record (independent of the
// patch hash: one record per instance, model and run).
func (s *Store) RecordDir(k Key) string {
	return filepath.Join(s.Dir, safeName(k.Model), k.InstanceID, fmt.Sprintf("run-%d", k.Run))
}

// Load returns the record stored for k's instance, model and run, if any.
// ok is false when there is none; err is for an unreadable or corrupt one,
// and for one that is, or lies below, a symbolic link, or is not a regular
// file (safepath.OpenIn): a run directory is not trusted.
func (s *Store) Load(k Key) (rec *Record, ok bool, err error) {
	b, err := safepath.ReadFileIn(s.Dir, RecordRelDir(k)+"/"+ResultFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	rec = &Record{}
	if err := json.Unmarshal(b, rec); err != nil {
		return nil, false, fmt.Errorf("%s: %w", filepath.Join(s.RecordDir(k), ResultFile), err)
	}
	return rec, true, nil
}

// Done reports whether a complete record for exactly k (same patch hash)
// exists, and returns it. A record of a harness error (StatusError: the
// repository was missing, a workspace could not be made, ...) or of an
// infrastructure failure (StatusInfraFailure) is not done: such a failure
// says nothing about the patch, so re-running the same command tries the
// instance again once the cause is fixed.
func (s *Store) Done(k Key) (*Record, bool) {
	rec, ok, err := s.Load(k)
	if err != nil || !ok || rec.Key != k || rec.Schema != RecordSchema || rec.Status == grading.StatusError || rec.Status == grading.StatusInfraFailure {
		return nil, false
	}
	return rec, true
}

// Save writes rec and its artifacts. Artifacts go first and result.json
// last, each atomically, so that an interruption leaves either the old
// record or the new one. A symbolic link on the way below the store's
// directory is refused (the error wraps safepath.ErrUnsafe): a record is
// never written through one.
//
// Model names that SWE-bench's directory mapping does not tell apart
// ("org/m" and "org__m", see safeName) cannot share a store: the record
// of an instance already saved under the other name is not overwritten,
// and the error names both.
func (s *Store) Save(rec *Record, a Artifacts) error {
	rel := RecordRelDir(rec.Key)
	if old, err := safepath.ReadFileIn(s.Dir, rel+"/"+ResultFile); err == nil {
		var prev Key
		if json.Unmarshal(old, &prev) == nil && prev.InstanceID != "" && prev.Model != rec.Key.Model {
			return fmt.Errorf("model names %q and %q share the record directory %q (SWE-bench's mapping of \"/\" to \"__\"): run them in separate stores or rename one", prev.Model, rec.Key.Model, safeName(rec.Key.Model))
		}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{
		{LogFile, a.TestLog},
		{PatchFile, []byte(a.ModelPatch)},
		{CommandFile, []byte(a.Command)},
		{ResultFile, append(b, '\n')},
	} {
		if err := atomicfile.WriteFileIn(s.Dir, rel+"/"+f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// WriteFileAtomic writes data to path atomically (internal/atomicfile):
// readers see the old file or the new one, never a part.
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data) }

// InfraAttempt is one attempt that ended in an infrastructure failure and
// was retried (Record.RetriedInfraFailures).
type InfraAttempt struct {
	Reason  string        `json:"reason"` // a runtime.Reason* value
	Error   string        `json:"error,omitempty"`
	Sandbox *runtime.Info `json:"sandbox,omitempty"`
}
