package harness

// The evaluation of a run of repository-level instances, as `polynfi
// eval` does it (moved from internal/cli, #25 item 7c): the harness, its
// runtime attached by the caller, the manifest before and after, the run.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// EvalOptions say how Eval runs.
type EvalOptions struct {
	// Dataset is the dataset path as given; Out the run directory
	// (absolute); ReposDir the directory of repository clones ("":
	// DatasetDir(Dataset)/repos); RunID the name of the run in every
	// record ("": DefaultRunID of the predictions, "a+b" for two files).
	Dataset, Out, ReposDir, RunID string
	// InstanceIDs is the call's --instance-ids (the predictions of other
	// instances are then not listed as ignored).
	InstanceIDs []string
	Workers     int
	Redo        bool
	// Timeout of a test command (0: the language's default).
	Timeout time.Duration
	// Retrieval is the retrieval metrics' mode: compatible, extended or
	// off (ParseRetrieval).
	Retrieval string
	// Retries of an instance that ends in an infrastructure failure.
	Retries int
	// CleanRoom grades each patch that changes a non-source path again in
	// a fresh sandbox with its source paths only (Harness.CleanRoom).
	CleanRoom bool
	// ValidationFile is validate's report of the dataset ("": none).
	ValidationFile string
	// NFI, when set, scores the changed source files (nfi.IsSource) before
	// and after, each by its language's rules.
	NFI *nfi.Engine
	// Version is polynfi's, noted in the manifest.
	Version string
	// Log receives the notes of the run (unreadable records, sandboxes
	// not removed).
	Log io.Writer
	// Progress is called with the units done (of len(in.Jobs)), RunDone
	// when the run has ended, before anything is removed.
	Progress func(done int)
	RunDone  func()
	// Started and Finished, when set, are called with an instance id when
	// a worker begins evaluating it and when its record is done (Finished
	// also for the instances found recorded by an earlier run); Started may
	// be called from several goroutines at once.
	Started, Finished func(instanceID string)
	// RunKey labels the run's sandboxes (the same for a re-run into Out).
	RunKey string
	// Attach gives h its runtime (and images) before anything is
	// evaluated; the returned function ends them, after the run.
	Attach func(ctx context.Context, h *Harness) (detach func(), err error)
}

// UsageError is an error in what the command line asked (exit code 2):
// IsUsage reports true.
type UsageError struct{ err error }

func (e UsageError) Error() string { return e.err.Error() }
func (e UsageError) Unwrap() error { return e.err }

// IsUsage reports true: the error is in the command line.
func (e UsageError) IsUsage() bool { return true }

func usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// DatasetDir is the directory of a dataset: a task repository's own
// directory, else the file's directory, made absolute. Its repos/ holds
// the repository clones by default; its env/ the toolchains it ships.
func DatasetDir(path string) (string, error) {
	if dataset.IsTaskRepo(path) {
		return filepath.Abs(path)
	}
	return filepath.Abs(filepath.Dir(path))
}

// ParseRetrieval is the retrieval options of a mode: nil for off, else
// compatible or extended with node-level metrics; another mode is a usage
// error.
func ParseRetrieval(mode string) (*retrieval.Options, error) {
	if mode == "off" {
		return nil, nil
	}
	m, err := retrieval.ParseMode(mode)
	if err != nil {
		return nil, UsageError{err}
	}
	return &retrieval.Options{Mode: m, Nodes: true}, nil
}

