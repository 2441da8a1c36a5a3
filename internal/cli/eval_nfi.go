package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/driver"
	"github.com/polynfi/polynfi/nfisuite"
	"github.com/polynfi/polynfi/runtime"
)

// nfiEvalOptions are the eval flags that apply to an SWE-NFI task dataset.
type nfiEvalOptions struct {
	dataset     string
	predictions []string // files, or the single word "gold"
	out         string
	workers     int
	redo        bool
	instanceIDs []string
	timeout     time.Duration
	format      string
	catalog     string
	config      string
	// reposDir holds the base repositories of tasks whose environment names
	// one; "" means <dataset dir>/repos when that exists.
	reposDir string
	// noIsolation runs the tasks' tests without bubblewrap.
	noIsolation bool
	// pythonMinor is --python-version's minor version (0: the newest).
	pythonMinor int
}

// runNFIEval evaluates predictions on SWE-NFI tasks (spec §3.1), writes one
// record per agent run and report.json/.md/.html into out, and prints the
// tables on stdout.
func runNFIEval(e *env, o nfiEvalOptions) error {
	ts, err := dataset.LoadNFITasks(o.dataset)
	if err != nil {
		return fmt.Errorf("load NFI tasks: %w", err)
	}
	// Rows that could not be read and prediction rows that were rejected
	// are kept in the manifest, so that every report names them.
	var inputErrors []string
	var duplicates []harness.DatasetRow
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
			fmt.Fprintf(e.stderr, "polynfi: skipping duplicate task row (the first row of the task is kept): %s\n", textesc.Terminal(re.Error()))
			duplicates = append(duplicates, harness.DatasetRow{Kind: harness.RowDuplicate, File: re.File, Row: re.Row, Line: re.Line,
				InstanceID: re.InstanceID, Reason: re.Error()})
			continue
		}
		fmt.Fprintf(e.stderr, "polynfi: skipping task: %s\n", textesc.Terminal(re.Error()))
		inputErrors = append(inputErrors, re.Error())
		badRows[re.Row] = true
		if re.InstanceID != "" && unreadableTask[re.InstanceID] == "" {
			unreadableTask[re.InstanceID] = re.Error()
		}
	}
	unreadableRows := len(badRows)
	rejected := 0
	var rejectedRows, ignored []harness.PredictionRow
	if len(ts.Tasks) == 0 {
		return fmt.Errorf("%s: %w", o.dataset, nfisuite.ErrNoTasks)
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
		for _, p := range o.predictions {
			if p == "gold" {
				preds = append(preds, nfisuite.GoldPredictions(ts.Tasks)...)
				continue
			}
			ps, err := dataset.LoadPredictions(p)
			if err != nil {
				return fmt.Errorf("load predictions: %w", err)
			}
			for _, re := range ps.Errors {
				fmt.Fprintf(e.stderr, "polynfi: skipping prediction: %s\n", textesc.Terminal(re.Error()))
				inputErrors = append(inputErrors, re.Error())
				rejectedRows = append(rejectedRows, harness.PredictionRow{File: re.File, Row: re.Row, Line: re.Line,
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
					fmt.Fprintf(e.stderr, "polynfi: %s: row %d: the task row of %q (model %s, run %d) could not be read: prediction not evaluated\n",
						p, pr.Row, pr.InstanceID, pr.ModelNameOrPath, pr.Run)
				case !known[pr.InstanceID]:
					fmt.Fprintf(e.stderr, "polynfi: %s: row %d: instance_id %q (model %s, run %d) is not a task of %s: prediction ignored\n",
						p, pr.Row, pr.InstanceID, pr.ModelNameOrPath, pr.Run, o.dataset)
				}
			}
			preds = append(preds, ps.Predictions...)
		}
	}
	// Nothing to evaluate is an input error (exit 3), as in the
	// repository eval: no prediction names a task of the evaluated set.
	{
		only := map[string]bool{}
		for _, id := range o.instanceIDs {
			only[id] = true
		}
		n := 0
		u := unusedPredictions{rejected: rejected, instanceIDs: len(only) > 0, inputErrors: len(inputErrors)}
		for _, pr := range preds {
			switch {
			case unreadableTask[pr.InstanceID] != "":
				u.unreadable++
			case !known[pr.InstanceID]:
				u.unknown++
			case len(only) == 0 || only[pr.InstanceID]:
				n++
			default:
				u.filtered++
			}
		}
		if n == 0 {
			return u.nothingEvaluated("task", o.dataset, strings.Join(o.predictions, ","))
		}
	}
	cat, err := catalog.Get(o.catalog)
	if err != nil {
		return usageError{err}
	}
	var settings nfi.Settings
	if o.config != "" {
		if settings, err = nfi.LoadSettings(o.config); err != nil {
			return err
		}
	}
	eng, err := nfi.NewEngine(cat, settings)
	if err != nil {
		return err
	}
	eng.PythonMinor = o.pythonMinor
	if err := harness.ClaimDir(o.out); err != nil {
		return err
	}
	reposDir := o.reposDir
	if reposDir == "" {
		if d := filepath.Join(filepath.Dir(o.dataset), "repos"); dirExists(d) {
			reposDir = d
		}
	}
	var repos *harness.Repos
	if reposDir != "" {
		repos = harness.NewRepos(reposDir, filepath.Join(o.out, ".repos"))
	}
	// A task whose environment repository or commit is missing cannot be
	// tested at all: that is a set-up error of the whole call (exit 3),
	// not a test failure of every prediction of the task.
	if err := checkNFIEnvironments(e.ctx, ts.Tasks, o.instanceIDs, repos, o.dataset); err != nil {
		return err
	}
	if dirExists(filepath.Join(o.out, "records")) {
		if _, bad, err := nfisuite.ReadRecords(o.out); err == nil {
			for _, b := range bad {
				fmt.Fprintf(e.stderr, "polynfi: warning: unreadable record %s (%s): evaluating it again when this call covers it, else listed in the report\n", b.Path, b.Error)
			}
		}
	}
	// The manifest lists the (task, agent, run) units this call asks for,
	// merged with earlier calls', so that an interrupted run can say how
	// many were not evaluated.
	man, ok, err := harness.ReadManifest(o.out)
	if err != nil {
		return err
	}
	if !ok || man.Kind != harness.KindNFISuite {
		man = &harness.Manifest{Kind: harness.KindNFISuite}
	}
	man.Dataset, man.Predictions, man.Started, man.Complete, man.Finished = manifestPath(o.dataset), strings.Join(o.predictions, ","), time.Now().UTC(), false, time.Time{}
	man.DatasetSHA256 = harness.DatasetDigest(o.dataset)
	man.NoteVersion(polynfiVersion())
	man.InputErrors, man.UnreadableRows, man.Rejected = inputErrors, unreadableRows, rejected
	man.DuplicateRows = duplicates
	{
		// Predictions for tasks the dataset does not have: ignored (in no
		// table), named in every report format.
		known, only := map[string]bool{}, map[string]bool{}
		for _, tk := range ts.Tasks {
			known[tk.InstanceID] = true
		}
		for _, id := range o.instanceIDs {
			only[id] = true
		}
		for _, p := range preds {
			if !known[p.InstanceID] && (len(only) == 0 || only[p.InstanceID]) {
				reason := "not a task of the dataset " + o.dataset
				if why := unreadableTask[p.InstanceID]; why != "" {
					reason = "the task row of this task could not be read (" + why + "): not evaluated"
				}
				ignored = append(ignored, harness.PredictionRow{File: p.File, Row: p.Row, Line: p.Line, InstanceID: p.InstanceID, Model: p.ModelNameOrPath,
					Field: "instance_id", Reason: reason})
			}
		}
		man.RejectedRows, man.IgnoredPredictions = rejectedRows, ignored
	}
	{
		only := map[string]bool{}
		for _, id := range o.instanceIDs {
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
		var units []harness.ManifestUnit
		var insts []harness.ManifestInstance
		for _, tk := range ts.Tasks {
			if len(only) > 0 && !only[tk.InstanceID] {
				continue
			}
			insts = append(insts, harness.ManifestInstance{InstanceID: tk.InstanceID})
			for _, p := range pairs {
				units = append(units, harness.ManifestUnit{Key: harness.Key{InstanceID: tk.InstanceID, Model: p.model, Run: p.run}})
			}
		}
		man.Merge(insts, units)
	}
	if err := man.Write(o.out); err != nil {
		return err
	}
	runner := runtime.NewLocal(e.ctx, runtime.LocalOptions{NoIsolation: o.noIsolation})
	defer runner.Close()
	if err := checkSandbox(e, runner); err != nil {
		return err
	}
	suite := &nfisuite.Suite{Engine: eng, Runner: runner, Timeout: o.timeout, Repos: repos}
	start := time.Now()
	bar := newBar(e.stderr, 0, "evaluating")
	res, runErr := suite.Run(e.ctx, ts.Tasks, preds, nfisuite.RunOptions{
		Out: o.out, Workers: o.workers, Redo: o.redo, InstanceIDs: o.instanceIDs,
		Progress: func(done, total int, r nfisuite.Record, reused bool) {
			bar.setTotal(total)
			bar.set(done)
		},
	})
	bar.finish()
	if runErr != nil {
		if e.ctx.Err() != nil && res != nil {
			fmt.Fprintf(e.stderr, "polynfi: interrupted after %s: %d records written, %d up to date\n",
				time.Since(start).Round(time.Second), res.Evaluated, res.Reused)
		}
		return runErr
	}
	man.Complete, man.Finished = true, time.Now().UTC()
	if err := man.Write(o.out); err != nil {
		return err
	}
	// The report is rendered from the stored records, as `polynfi report` does.
	records, bad, err := nfisuite.ReadRecords(o.out)
	if err != nil {
		return err
	}
	rep := buildNFIReport(o.out, records, eng.Catalog.Version)
	rep.UnreadableRecords = bad
	if err := writeNFIRunReport(o.out, rep); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "polynfi: %d runs (%d evaluated, %d up to date, %d missing predictions) in %s; report: %s\n",
		len(records), res.Evaluated, res.Reused, res.Missing, time.Since(start).Round(time.Millisecond), strings.TrimSuffix(o.out, "/")+"/report.json")
	format := o.format
	if format == "" {
		format = "text"
	}
	return renderNFI(e.stdout, rep, format, false)
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// checkNFIEnvironments checks that every selected task whose environment
// names a base repository can have it: the repository is found under
// repos (a clone or bundle) and holds the commit. The error names each
// task, repository, commit and where it was looked for.
func checkNFIEnvironments(ctx context.Context, tasks []dataset.NFITask, ids []string, repos *harness.Repos, datasetPath string) error {
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
				t.InstanceID, repo, driver.ShortID(commit), filepath.Join(filepath.Dir(datasetPath), "repos"), strings.ReplaceAll(repo, "/", "__"), repo, strings.ReplaceAll(repo, "/", "__")))
			continue
		}
		src, err := repos.Source(ctx, repo)
		if err != nil {
			errs = append(errs, fmt.Errorf("task %s: environment repository: %w", t.InstanceID, err))
			continue
		}
		if _, err := gitexec.Output(ctx, src, nil, "cat-file", "-e", commit+"^{commit}"); err != nil {
			errs = append(errs, fmt.Errorf("task %s: environment repository %s (%s) has no commit %s", t.InstanceID, repo, src, commit))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("set-up error, nothing evaluated: %w", errors.Join(errs...))
	}
	return nil
}
