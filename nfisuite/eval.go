package nfisuite

// The evaluation of an SWE-NFI task set as `polynfi eval` does it (moved
// from internal/cli, #25 item 7c).

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
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// EvalOptions say what Eval evaluates and how.
type EvalOptions struct {
	// Dataset is the task file; Predictions the prediction files, or
	// "gold" (the tasks' reference solutions), each an agent of its own.
	Dataset     string
	Predictions []string
	// Out is the run directory.
	Out         string
	Workers     int
	Redo        bool
	InstanceIDs []string
	// Timeout bounds one test run (0: runtime.DefaultTimeout).
	Timeout time.Duration
	// ReposDir holds the base repositories of tasks whose environment
	// names one; "" means <dataset dir>/repos when that exists.
	ReposDir string
	// NoIsolation runs the tasks' tests without bubblewrap.
	NoIsolation bool
	// Toolchains are more host directories the tests may read under
	// isolation (--toolchain: a node_modules holding tsc for TypeScript
	// tasks, ...), besides the toolchains found from PATH.
	Toolchains []string
	// Engine makes the NFI engine (driver.EvalEngine), once the inputs
	// are read.
	Engine func() (*nfi.Engine, error)
	// Version is polynfi's, noted in the manifest.
	Version string
	// Log receives a line per row or prediction left out, and the
	// sandbox's note.
	Log io.Writer
	// Progress is called with the runs done and their total, RunDone
	// when the run has ended.
	Progress func(done, total int)
	RunDone  func()
}

// EvalResult is what Eval did: the suite's result, when it started, and
// the rule catalog's version.
type EvalResult struct {
	*RunResult
	Start   time.Time
	Catalog string
}