// Eval evaluates in's jobs into o.Out, as `polynfi eval` does: the store
// of o.Out opened (refusing a directory not polynfi's), unreadable records
// named on o.Log, the harness attached to its runtime (o.Attach), the
// manifest written before anything is evaluated and completed after, the
// jobs run. It returns the manifest written and the run's result; err is
// the run's error (an interruption: res.Interrupted) once the manifest is
// written, when man is not nil, else the error that stopped it before or
// after. in must have jobs (in.NothingEvaluated otherwise).
func Eval(ctx context.Context, in *EvalInputs, o EvalOptions) (man *runrecord.Manifest, res *RunResult, err error) {
	start := time.Now()
	if err := o.defaults(in); err != nil {
		return nil, nil, err
	}
	ropts, err := ParseRetrieval(o.Retrieval)
	if err != nil {
		return nil, nil, err
	}
	if len(in.Jobs) == 0 {
		return nil, nil, in.NothingEvaluated(o.Dataset)
	}
	mode := grading.Mode(in.Dataset.NativeMode())
	store, err := OpenStore(o.Out)
	if err != nil {
		return nil, nil, err
	}
	defer store.Close()
	warnUnreadableRecords(o.Log, o.Out, in.Jobs)
	h := &Harness{
		Repos:      clones.New(o.ReposDir, filepath.Join(o.Out, ".repos")),
		ScratchDir: store.ScratchDir(),
		Timeout:    o.Timeout,
		NativeMode: mode,
		RunID:      o.RunID,
		Retrieval:  ropts,
		Retries:    o.Retries,
		CleanRoom:  o.CleanRoom,
		RunKey:     o.RunKey,
	}
	detach, err := o.Attach(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if detach != nil {
			detach()
		}
	}()
	if o.ValidationFile != "" {
		if h.Validation, err = LoadValidation(o.ValidationFile); err != nil {
			return nil, nil, fmt.Errorf("--validation: %w", err)
		}
	}
	h.NFI = o.NFI
	man, err = startManifest(ctx, o, in, h, mode, start)
	if err != nil {
		return nil, nil, err
	}
	ro := RunOptions{Workers: o.Workers, Redo: o.Redo, Progress: func(ev Event) {
		if o.Finished != nil {
			o.Finished(ev.Job.Instance.InstanceID)
		}
		if o.Progress != nil {
			o.Progress(ev.Done)
		}
	}}
	if o.Started != nil {
		ro.Started = func(j Job) { o.Started(j.Instance.InstanceID) }
	}
	res, runErr := h.Run(ctx, in.Jobs, store, ro)
	if o.RunDone != nil {
		o.RunDone()
	}
	if res != nil && len(res.RemoveErrors) > 0 {
		fmt.Fprintf(o.Log, "polynfi: %d sandbox(es) could not be removed: %s\n", len(res.RemoveErrors), strings.Join(res.RemoveErrors, "; "))
	}
	detach()
	detach = nil
	man.Complete = runErr == nil && res != nil && !res.Interrupted
	man.Finished = time.Now().UTC()
	if err := man.Write(o.Out); err != nil {
		return nil, res, err
	}
	return man, res, runErr
}

