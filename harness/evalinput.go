package harness

// The inputs of an evaluation of repository-level instances: the dataset
// rows read, the predictions matched to them, and an account of every row
// and prediction left out and why (moved from internal/cli, #25 item 7c).

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runrecord"
)

// InputOptions say what LoadEvalInputs reads.
type InputOptions struct {
	// Dataset is the dataset file or task repository; Predictions the
	// prediction files, or "gold" (the dataset's reference patches), each
	// a model of its own.
	Dataset     string
	Predictions []string
	// InstanceIDs restricts the call to these instances (none: all).
	InstanceIDs []string
	// Containers is true when the run's runtime starts containers (rows
	// with an eval_script and no test_command run only there);
	// ImageTemplate is the run's --image-template ("" when none).
	Containers    bool
	ImageTemplate string
	// Log receives one line per row or prediction skipped.
	Log io.Writer
}

// EvalInputs are the loaded inputs of an instance evaluation.
type EvalInputs struct {
	// Unreadable, NotRunnable and Rejected count what the summary must
	// not drop: dataset rows not read, rows that cannot run, prediction
	// rows not read or naming no instance.
	Unreadable, NotRunnable, Rejected int
	Dataset                           *dataset.Dataset
	Instances                         []dataset.Instance
	Jobs                              []Job
	// InputErrors name the dataset rows not read or not runnable (not the
	// duplicates); UnreadRows are those rows one by one (instance id,
	// language and task category where readable), Duplicates the rows
	// whose instance_id an earlier row has; RejectedRows the prediction
	// rows not read, Ignored the predictions naming an instance id the
	// dataset does not have or whose row could not be read or cannot run
	// (in no denominator as predictions).
	InputErrors            []string
	UnreadRows, Duplicates []runrecord.DatasetRow
	RejectedRows, Ignored  []runrecord.PredictionRow
	// PredFiles are the prediction files read, PredSources the
	// predictions as given ("gold" and files, in order), PredName those
	// comma-separated.
	PredFiles   []string
	PredSources []string
	PredName    string
	Unused      runrecord.UnusedPredictions
}