// Eval evaluates predictions on SWE-NFI tasks (spec §3.1) as `polynfi
// eval` does: the task and prediction rows read (each one left out said
// on o.Log and kept in the manifest), nothing to evaluate an input error
// naming why (runrecord.UnusedPredictions), the engine made (o.Engine), the
// run directory claimed, every task's environment repository and commit
// checked (a set-up error otherwise), the manifest written before and
// completed after, one record per agent run written into o.Out. The
// caller renders the report from the stored records. On an error of the
// run (an interruption) the result says what was done.
func Eval(ctx context.Context, o EvalOptions) (*EvalResult, error) {
	ts, err := dataset.LoadNFITasks(o.Dataset)
	if err != nil {
		return nil, fmt.Errorf("load NFI tasks: %w", err)
	}
	// Rows that could not be read and prediction rows that were rejected
	// are kept in the manifest, so that every report names them.
	var inputErrors []string
	var duplicates []runrecord.DatasetRow
	// A row whose only problem is that an earlier row has its
	// instance_id is a duplicate (the first row is kept), not a row that
	// could not be read.
	rowErrs := map[int][]*dataset.RowError{}
	for _, re := range ts.Errors {
		rowErrs[re.Row] = append(rowErrs[re.Row], re)
	}
	badRows := map[int]bool{} // one error per field: count rows once
	unreadableTask := map[string]string{}
	for _, re := range ts.Errors {
		if es := rowErrs[re.Row]; len(es) == 1 && errors.Is(re.Err, dataset.ErrDuplicate) {
			fmt.Fprintf(o.Log, "polynfi: skipping duplicate task row (the first row of the task is kept): %s\n", textesc.Terminal(re.Error()))
			duplicates = append(duplicates, runrecord.DatasetRow{Kind: runrecord.RowDuplicate, File: re.File, Row: re.Row, Line: re.Line,
				InstanceID: re.InstanceID, Reason: re.Error()})
			continue
		}
		fmt.Fprintf(o.Log, "polynfi: skipping task: %s\n", textesc.Terminal(re.Error()))
		inputErrors = append(inputErrors, re.Error())
		badRows[re.Row] = true
		if re.InstanceID != "" && unreadableTask[re.InstanceID] == "" {
			unreadableTask[re.InstanceID] = re.Error()
		}
	}
	unreadableRows := len(badRows)
	rejected := 0
	var rejectedRows, ignored []runrecord.PredictionRow
	if len(ts.Tasks) == 0 {
		return nil, fmt.Errorf("%s: %w", o.Dataset, ErrNoTasks)
	}
	known := map[string]bool{}
	for _, tk := range ts.Tasks {
		known[tk.InstanceID] = true
	}
	for id := range unreadableTask {
		if known[id] {
			delete(unreadableTask, id) // read from another row
		}
	}
	var preds []dataset.Prediction
	// "gold" (the tasks' reference solutions) and prediction files
	// combine: each is an agent of its own in the suite.
	{
		for _, p := range o.Predictions {
			if p == "gold" {
				preds = append(preds, GoldPredictions(ts.Tasks)...)
				continue
			}
			ps, err := dataset.LoadPredictions(p)
			if err != nil {
				return nil, fmt.Errorf("load predictions: %w", err)
			}
			for _, re := range ps.Errors {
				fmt.Fprintf(o.Log, "polynfi: skipping prediction: %s\n", textesc.Terminal(re.Error()))
				inputErrors = append(inputErrors, re.Error())
				rejectedRows = append(rejectedRows, runrecord.PredictionRow{File: re.File, Row: re.Row, Line: re.Line,
					InstanceID: re.InstanceID, Field: re.Field, Reason: re.Err.Error()})
			}
			badLines := map[int]bool{}
			for _, re := range ps.Errors {
				badLines[re.Row] = true
			}
			rejected += len(badLines)
			// A prediction for a task the dataset does not have is named
			// here by file and row (the suite skips it, and would only say
			// model/instance/run).
			for _, pr := range ps.Predictions {
				switch {
				case unreadableTask[pr.InstanceID] != "":
					fmt.Fprintf(o.Log, "polynfi: %s: row %d: the task row of %q (model %s, run %d) could not be read: prediction not evaluated\n",
						p, pr.Row, pr.InstanceID, pr.ModelNameOrPath, pr.Run)
				case !known[pr.InstanceID]:
					fmt.Fprintf(o.Log, "polynfi: %s: row %d: instance_id %q (model %s, run %d) is not a task of %s: prediction ignored\n",
						p, pr.Row, pr.InstanceID, pr.ModelNameOrPath, pr.Run, o.Dataset)
				}
			}
			preds = append(preds, ps.Predictions...)
		}
	}
	// Nothing to evaluate is an input error (exit 3), as in the
	// repository eval: no prediction names a task of the evaluated set.
	{
		only := map[string]bool{}
		for _, id := range o.InstanceIDs {
			only[id] = true
		}
		n := 0
		u := runrecord.UnusedPredictions{Rejected: rejected, InstanceIDs: len(only) > 0, InputErrors: len(inputErrors)}
		for _, pr := range preds {
			switch {
			case unreadableTask[pr.InstanceID] != "":
				u.Unreadable++
			case !known[pr.InstanceID]:
				u.Unknown++
			case len(only) == 0 || only[pr.InstanceID]:
				n++
			default:
				u.Filtered++
			}
		}
		if n == 0 {
			return nil, u.NothingEvaluated("task", o.Dataset, strings.Join(o.Predictions, ","))
		}
	}
	eng, err := o.Engine()
	if err != nil {
		return nil, err
	}
	if err := runrecord.ClaimDir(o.Out); err != nil {
		return nil, err
	}
	reposDir := o.ReposDir
	if reposDir == "" {
		if d := filepath.Join(filepath.Dir(o.Dataset), "repos"); dirExists(d) {
			reposDir = d
		}
	}
	var repos *clones.Repos
	if reposDir != "" {
		repos = clones.New(reposDir, filepath.Join(o.Out, ".repos"))
	}
	// A task whose environment repository or commit is missing cannot be
	// tested at all: that is a set-up error of the whole call (exit 3),
	// not a test failure of every prediction of the task.
	if err := checkNFIEnvironments(ctx, ts.Tasks, o.InstanceIDs, repos, o.Dataset); err != nil {
		return nil, err
	}
	if dirExists(filepath.Join(o.Out, "records")) {
		if _, bad, err := nfirecord.ReadRecords(o.Out); err == nil {
			for _, b := range bad {
				fmt.Fprintf(o.Log, "polynfi: warning: unreadable record %s (%s): evaluating it again when this call covers it, else listed in the report\n", b.Path, b.Error)
			}
		}
	}
	// The manifest lists the (task, agent, run) units this call asks for,
	// merged with earlier calls', so that an interrupted run can say how
	// many were not evaluated.
	man, ok, err := runrecord.ReadManifest(o.Out)
	if err != nil {
		return nil, err
	}
	if !ok || man.Kind != runrecord.KindNFISuite {
		man = &runrecord.Manifest{Kind: runrecord.KindNFISuite}
	}
	man.Dataset, man.Predictions, man.Started, man.Complete, man.Finished = runrecord.ManifestPath(o.Dataset), strings.Join(o.Predictions, ","), time.Now().UTC(), false, time.Time{}
	man.DatasetSHA256 = runrecord.DatasetDigest(o.Dataset)
	man.NoteVersion(o.Version)
	man.InputErrors, man.UnreadableRows, man.Rejected = inputErrors, unreadableRows, rejected
	man.DuplicateRows = duplicates
	{
		// Predictions for tasks the dataset does not have: ignored (in no
		// table), named in every report format.
		known, only := map[string]bool{}, map[string]bool{}
		for _, tk := range ts.Tasks {
			known[tk.InstanceID] = true
		}
		for _, id := range o.InstanceIDs {
			only[id] = true
		}
		for _, p := range preds {
			if !known[p.InstanceID] && (len(only) == 0 || only[p.InstanceID]) {
				reason := "not a task of the dataset " + o.Dataset
				if why := unreadableTask[p.InstanceID]; why != "" {
					reason = "the task row of this task could not be read (" + why + "): not evaluated"
				}
				ignored = append(ignored, runrecord.PredictionRow{File: p.File, Row: p.Row, Line: p.Line, InstanceID: p.InstanceID, Model: p.ModelNameOrPath,
					Field: "instance_id", Reason: reason})
			}
		}
		man.RejectedRows, man.IgnoredPredictions = rejectedRows, ignored
	}
	{
		only := map[string]bool{}
		for _, id := range o.InstanceIDs {
			only[id] = true
		}
		type mr struct {
			model string
			run   int
		}
		seen := map[mr]bool{}
		var pairs []mr
		for _, p := range preds {
			k := mr{p.ModelNameOrPath, p.Run}
			if !seen[k] {
				seen[k] = true
				pairs = append(pairs, k)
			}
		}
		var units []runrecord.ManifestUnit
		var insts []runrecord.ManifestInstance
		for _, tk := range ts.Tasks {
			if len(only) > 0 && !only[tk.InstanceID] {
				continue
			}
			insts = append(insts, runrecord.ManifestInstance{InstanceID: tk.InstanceID})
			for _, p := range pairs {
				units = append(units, runrecord.ManifestUnit{Key: runrecord.Key{InstanceID: tk.InstanceID, Model: p.model, Run: p.run}})
			}
		}
		man.Merge(insts, units)
	}
	if err := man.Write(o.Out); err != nil {
		return nil, err
	}
	runner := runtime.NewLocal(ctx, runtime.LocalOptions{NoIsolation: o.NoIsolation, Toolchains: o.Toolchains})
	defer runner.Close()
	if err := runtime.CheckSandbox(o.Log, runner); err != nil {
		return nil, err
	}
	suite := &Suite{Engine: eng, Runner: runner, Timeout: o.Timeout, Repos: repos}
	start := time.Now()
	res, runErr := suite.Run(ctx, ts.Tasks, preds, RunOptions{
		Out: o.Out, Workers: o.Workers, Redo: o.Redo, InstanceIDs: o.InstanceIDs,
		Progress: func(done, total int, r nfirecord.Record, reused bool) {
			if o.Progress != nil {
				o.Progress(done, total)
			}
		},
	})
	if o.RunDone != nil {
		o.RunDone()
	}
	if runErr != nil {
		if ctx.Err() != nil && res != nil {
			fmt.Fprintf(o.Log, "polynfi: interrupted after %s: %d records written, %d up to date\n",
				time.Since(start).Round(time.Second), res.Evaluated, res.Reused)
		}
		return &EvalResult{RunResult: res, Start: start}, runErr
	}
	man.Complete, man.Finished = true, time.Now().UTC()
	if err := man.Write(o.Out); err != nil {
		return nil, err
	}
	return &EvalResult{RunResult: res, Start: start, Catalog: eng.Catalog.Version}, nil
}