// startManifest merges this call's evaluated set and predictions into
// OUT's manifest (creating it), marks the run incomplete until it ends,
// and writes it before anything is evaluated. Units without a prediction
// get the metrics of an empty prediction, computed by the harness as for
// an evaluated empty prediction.
func startManifest(ctx context.Context, o EvalOptions, in *EvalInputs, h *Harness, mode grading.Mode, start time.Time) (*runrecord.Manifest, error) {
	man, ok, err := runrecord.ReadManifest(o.Out)
	if err != nil {
		return nil, err
	}
	if !ok || man.Kind != runrecord.KindHarness {
		man = &runrecord.Manifest{Kind: runrecord.KindHarness}
	}
	man.RunID, man.Dataset, man.DatasetSchema, man.Predictions = o.RunID, runrecord.ManifestPath(in.Dataset.Path), string(in.Dataset.Schema), in.PredName
	man.DatasetSHA256 = runrecord.DatasetDigest(o.Dataset)
	man.NativeMode, man.Workers, man.InputErrors, man.Started = mode, o.Workers, in.InputErrors, start.UTC()
	man.UnreadableRows, man.NotRunnable = in.Unreadable, in.NotRunnable
	man.UnreadRows, man.DuplicateRows = in.UnreadRows, in.Duplicates
	man.RejectedRows = runrecord.MergePredictionRows(man.RejectedRows, in.RejectedRows, in.PredFiles)
	if len(o.InstanceIDs) == 0 {
		man.IgnoredPredictions = runrecord.MergePredictionRows(man.IgnoredPredictions, in.Ignored, in.PredFiles)
	}
	man.Rejected = runrecord.CountRows(man.RejectedRows)
	man.Retrieval = ""
	if o.Retrieval != "off" {
		man.Retrieval = o.Retrieval
	}
	man.Complete, man.Finished = false, time.Time{}
	man.NoteVersion(o.Version)
	var units []runrecord.ManifestUnit
	for _, j := range in.Jobs {
		units = append(units, runrecord.ManifestUnit{Key: j.Key(), Empty: j.Prediction.Empty()})
	}
	var insts []runrecord.ManifestInstance
	for _, x := range in.Instances {
		insts = append(insts, runrecord.ManifestInstance{InstanceID: x.InstanceID, Repo: x.Repo, Language: x.Language, TaskCategory: x.TaskCategory})
	}
	man.Merge(insts, units)
	// An instance that some (model, run) pair of the run (over every eval
	// call into OUT) has no prediction for keeps the metrics of an empty
	// prediction: that pair's missing unit counts 0 in the localization
	// means, whether or not another model predicted the instance.
	need := man.InstancesMissingAUnit()
	inCall := map[string]bool{}
	for _, x := range in.Instances {
		inCall[x.InstanceID] = true
	}
	// Every instance of this call also keeps its reference change's
	// complexity class (from the same empty-prediction metrics), so that
	// a unit an interruption leaves without a record still counts in its
	// class's group as not evaluated.
	for i := range man.Instances {
		mi := &man.Instances[i]
		if !inCall[mi.InstanceID] {
			if !need[mi.InstanceID] {
				mi.EmptyRetrieval = nil
			}
			continue
		}
		mi.EmptyRetrieval = nil
		for _, x := range in.Instances {
			if x.InstanceID != mi.InstanceID {
				continue
			}
			if em := h.EmptyPredictionMetrics(ctx, x); em != nil {
				mi.ComplexityClass = em.Complexity
				if need[mi.InstanceID] {
					mi.EmptyRetrieval = em
				}
			}
		}
	}
	return man, man.Write(o.Out)
}

// warnUnreadableRecords names, on log, every record file in out that
// cannot be read: the unit is evaluated again when this call has a job for
// it (its record is then replaced), and otherwise stays unreadable and is
// listed in the report.
func warnUnreadableRecords(log io.Writer, out string, jobs []Job) {
	_, bad, err := runrecord.ReadRecords(out)
	if err != nil || len(bad) == 0 {
		return
	}
	dirs := map[string]bool{}
	for _, j := range jobs {
		dirs[filepath.Join(out, filepath.FromSlash(runrecord.RecordRelDir(j.Key())))] = true
	}
	for _, b := range bad {
		if dirs[filepath.Dir(b.Path)] {
			fmt.Fprintf(log, "polynfi: warning: unreadable record %s (%s): evaluating it again\n", b.Path, b.Error)
		} else {
			fmt.Fprintf(log, "polynfi: warning: unreadable record %s (%s): not in this call, listed in the report\n", b.Path, b.Error)
		}
	}
}

// defaults fills o.ReposDir (DatasetDir(o.Dataset)/repos) and o.RunID
// (the predictions' base name) when not given.
func (o *EvalOptions) defaults(in *EvalInputs) error {
	if o.ReposDir == "" {
		dsDir, err := DatasetDir(o.Dataset)
		if err != nil {
			return err
		}
		o.ReposDir = filepath.Join(dsDir, "repos")
	}
	if o.RunID == "" {
		o.RunID = DefaultRunID(in.PredSources)
	}
	return nil
}

// DefaultRunID is the name of a run whose --run-id is not given: the base
// name of each prediction source without its extension ("gold" for the
// reference patches), joined by "+" in the order given, so that a run of
// a.jsonl and b.jsonl is "a+b", not the name of one of them. Empty
// sources are left out; none at all is "run".
func DefaultRunID(predictions []string) string {
	var stems []string
	for _, p := range predictions {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		b := filepath.Base(p)
		stem := strings.TrimSuffix(b, filepath.Ext(b))
		if stem == "" {
			stem = b
		}
		stems = append(stems, stem)
	}
	if len(stems) == 0 {
		return "run"
	}
	return strings.Join(stems, "+")
}