// LoadEvalInputs reads the dataset and predictions o names and matches
// them into jobs; every row or prediction left out is said on o.Log and
// counted. An --instance-ids id not in the dataset is a usage error; a
// dataset with nothing runnable an input error.
func LoadEvalInputs(o InputOptions) (*EvalInputs, error) {
	ds, err := dataset.Load(o.Dataset)
	if err != nil {
		return nil, fmt.Errorf("load dataset: %w", err)
	}
	in := &EvalInputs{Dataset: ds}
	in.Unused.InstanceIDs = len(o.InstanceIDs) > 0
	inDataset := map[string]bool{}
	for _, x := range ds.Instances {
		inDataset[x.InstanceID] = true
	}
	// A row that could not be read but names an instance read from
	// another row is a duplicate too: the instance counts once, from the
	// row that was read.
	var unread []dataset.UnreadRow
	dupRow := map[int]bool{} // data rows (one file, or one task repository)
	for _, u := range ds.Unread {
		if u.InstanceID != "" && inDataset[u.InstanceID] {
			dupRow[u.Row] = true
			fmt.Fprintf(o.Log, "polynfi: skipping duplicate row (instance %s is read from another row): %s\n", u.InstanceID, u.Reason())
			in.Duplicates = append(in.Duplicates, runrecord.DatasetRow{Kind: runrecord.RowDuplicate, File: u.File, Row: u.Row, Line: u.Line, InstanceID: u.InstanceID,
				Reason: u.Reason() + " (a duplicate: instance " + u.InstanceID + " is read from another row, counted once)"})
			continue
		}
		unread = append(unread, u)
	}
	for _, re := range ds.Errors {
		if dupRow[re.Row] {
			continue
		}
		if errors.Is(re.Err, dataset.ErrDuplicate) {
			// A duplicate is no unread row: its instance was read from
			// the first row, and counts once.
			fmt.Fprintf(o.Log, "polynfi: skipping duplicate row (the first row of the instance is kept): %s\n", textesc.Terminal(re.Error()))
			in.Duplicates = append(in.Duplicates, runrecord.DatasetRow{Kind: runrecord.RowDuplicate, File: re.File, Row: re.Row, Line: re.Line,
				InstanceID: re.InstanceID, Reason: re.Error()})
			continue
		}
		fmt.Fprintf(o.Log, "polynfi: skipping row: %s\n", textesc.Terminal(re.Error()))
		in.InputErrors = append(in.InputErrors, re.Error())
	}
	sort.SliceStable(in.Duplicates, func(i, j int) bool { return in.Duplicates[i].Row < in.Duplicates[j].Row })
	// Unreadable rows count once each in every denominator (ds.Unread: a
	// row with several bad fields is one row), in the groups of the
	// language and task category they give when those could be read.
	unreadableID := map[string]string{}
	for _, u := range unread {
		if u.InstanceID != "" && unreadableID[u.InstanceID] == "" {
			unreadableID[u.InstanceID] = u.Reason()
		}
	}
	if len(o.InstanceIDs) == 0 {
		in.Unreadable = len(unread)
		for _, u := range unread {
			in.UnreadRows = append(in.UnreadRows, runrecord.UnreadDatasetRow(u))
		}
	}
	in.Instances = ds.Instances
	if len(o.InstanceIDs) > 0 {
		byID := map[string]dataset.Instance{}
		for _, x := range ds.Instances {
			byID[x.InstanceID] = x
		}
		in.Instances = nil
		for _, id := range o.InstanceIDs {
			x, ok := byID[id]
			if !ok {
				return nil, usagef("--instance-ids: %q is not a valid instance of %s", id, o.Dataset)
			}
			in.Instances = append(in.Instances, x)
		}
	}
	if len(in.Instances) == 0 {
		return nil, fmt.Errorf("%s: no valid instance to evaluate", o.Dataset)
	}
	selected := map[string]dataset.Instance{}
	for _, x := range in.Instances {
		selected[x.InstanceID] = x
	}
	// Rows that cannot run at all are reported once, here, with a count and
	// what they lack, rather than as one error record per instance.
	runnable, unrunnable := dataset.SplitRunnable(in.Instances, o.ImageTemplate != "")
	if !o.Containers {
		// SWE-bench 5.x rows run their eval_script in a container only.
		var local []dataset.Instance
		var need dataset.Unrunnable
		for _, x := range runnable {
			if strings.TrimSpace(x.TestCommand) == "" {
				need.InstanceIDs = append(need.InstanceIDs, x.InstanceID)
			} else {
				local = append(local, x)
			}
		}
		if len(need.InstanceIDs) > 0 {
			need.Problem = "an eval_script and no test_command: it runs in a container (--runtime docker), and this run's runtime is local"
			unrunnable, runnable = append(unrunnable, need), local
		}
	}
	unrunnableWhy := map[string]string{}
	if len(unrunnable) > 0 {
		msg := fmt.Sprintf("%s: %s", o.Dataset, dataset.DescribeUnrunnable(unrunnable, len(in.Instances)))
		if len(runnable) == 0 {
			return nil, errors.New(msg)
		}
		fmt.Fprintf(o.Log, "polynfi: %s: not evaluated\n", msg)
		in.InputErrors = append(in.InputErrors, msg)
		// One row per instance (not per problem): each counts in every
		// denominator and in its groups.
		for _, g := range unrunnable {
			for _, id := range g.InstanceIDs {
				x := selected[id]
				unrunnableWhy[id] = g.Problem
				in.UnreadRows = append(in.UnreadRows, runrecord.DatasetRow{Kind: runrecord.RowNotRunnable, File: ds.Path, Row: x.Row, InstanceID: id,
					Language: x.Language, TaskCategory: x.TaskCategory, Reason: "cannot run: " + g.Problem})
				in.NotRunnable++
			}
		}
		in.Instances = runnable
	}
	in.Unused.InputErrors = len(in.InputErrors)
	var preds []dataset.Prediction
	// "gold" (the dataset's reference patches) and prediction files
	// combine: each is a model of its own in the run.
	{
		for _, p := range o.Predictions {
			if p == "gold" {
				preds = append(preds, dataset.Gold(in.Instances)...)
				continue
			}
			in.PredFiles = append(in.PredFiles, p)
			ps, err := dataset.LoadPredictions(p)
			if err != nil {
				return nil, fmt.Errorf("load predictions: %w", err)
			}
			for _, re := range ps.Errors {
				fmt.Fprintf(o.Log, "polynfi: skipping prediction: %s\n", textesc.Terminal(re.Error()))
				in.RejectedRows = append(in.RejectedRows, runrecord.PredictionRow{File: re.File, Row: re.Row, Line: re.Line,
					InstanceID: re.InstanceID, Field: re.Field, Reason: re.Err.Error()})
			}
			preds = append(preds, ps.Predictions...)
		}
		in.PredSources = append([]string(nil), o.Predictions...)
		in.PredName = strings.Join(o.Predictions, ",")
		in.Rejected = runrecord.CountRows(in.RejectedRows)
	}
	in.Unused.Rejected = in.Rejected
	idx := map[string]int{}
	for i, x := range in.Instances {
		idx[x.InstanceID] = i
	}
	for _, p := range preds {
		if i, ok := idx[p.InstanceID]; ok {
			in.Jobs = append(in.Jobs, Job{Instance: in.Instances[i], Prediction: p})
			continue
		}
		// Not evaluated: say why, by file and row.
		var reason string
		why, unread := unreadableID[p.InstanceID]
		switch {
		case unread:
			// The instance is the dataset's, its row could not be read: it
			// counts as unresolved with that row.
			in.Unused.Unreadable++
			fmt.Fprintf(o.Log, "polynfi: %s: row %d: the dataset row of instance %q could not be read: prediction not evaluated\n", p.File, p.Row, p.InstanceID)
			reason = "the dataset row of this instance could not be read (" + why + "): not evaluated, counted as unresolved with that row"
		case !inDataset[p.InstanceID]:
			in.Unused.Unknown++
			fmt.Fprintf(o.Log, "polynfi: %s: row %d: instance_id %q is not in the dataset %s: prediction ignored\n", p.File, p.Row, p.InstanceID, o.Dataset)
			reason = "not an instance of the dataset " + o.Dataset
		case unrunnableWhy[p.InstanceID] != "":
			in.Unused.NotRunnable++
			fmt.Fprintf(o.Log, "polynfi: %s: row %d: instance %q cannot run (%s): prediction not evaluated\n", p.File, p.Row, p.InstanceID, unrunnableWhy[p.InstanceID])
			reason = "the instance cannot run (" + unrunnableWhy[p.InstanceID] + "): not evaluated, counted as unresolved with its row"
		default:
			// An instance of the dataset this call does not evaluate
			// (--instance-ids): deliberately left out, not named per row.
			in.Unused.Filtered++
			continue
		}
		if len(o.InstanceIDs) == 0 {
			in.Ignored = append(in.Ignored, runrecord.PredictionRow{File: p.File, Row: p.Row, Line: p.Line, InstanceID: p.InstanceID,
				Model: p.ModelNameOrPath, Field: "instance_id", Reason: reason})
		}
	}
	return in, nil
}

