package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/textesc"
)

// ValidateOptions say how RunValidation runs.
type ValidateOptions struct {
	// Dataset is the dataset file; Out the run directory (absolute);
	// ReposDir the directory of repository clones ("":
	// DatasetDir(Dataset)/repos).
	Dataset, Out, ReposDir string
	// Runs is the gold runs per instance (at least 1).
	Runs, Workers int
	Timeout       time.Duration
	InstanceIDs   []string
	Retries       int
	RunKey        string
	// Log receives a line per row not validated.
	Log io.Writer
	// Progress is called with the runs done and their total, RunDone
	// when the runs have ended.
	Progress func(done, total int)
	RunDone  func()
	// Attach gives the harness its runtime (EvalOptions.Attach).
	Attach func(ctx context.Context, h *Harness) (detach func(), err error)
}

// RunValidation validates the instances of o.Dataset, as `polynfi
// validate` does: per instance the gold patch o.Runs times and the tests
// without a patch once (ValidationJobs), records kept under o.Out as eval
// keeps them, each instance judged by Validate. It writes
// o.Out/validation.json and the subset that holds (WriteSubset: not
// written is said on o.Log) and returns the report and the dataset read
// (its Errors are the rows not validated).
func RunValidation(ctx context.Context, o ValidateOptions) (*ValidationReport, *dataset.Dataset, error) {
	start := time.Now()
	ds, err := dataset.Load(o.Dataset)
	if err != nil {
		return nil, nil, fmt.Errorf("load dataset: %w", err)
	}
	for _, re := range ds.Errors {
		fmt.Fprintf(o.Log, "polynfi: row not validated: %s\n", textesc.Terminal(re.Error()))
	}
	instances := ds.Instances
	if len(o.InstanceIDs) > 0 {
		want := map[string]bool{}
		for _, id := range o.InstanceIDs {
			want[id] = true
		}
		instances = nil
		for _, in := range ds.Instances {
			if want[in.InstanceID] {
				instances = append(instances, in)
			}
		}
	}
	if len(instances) == 0 {
		return nil, nil, fmt.Errorf("%s: no valid instance to validate", o.Dataset)
	}
	if o.ReposDir == "" {
		dsDir, err := DatasetDir(o.Dataset)
		if err != nil {
			return nil, nil, err
		}
		o.ReposDir = filepath.Join(dsDir, "repos")
	}
	store, err := OpenStore(o.Out)
	if err != nil {
		return nil, nil, err
	}
	defer store.Close()
	h := &Harness{
		Repos:      clones.New(o.ReposDir, filepath.Join(o.Out, ".repos")),
		ScratchDir: store.ScratchDir(),
		Timeout:    o.Timeout,
		NativeMode: grading.Mode(ds.NativeMode()),
		RunID:      "validate",
		RunEmpty:   true,
		Retries:    o.Retries,
		RunKey:     o.RunKey,
	}
	detach, err := o.Attach(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	jobs := ValidationJobs(instances, o.Runs)
	res, runErr := h.Run(ctx, jobs, store, RunOptions{Workers: o.Workers, Progress: func(ev Event) {
		if o.Progress != nil {
			o.Progress(ev.Done, len(jobs))
		}
	}})
	if o.RunDone != nil {
		o.RunDone()
	}
	detach()
	if runErr != nil {
		return nil, nil, runErr
	}
	vals := Validate(jobs, res.Records, o.Runs)
	rep := &ValidationReport{Dataset: o.Dataset, Runs: o.Runs, Total: len(vals), Instances: vals, Started: start.UTC()}
	holds := map[string]bool{}
	for _, v := range vals {
		if v.Holds {
			rep.Holding++
			holds[v.InstanceID] = true
		}
	}
	subset, err := WriteSubset(o.Dataset, o.Out, holds)
	if err != nil {
		fmt.Fprintf(o.Log, "polynfi: subset not written: %v\n", err)
	}
	rep.Subset = subset
	rep.ElapsedS = time.Since(start).Seconds()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	if err := WriteFileAtomic(filepath.Join(o.Out, ValidationFile), append(data, '\n')); err != nil {
		return nil, nil, err
	}
	return rep, ds, nil
}