// MetricsOnly computes retrieval metrics without running any test, as
// SWE-PolyBench's --metrics-only: per job of in (MetricsOnlyJobs), with
// the local sandbox of local trying patches git apply alone does not
// apply. o.Out, when set, is claimed (a run directory of another kind is
// a usage error) and holds the repository cache. It returns the metrics,
// the run's manifest (not written: the caller writes it after
// metrics.json), and unitErrs naming each unit whose metrics could not be
// computed; err stops it (nothing evaluated, o.Out refused, ctx done).
func MetricsOnly(ctx context.Context, in *EvalInputs, o EvalOptions, local runtime.LocalOptions) (ms []retrieval.InstanceMetrics, man *runrecord.Manifest, unitErrs, err error) {
	if err := o.defaults(in); err != nil {
		return nil, nil, nil, err
	}
	ropts, err := ParseRetrieval(o.Retrieval)
	if err != nil {
		return nil, nil, nil, err
	}
	if ropts == nil {
		return nil, nil, nil, usagef("--metrics-only needs --retrieval compatible or extended")
	}
	if len(in.Jobs) == 0 {
		// As a full eval: nothing to score is an input error (exit 3),
		// not a table of zeros.
		return nil, nil, nil, in.NothingEvaluated(o.Dataset)
	}
	repos := clones.New(o.ReposDir, filepath.Join(os.TempDir(), "polynfi-repos-cache"))
	if o.Out != "" {
		// OUT is claimed before anything is written into it (.repos), and
		// a run directory of another kind is refused: its manifest would be
		// replaced and its records would drop out of its report.
		if kind, _, err := runrecord.RunDirKind(o.Out); err == nil && kind != "" && kind != runrecord.KindMetricsOnly {
			return nil, nil, nil, usagef("--metrics-only --out %s: %s already holds a %s run; its report would lose the stored records. Give another --out", o.Out, o.Out, kind)
		}
		if err := runrecord.ClaimDir(o.Out); err != nil {
			return nil, nil, nil, err
		}
		repos.CacheDir = filepath.Join(o.Out, ".repos")
	}
	// The metrics are those of an evaluated run, computed by the same
	// code (PredictionMetrics): a patch counts as applied when the apply
	// cascade applies it, tried in a work tree of the local runtime when
	// git apply alone does not.
	scratch, err := os.MkdirTemp("", "polynfi-metrics-")
	if err != nil {
		return nil, nil, nil, err
	}
	defer os.RemoveAll(scratch)
	h := &Harness{Repos: repos, ScratchDir: scratch, Retrieval: ropts}
	runner := runtime.NewLocal(ctx, local)
	defer runner.Close()
	if !runner.Refuses() {
		h.Runtime = runner
	}
	var errs []error
	jobs := MetricsOnlyJobs(in)
	for _, j := range jobs {
		if ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		m, note := h.PredictionMetrics(ctx, j.Instance, j.Prediction)
		if note != "" {
			fmt.Fprintf(o.Log, "polynfi: %s: %s\n", j.Instance.InstanceID, note)
		}
		if m == nil {
			errs = append(errs, fmt.Errorf("%s: retrieval metrics could not be computed (%s)", j.Instance.InstanceID, note))
			continue
		}
		ms = append(ms, *m)
	}
	man = &runrecord.Manifest{Kind: runrecord.KindMetricsOnly, RunID: o.RunID, Dataset: in.Dataset.Path, DatasetSchema: string(in.Dataset.Schema), DatasetSHA256: runrecord.DatasetDigest(o.Dataset),
		Predictions: in.PredName, Retrieval: o.Retrieval, InputErrors: in.InputErrors, Complete: len(errs) == 0, Finished: time.Now().UTC(),
		UnreadableRows: in.Unreadable, NotRunnable: in.NotRunnable, Rejected: in.Rejected, RejectedRows: in.RejectedRows, IgnoredPredictions: in.Ignored,
		UnreadRows: in.UnreadRows, DuplicateRows: in.Duplicates, Units: MetricsOnlyUnits(jobs, len(in.Jobs))}
	man.NoteVersion(o.Version)
	return ms, man, errors.Join(errs...), nil
}