// dirExists says whether p is a directory.
func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// checkNFIEnvironments checks that every selected task whose environment
// names a base repository can have it: the repository is found under
// repos (a clone or bundle) and holds the commit. The error names each
// task, repository, commit and where it was looked for.
func checkNFIEnvironments(ctx context.Context, tasks []dataset.NFITask, ids []string, repos *clones.Repos, datasetPath string) error {
	only := map[string]bool{}
	for _, id := range ids {
		only[id] = true
	}
	var errs []error
	for i := range tasks {
		t := &tasks[i]
		if t.Environment == nil || t.Environment.Repo == "" || (len(only) > 0 && !only[t.InstanceID]) {
			continue
		}
		repo, commit := t.Environment.Repo, t.Environment.BaseCommit
		if commit == "" {
			commit = t.BaseCommit
		}
		if commit == "" {
			errs = append(errs, fmt.Errorf("task %s: environment names repository %s but no base_commit", t.InstanceID, repo))
			continue
		}
		if repos == nil {
			errs = append(errs, fmt.Errorf("task %s: its environment needs repository %s at %s, and there is no repositories directory (looked for %s; give --repos-dir DIR holding DIR/%s, DIR/%s or DIR/%s.bundle)",
				t.InstanceID, repo, shortID(commit), filepath.Join(filepath.Dir(datasetPath), "repos"), strings.ReplaceAll(repo, "/", "__"), repo, strings.ReplaceAll(repo, "/", "__")))
			continue
		}
		src, err := repos.Source(ctx, repo)
		if err != nil {
			errs = append(errs, fmt.Errorf("task %s: environment repository: %w", t.InstanceID, err))
			continue
		}
		if ok, err := gitexec.HasCommit(ctx, src, commit); err != nil || !ok {
			errs = append(errs, fmt.Errorf("task %s: environment repository %s (%s) has no commit %s", t.InstanceID, repo, src, commit))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("set-up error, nothing evaluated: %w", errors.Join(errs...))
	}
	return nil
}

// shortID is a commit id's first 12 characters.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