// NothingEvaluated is the error (exit 3) of an eval, full or
// --metrics-only alike, in which no prediction names an instance it can
// evaluate: one message, counting what was not used and why.
func (in *EvalInputs) NothingEvaluated(ds string) error {
	return in.Unused.NothingEvaluated("instance", ds, in.PredName)
}

// metricsOnlyUnits are the manifest units of a --metrics-only run's jobs
// (a missing prediction's empty one included): the report counts each
// unreadable dataset row once per (model, run) pair of them. The first
// submitted jobs are the predictions given; the rest are the empty ones
// metricsOnlyJobs adds for units without one (Missing).
func MetricsOnlyUnits(jobs []Job, submitted int) []runrecord.ManifestUnit {
	units := make([]runrecord.ManifestUnit, len(jobs))
	for i, j := range jobs {
		missing := i >= submitted
		units[i] = runrecord.ManifestUnit{Key: j.Key(), Empty: j.Prediction.Empty(), Missing: &missing}
	}
	return units
}

// metricsOnlyJobs returns the jobs of a --metrics-only run: every
// prediction, and for every (model, run) pair of the predictions, an empty
// prediction of each instance that pair has none for. A missing prediction
// is scored as an empty one and stays in the means (counting 0), as
// SWE-PolyBench merges predictions into the dataset, per model as in a
// full eval.
func MetricsOnlyJobs(in *EvalInputs) []Job {
	jobs := append([]Job(nil), in.Jobs...)
	type pr struct {
		model string
		run   int
	}
	var pairs []pr
	have := map[pr]map[string]bool{}
	for _, j := range in.Jobs {
		p := pr{j.Prediction.ModelNameOrPath, j.Prediction.Run}
		if have[p] == nil {
			have[p] = map[string]bool{}
			pairs = append(pairs, p)
		}
		have[p][j.Instance.InstanceID] = true
	}
	for _, p := range pairs {
		for _, x := range in.Instances {
			if !have[p][x.InstanceID] {
				jobs = append(jobs, Job{Instance: x, Prediction: dataset.Prediction{InstanceID: x.InstanceID, ModelNameOrPath: p.model, Run: p.run}})
			}
		}
	}
	return jobs
}
