package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/driver"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// evalOptions are the flags of `polynfi eval`.
type evalOptions struct {
	dataset     string
	predictions []string
	reposDir    string
	workers     int
	redo        bool
	runID       string
	instanceIDs []string
	timeout     time.Duration
	out         string
	format      string
	catalog     string
	config      string
	noIsolation bool
	retrieval   string
	metricsOnly bool
	nfiDeltas   bool
	cleanRoom   bool
	// pythonVersion is --python-version (see engineFlags).
	pythonVersion string
	writable      []string
	toolchains    []string
	// Chaining `polynfi run` (--agent): the agent's runs go to
	// OUT/agent-runs and their predictions are evaluated.
	agent        string
	agentCmd     string
	agentRuns    int
	agentTimeout time.Duration
	agentEnv     []string
	// containers is true when the run's runtime starts containers (rows
	// with an eval_script and no test_command run only there).
	containers bool
	containerOptions
	kube       kubeFlags
	validation string
}

func newEvalCmd(e *env) *cobra.Command {
	var o evalOptions
	c := &cobra.Command{
		Use:   "eval --dataset FILE --predictions FILE|gold --out DIR",
		Short: "Run predictions against the tests of a dataset (SWE-PolyBench / SWE-bench / SWE-NFI)",
		Long: `eval applies each prediction to a fresh work tree of its instance's repository at
the base commit, runs the instance's test command, and grades the result in the
polybench, swebench and strict modes. One record per instance goes to
OUT/<model>/<instance_id>/run-<k>/ and the run report to OUT/report.json.
Re-running the same command skips finished instances and re-evaluates changed
patches. The dataset kind (repository-level instances or SWE-NFI tasks) is
detected from the file's fields.

Exit status: 0 when the run completed (unresolved instances are results),
2 for bad flags, 3 for unreadable inputs, 130 when interrupted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			o.instanceIDs = dedupeInstanceIDs(e, o.instanceIDs)
			o.workers = workerCount(o.workers)
			if o.dataset == "" {
				return usagef("--dataset is required")
			}
			if o.agent != "" || o.agentCmd != "" {
				if len(o.predictions) > 0 {
					return usagef("give --predictions or --agent, not both")
				}
				if o.out == "" {
					return usagef("--out is required")
				}
				preds, err := chainAgentRun(e, o)
				if err != nil {
					return err
				}
				o.predictions = []string{preds}
			}
			if len(o.predictions) == 0 {
				return usagef("--predictions is required (a file, or gold), or --agent")
			}
			if o.out == "" && !o.metricsOnly {
				return usagef("--out is required")
			}
			if err := o.containerOptions.validate(); err != nil {
				return err
			}
			if err := o.containerOptions.dockerOnly(cmd.Flags()); err != nil {
				return err
			}
			o.containers = o.runtime == "docker" || o.runtime == "kubernetes"
			// Tests and git run in other working directories: every path
			// given on the command line is made absolute once, here.
			for _, p := range []*string{&o.out, &o.reposDir} {
				if *p != "" {
					abs, err := filepath.Abs(*p)
					if err != nil {
						return err
					}
					*p = abs
				}
			}
			if o.reposDir != "" {
				if st, err := os.Stat(o.reposDir); err != nil || !st.IsDir() {
					return fmt.Errorf("--repos-dir %s: not a directory of repository clones", o.reposDir)
				}
			}
			kind, err := dataset.DetectKind(o.dataset)
			if err != nil {
				return err
			}
			minor, err := driver.ParsePythonVersion(o.pythonVersion)
			if err != nil {
				return err
			}
			switch kind {
			case dataset.KindNFITasks:
				return runNFIEval(e, nfiEvalOptions{dataset: o.dataset, predictions: o.predictions, out: o.out, workers: o.workers, redo: o.redo,
					instanceIDs: o.instanceIDs, timeout: o.timeout, format: o.format, catalog: o.catalog, config: o.config, reposDir: o.reposDir, noIsolation: o.noIsolation,
					pythonMinor: minor})
			default:
				return runInstanceEval(e, o)
			}
		},
	}
	f := c.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset file (.csv, .json, .jsonl, .parquet) or SWE-bench 5.x task repository (a directory with tasks/)")
	f.StringArrayVar(&o.predictions, "predictions", nil, "predictions file (JSONL, JSON list or object), or gold; repeatable")
	f.StringVar(&o.reposDir, "repos-dir", "", "directory of local clones (owner__name, owner/name or owner__name.bundle); default: <dataset dir>/repos")
	workersFlag(f, &o.workers, "instances evaluated")
	f.BoolVar(&o.redo, "redo", false, "evaluate the selected predictions again even where a finished record exists (each record is replaced when its new one is written); without it a re-run skips finished records and re-evaluates errors and infrastructure failures")
	f.StringVar(&o.runID, "run-id", "", "name of this run, recorded in every result (default: the predictions' base name)")
	f.StringSliceVar(&o.instanceIDs, "instance-ids", nil, "evaluate only these instance ids (comma-separated or repeated)")
	f.DurationVar(&o.timeout, "timeout", 0, "test command timeout (default: per language, 1800s for Java, C, C++ and Rust, 1200s otherwise)")
	outFlag(f, &o.out, "output directory for records and report.json")
	f.StringVar(&o.format, "format", "text", "summary format: text or json")
	f.StringVar(&o.catalog, "catalog", catalog.Default, "NFI rule catalog (NFI tasks and --nfi)")
	f.StringVar(&o.config, "config", "", "NFI settings file (polynfi.toml)")
	f.BoolVar(&o.noIsolation, "no-isolation", false, "run tests without bubblewrap (unsafe with untrusted patches; every record and the report say so); without it, polynfi refuses to run tests when bubblewrap is unavailable")
	f.StringVar(&o.retrieval, "retrieval", "compatible", "retrieval metrics: compatible, extended or off")
	f.BoolVar(&o.metricsOnly, "metrics-only", false, "compute retrieval metrics only, without running tests")
	f.StringVar(&o.pythonVersion, "python-version", "", pythonVersionHelp+" (NFI tasks and --nfi)")
	f.BoolVar(&o.cleanRoom, "clean-room", false, "re-run the tests of each patch that changes a non-source path (configuration, build scripts, runner plugins, test helpers) in a fresh sandbox with only its source paths applied; a verdict that differs makes the run tampered, unresolved in every mode (costs one more evaluation of each such patch)")
	f.BoolVar(&o.nfiDeltas, "nfi", true, "score the changed source files (.py, .js, .ts, ...) with the NFI rules of their language before and after the model patch (--nfi=false to skip)")
	f.StringVar(&o.agent, "agent", "", "run this `AGENT` first ("+strings.Join(agent.PresetNames(), ", ")+"; as 'polynfi run --agent', into OUT/agent-runs) and evaluate its predictions")
	f.StringVar(&o.agentCmd, "agent-cmd", "", "with --agent: the agent's command `TEMPLATE` (placeholders in 'polynfi run --help')")
	f.IntVar(&o.agentRuns, "runs", 1, "with --agent: repeats per task or instance")
	f.DurationVar(&o.agentTimeout, "agent-timeout", agent.DefaultTimeout, "with --agent: wall-time limit of one agent run")
	f.StringArrayVar(&o.agentEnv, "agent-env", nil, "with --agent: pass KEY or KEY=VALUE to the agent (repeatable)")
	f.StringArrayVar(&o.writable, "writable", nil, "extra directory the tests may write under isolation (repeatable)")
	o.containerOptions.register(f, true)
	o.kube.register(f)
	f.StringVar(&o.validation, "validation", "", "validation report of the dataset (polynfi validate's validation.json): strict mode then tells an environment failure from a patch that broke the build")
	f.StringArrayVar(&o.toolchains, "toolchain", nil, "extra host directory the tests may read under isolation (repeatable; the dataset directory's env/ is added when present)")
	return c
}

// evalInputs are the loaded inputs of an instance evaluation.
type evalInputs struct {
	// unreadable, notRunnable and rejected count what the summary must
	// not drop: dataset rows not read, rows that cannot run, prediction
	// rows not read or naming no instance.
	unreadable, notRunnable, rejected int
	ds                                *dataset.Dataset
	instances                         []dataset.Instance
	jobs                              []harness.Job
	// inputErrors name the dataset rows not read or not runnable (not the
	// duplicates); unreadRows are those rows one by one (instance id,
	// language and task category where readable), duplicates the rows
	// whose instance_id an earlier row has; rejectedRows the prediction
	// rows not read, ignored the predictions naming an instance id the
	// dataset does not have or whose row could not be read or cannot run
	// (in no denominator as predictions).
	inputErrors            []string
	unreadRows, duplicates []harness.DatasetRow
	rejectedRows, ignored  []harness.PredictionRow
	predFiles              []string
	predName               string
	unused                 unusedPredictions
}

// unusedPredictions counts, by why, the predictions of an eval call that
// name nothing it evaluates: the exit-3 message of the instance and the
// SWE-NFI eval alike, in every mode.
type unusedPredictions struct {
	rejected    int  // prediction rows that could not be read
	unknown     int  // predictions naming an id the dataset does not have
	unreadable  int  // naming an instance whose dataset row could not be read
	notRunnable int  // naming an instance that cannot run
	filtered    int  // naming an instance of the dataset outside --instance-ids
	instanceIDs bool // --instance-ids was given
	inputErrors int  // dataset rows not read or not runnable
}

// nothingEvaluated is the error (exit 3) of an eval in which no
// prediction names a unit it can evaluate: "nothing could be evaluated:
// no valid prediction for a(n) NOUN of DS in PREDS (R prediction rows
// rejected, U predictions for NOUNs not in the dataset[, W predictions
// for NOUNs whose dataset row could not be read][, C predictions for
// NOUNs that cannot run][, F predictions for NOUNs outside
// --instance-ids], E dataset input errors)"; the bracketed counts appear
// when not 0 (the last one whenever --instance-ids was given).
func (u unusedPredictions) nothingEvaluated(noun, ds, preds string) error {
	parts := []string{fmt.Sprintf("%d prediction rows rejected", u.rejected), fmt.Sprintf("%d predictions for %ss not in the dataset", u.unknown, noun)}
	if u.unreadable > 0 {
		parts = append(parts, fmt.Sprintf("%d predictions for %ss whose dataset row could not be read", u.unreadable, noun))
	}
	if u.notRunnable > 0 {
		parts = append(parts, fmt.Sprintf("%d predictions for %ss that cannot run", u.notRunnable, noun))
	}
	if u.instanceIDs {
		parts = append(parts, fmt.Sprintf("%d predictions for %ss outside --instance-ids", u.filtered, noun))
	}
	parts = append(parts, fmt.Sprintf("%d dataset input errors", u.inputErrors))
	article := "a"
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		article = "an"
	}
	return fmt.Errorf("nothing could be evaluated: no valid prediction for %s %s of %s in %s (%s)", article, noun, ds, preds, strings.Join(parts, ", "))
}

func loadEvalInputs(e *env, o evalOptions) (*evalInputs, error) {
	ds, err := dataset.Load(o.dataset)
	if err != nil {
		return nil, fmt.Errorf("load dataset: %w", err)
	}
	in := &evalInputs{ds: ds}
	in.unused.instanceIDs = len(o.instanceIDs) > 0
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
			fmt.Fprintf(e.stderr, "polynfi: skipping duplicate row (instance %s is read from another row): %s\n", u.InstanceID, u.Reason())
			in.duplicates = append(in.duplicates, harness.DatasetRow{Kind: harness.RowDuplicate, File: u.File, Row: u.Row, Line: u.Line, InstanceID: u.InstanceID,
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
			fmt.Fprintf(e.stderr, "polynfi: skipping duplicate row (the first row of the instance is kept): %s\n", textesc.Terminal(re.Error()))
			in.duplicates = append(in.duplicates, harness.DatasetRow{Kind: harness.RowDuplicate, File: re.File, Row: re.Row, Line: re.Line,
				InstanceID: re.InstanceID, Reason: re.Error()})
			continue
		}
		fmt.Fprintf(e.stderr, "polynfi: skipping row: %s\n", textesc.Terminal(re.Error()))
		in.inputErrors = append(in.inputErrors, re.Error())
	}
	sort.SliceStable(in.duplicates, func(i, j int) bool { return in.duplicates[i].Row < in.duplicates[j].Row })
	// Unreadable rows count once each in every denominator (ds.Unread: a
	// row with several bad fields is one row), in the groups of the
	// language and task category they give when those could be read.
	unreadableID := map[string]string{}
	for _, u := range unread {
		if u.InstanceID != "" && unreadableID[u.InstanceID] == "" {
			unreadableID[u.InstanceID] = u.Reason()
		}
	}
	if len(o.instanceIDs) == 0 {
		in.unreadable = len(unread)
		for _, u := range unread {
			in.unreadRows = append(in.unreadRows, harness.UnreadDatasetRow(u))
		}
	}
	in.instances = ds.Instances
	if len(o.instanceIDs) > 0 {
		byID := map[string]dataset.Instance{}
		for _, x := range ds.Instances {
			byID[x.InstanceID] = x
		}
		in.instances = nil
		for _, id := range o.instanceIDs {
			x, ok := byID[id]
			if !ok {
				return nil, usagef("--instance-ids: %q is not a valid instance of %s", id, o.dataset)
			}
			in.instances = append(in.instances, x)
		}
	}
	if len(in.instances) == 0 {
		return nil, fmt.Errorf("%s: no valid instance to evaluate", o.dataset)
	}
	selected := map[string]dataset.Instance{}
	for _, x := range in.instances {
		selected[x.InstanceID] = x
	}
	// Rows that cannot run at all are reported once, here, with a count and
	// what they lack, rather than as one error record per instance.
	runnable, unrunnable := dataset.SplitRunnable(in.instances, o.imageTemplate != "")
	if !o.containers {
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
		msg := fmt.Sprintf("%s: %s", o.dataset, dataset.DescribeUnrunnable(unrunnable, len(in.instances)))
		if len(runnable) == 0 {
			return nil, errors.New(msg)
		}
		fmt.Fprintf(e.stderr, "polynfi: %s: not evaluated\n", msg)
		in.inputErrors = append(in.inputErrors, msg)
		// One row per instance (not per problem): each counts in every
		// denominator and in its groups.
		for _, g := range unrunnable {
			for _, id := range g.InstanceIDs {
				x := selected[id]
				unrunnableWhy[id] = g.Problem
				in.unreadRows = append(in.unreadRows, harness.DatasetRow{Kind: harness.RowNotRunnable, File: ds.Path, Row: x.Row, InstanceID: id,
					Language: x.Language, TaskCategory: x.TaskCategory, Reason: "cannot run: " + g.Problem})
				in.notRunnable++
			}
		}
		in.instances = runnable
	}
	in.unused.inputErrors = len(in.inputErrors)
	var preds []dataset.Prediction
	// "gold" (the dataset's reference patches) and prediction files
	// combine: each is a model of its own in the run.
	{
		for _, p := range o.predictions {
			if p == "gold" {
				preds = append(preds, dataset.Gold(in.instances)...)
				continue
			}
			in.predFiles = append(in.predFiles, p)
			ps, err := dataset.LoadPredictions(p)
			if err != nil {
				return nil, fmt.Errorf("load predictions: %w", err)
			}
			for _, re := range ps.Errors {
				fmt.Fprintf(e.stderr, "polynfi: skipping prediction: %s\n", textesc.Terminal(re.Error()))
				in.rejectedRows = append(in.rejectedRows, harness.PredictionRow{File: re.File, Row: re.Row, Line: re.Line,
					InstanceID: re.InstanceID, Field: re.Field, Reason: re.Err.Error()})
			}
			preds = append(preds, ps.Predictions...)
		}
		in.predName = strings.Join(o.predictions, ",")
		in.rejected = harness.CountRows(in.rejectedRows)
	}
	in.unused.rejected = in.rejected
	idx := map[string]int{}
	for i, x := range in.instances {
		idx[x.InstanceID] = i
	}
	for _, p := range preds {
		if i, ok := idx[p.InstanceID]; ok {
			in.jobs = append(in.jobs, harness.Job{Instance: in.instances[i], Prediction: p})
			continue
		}
		// Not evaluated: say why, by file and row.
		var reason string
		why, unread := unreadableID[p.InstanceID]
		switch {
		case unread:
			// The instance is the dataset's, its row could not be read: it
			// counts as unresolved with that row.
			in.unused.unreadable++
			fmt.Fprintf(e.stderr, "polynfi: %s: row %d: the dataset row of instance %q could not be read: prediction not evaluated\n", p.File, p.Row, p.InstanceID)
			reason = "the dataset row of this instance could not be read (" + why + "): not evaluated, counted as unresolved with that row"
		case !inDataset[p.InstanceID]:
			in.unused.unknown++
			fmt.Fprintf(e.stderr, "polynfi: %s: row %d: instance_id %q is not in the dataset %s: prediction ignored\n", p.File, p.Row, p.InstanceID, o.dataset)
			reason = "not an instance of the dataset " + o.dataset
		case unrunnableWhy[p.InstanceID] != "":
			in.unused.notRunnable++
			fmt.Fprintf(e.stderr, "polynfi: %s: row %d: instance %q cannot run (%s): prediction not evaluated\n", p.File, p.Row, p.InstanceID, unrunnableWhy[p.InstanceID])
			reason = "the instance cannot run (" + unrunnableWhy[p.InstanceID] + "): not evaluated, counted as unresolved with its row"
		default:
			// An instance of the dataset this call does not evaluate
			// (--instance-ids): deliberately left out, not named per row.
			in.unused.filtered++
			continue
		}
		if len(o.instanceIDs) == 0 {
			in.ignored = append(in.ignored, harness.PredictionRow{File: p.File, Row: p.Row, Line: p.Line, InstanceID: p.InstanceID,
				Model: p.ModelNameOrPath, Field: "instance_id", Reason: reason})
		}
	}
	return in, nil
}

// nothingEvaluated is the error (exit 3) of an eval, full or
// --metrics-only alike, in which no prediction names an instance it can
// evaluate: one message, counting what was not used and why.
func (in *evalInputs) nothingEvaluated(ds string) error {
	return in.unused.nothingEvaluated("instance", ds, in.predName)
}

func runInstanceEval(e *env, o evalOptions) error {
	start := time.Now()
	in, err := loadEvalInputs(e, o)
	if err != nil {
		return err
	}
	dsDir, err := filepath.Abs(filepath.Dir(o.dataset))
	if err != nil {
		return err
	}
	if dataset.IsTaskRepo(o.dataset) {
		// A task repository is its own dataset directory (repos/ inside it).
		if dsDir, err = filepath.Abs(o.dataset); err != nil {
			return err
		}
	}
	if o.reposDir == "" {
		o.reposDir = filepath.Join(dsDir, "repos")
	}
	if o.runID == "" {
		o.runID = strings.TrimSuffix(filepath.Base(in.predName), filepath.Ext(in.predName))
	}
	var ropts *retrieval.Options
	if o.retrieval != "off" {
		m, err := retrieval.ParseMode(o.retrieval)
		if err != nil {
			return usageError{err}
		}
		ropts = &retrieval.Options{Mode: m, Nodes: true}
	}
	if o.metricsOnly {
		if ropts == nil {
			return usagef("--metrics-only needs --retrieval compatible or extended")
		}
		return runMetricsOnly(e, o, in, ropts)
	}
	mode := harness.Mode(in.ds.NativeMode())

	if len(in.jobs) == 0 {
		return in.nothingEvaluated(o.dataset)
	}
	store, err := harness.OpenStore(o.out)
	if err != nil {
		return err
	}
	defer store.Close()
	warnUnreadableRecords(e, o.out, in.jobs)
	h := &harness.Harness{
		Repos:      harness.NewRepos(o.reposDir, filepath.Join(o.out, ".repos")),
		ScratchDir: store.ScratchDir(),
		Timeout:    o.timeout,
		NativeMode: mode,
		RunID:      o.runID,
		Retrieval:  ropts,
		Retries:    o.retries,
		RunKey:     runKey(o.out),
		CleanRoom:  o.cleanRoom,
	}
	var resolver *images.Resolver
	var engine *docker.Docker
	if o.runtime == "docker" {
		d, r, err := o.containerOptions.attachDocker(e, h, o.out, o.startAhead, o.workers)
		if err != nil {
			return err
		}
		defer d.Close()
		engine, resolver = d, r
	} else if o.runtime == "kubernetes" {
		k, r, err := startKubernetes(e, o, h, store.ScratchDir())
		if err != nil {
			return err
		}
		defer k.Close()
		resolver = r
		h.Runtime, h.Images = k, kubeImages{o: o, r: r, load: o.kube.nodeContainerd}
	} else {
		runner := runtime.NewLocal(e.ctx, runtime.LocalOptions{NoIsolation: o.noIsolation})
		defer runner.Close()
		if err := checkSandbox(e, runner); err != nil {
			return err
		}
		h.Runtime = runner
		h.Env = []string{"POLYNFI_DATASET_DIR=" + dsDir}
		h.Writable, h.ReadOnly = o.writable, toolchainDirs(dsDir, o.toolchains)
	}
	if o.validation != "" {
		if h.Validation, err = loadValidation(o.validation); err != nil {
			return fmt.Errorf("--validation: %w", err)
		}
	}
	if o.nfiDeltas {
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
		if h.NFI, err = nfi.NewEngine(cat, settings); err != nil {
			return err
		}
		if h.NFI.PythonMinor, err = driver.ParsePythonVersion(o.pythonVersion); err != nil {
			return err
		}
	}
	man, err := startManifest(e, o, in, h, mode, start)
	if err != nil {
		return err
	}
	b := newBar(e.stderr, len(in.jobs), "evaluating")
	res, runErr := h.Run(e.ctx, in.jobs, store, harness.RunOptions{Workers: o.workers, Redo: o.redo, Progress: func(ev harness.Event) { b.set(ev.Done) }})
	b.finish()
	if res != nil && len(res.RemoveErrors) > 0 {
		fmt.Fprintf(e.stderr, "polynfi: %d sandbox(es) could not be removed: %s\n", len(res.RemoveErrors), strings.Join(res.RemoveErrors, "; "))
	}
	if engine != nil {
		// Every container of the run is removed by then; anything an
		// interruption raced past goes now.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), time.Minute)
		if n, err := engine.RemoveStale(rctx, h.RunKey); err != nil || n > 0 {
			fmt.Fprintf(e.stderr, "polynfi: removed %d leftover container(s) of this run (%v)\n", n, err)
		}
		cancel()
	}
	if resolver != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 5*time.Minute)
		if removed, err := resolver.Cleanup(cctx); err != nil {
			fmt.Fprintf(e.stderr, "polynfi: removing images (--cache-level %s): %v\n", o.cacheLevel, err)
		} else if len(removed) > 0 {
			fmt.Fprintf(e.stderr, "polynfi: removed %d image(s) built by this run (--cache-level %s)\n", len(removed), o.cacheLevel)
		}
		cancel()
	}
	man.Complete = runErr == nil && res != nil && !res.Interrupted
	man.Finished = time.Now().UTC()
	if err := man.Write(o.out); err != nil {
		return err
	}
	// The report covers every record stored in OUT, over every eval call
	// into it, as `polynfi report OUT` does.
	recs, badRecs, err := harness.ReadRecords(o.out)
	if err != nil {
		return err
	}
	rep := report.BuildHarness(report.HarnessInput{Manifest: man, Records: recs, Result: res})
	rep.Polynfi.Version = polynfiVersion()
	rep.Polynfi.UnreadableRecords = badRecs
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := harness.WriteFileAtomic(filepath.Join(o.out, "report.json"), append(data, '\n')); err != nil {
		return err
	}
	if err := atomicfile.WriteFunc(filepath.Join(o.out, "report.html"), func(w io.Writer) error { return renderHarness(w, rep, "html", false) }); err != nil {
		return err
	}
	if runErr != nil {
		if res != nil && res.Interrupted {
			fmt.Fprintf(e.stderr, "polynfi: %s (finished records kept in %s; run the same command to resume)\n",
				strings.TrimSuffix(runErr.Error(), ": "+e.ctx.Err().Error()), o.out)
			return exitError{ExitInterrupted}
		}
		return runErr
	}
	fmt.Fprintf(e.stderr, "polynfi: %s (%d evaluated, %d already recorded) in %s; report: %s (and report.html)\n",
		unitsOf(in.jobs), res.Evaluated, res.Skipped, time.Since(start).Round(time.Millisecond), filepath.Join(o.out, "report.json"))
	if o.format == "json" {
		_, err := e.stdout.Write(append(data, '\n'))
		return err
	}
	return printEvalSummary(e.stdout, rep, filepath.Join(o.out, "report.json"))
}

// checkSandbox refuses a run whose tests would execute without a sandbox
// that the user did not waive, and otherwise prints why tests run
// unisolated, when they do.
func checkSandbox(e *env, runner *runtime.Local) error {
	if runner.Refuses() {
		return fmt.Errorf("%s: refusing to run tests outside a sandbox; install bubblewrap or pass --no-isolation", runner.Note())
	}
	if note := runner.Note(); note != "" {
		fmt.Fprintf(e.stderr, "polynfi: %s\n", note)
	}
	return nil
}

// toolchainDirs returns the host directories a test command may read
// under isolation: the dataset directory's env/ (the toolchains a dataset
// ships, as the bundled sample's Node packages) when it exists, and the
// --toolchain directories. Never the dataset directory itself: its rows
// hold the gold patches.
func toolchainDirs(dsDir string, extra []string) []string {
	var out []string
	if fi, err := os.Stat(filepath.Join(dsDir, "env")); err == nil && fi.IsDir() {
		out = append(out, filepath.Join(dsDir, "env"))
	}
	for _, d := range extra {
		if a, err := filepath.Abs(d); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// printEvalSummary writes the text summary of a run report: the
// headline and tables of renderHarness, then the outcomes other than
// resolved/unresolved, the isolation used and the harness overhead.
func printEvalSummary(w io.Writer, r *report.Harness, reportPath string) error {
	if err := renderHarness(w, r, "text", false); err != nil {
		return err
	}
	x := &r.Polynfi
	fmt.Fprintln(w)
	if len(x.Differing) == 0 {
		fmt.Fprintf(w, "verdicts agree in all modes\n")
	}
	var statuses []string
	for s, ids := range x.StatusIDs {
		if s != harness.StatusResolved && s != harness.StatusUnresolved {
			statuses = append(statuses, fmt.Sprintf("%s: %s", s, strings.Join(ids, ", ")))
		}
	}
	sort.Strings(statuses)
	for _, s := range statuses {
		fmt.Fprintf(w, "%s\n", s)
	}
	if n := len(x.NoTestRan); n > 0 {
		fmt.Fprintf(w, "environment failures: %d unit(s) where no test ran (not the patch's fault)\n", n)
		for _, s := range x.NoTestRan {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	var iso []string
	for k, n := range x.Isolation {
		iso = append(iso, fmt.Sprintf("%s (%d runs)", k, n))
	}
	sort.Strings(iso)
	if len(iso) > 0 {
		fmt.Fprintf(w, "isolation: %s\n", strings.Join(iso, ", "))
	}
	for _, n := range x.IsolationNote {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if x.Recorded > 0 {
		fmt.Fprintf(w, "harness overhead: mean %.2fs per instance over %d recorded units (tests: mean %.2fs)\n", x.MeanOverheadS, x.Recorded, x.MeanTestS)
	}
	_, err := fmt.Fprintf(w, "report: %s\n", reportPath)
	return err
}

// runMetricsOnly computes retrieval metrics without running any test, as
// SWE-PolyBench's --metrics-only, and writes OUT/metrics.json.
func runMetricsOnly(e *env, o evalOptions, in *evalInputs, ropts *retrieval.Options) error {
	if len(in.jobs) == 0 {
		// As a full eval: nothing to score is an input error (exit 3),
		// not a table of zeros.
		return in.nothingEvaluated(o.dataset)
	}
	repos := harness.NewRepos(o.reposDir, filepath.Join(os.TempDir(), "polynfi-repos-cache"))
	if o.out != "" {
		// OUT is claimed before anything is written into it (.repos), and
		// a run directory of another kind is refused: its manifest would be
		// replaced and its records would drop out of its report.
		if kind, _, err := harness.RunDirKind(o.out); err == nil && kind != "" && kind != harness.KindMetricsOnly {
			return usagef("--metrics-only --out %s: %s already holds a %s run; its report would lose the stored records. Give another --out", o.out, o.out, kind)
		}
		if err := harness.ClaimDir(o.out); err != nil {
			return err
		}
		repos.CacheDir = filepath.Join(o.out, ".repos")
	}
	// The metrics are those of an evaluated run, computed by the same
	// code (harness.PredictionMetrics): a patch counts as applied when
	// the apply cascade applies it, tried in a work tree of the local
	// runtime when git apply alone does not.
	scratch, err := os.MkdirTemp("", "polynfi-metrics-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	h := &harness.Harness{Repos: repos, ScratchDir: scratch, Retrieval: ropts}
	runner := runtime.NewLocal(e.ctx, runtime.LocalOptions{NoIsolation: o.noIsolation})
	defer runner.Close()
	if !runner.Refuses() {
		h.Runtime = runner
	}
	var ms []retrieval.InstanceMetrics
	var errs []error
	jobs := metricsOnlyJobs(in)
	for _, j := range jobs {
		if e.ctx.Err() != nil {
			return e.ctx.Err()
		}
		m, note := h.PredictionMetrics(e.ctx, j.Instance, j.Prediction)
		if note != "" {
			fmt.Fprintf(e.stderr, "polynfi: %s: %s\n", j.Instance.InstanceID, note)
		}
		if m == nil {
			errs = append(errs, fmt.Errorf("%s: retrieval metrics could not be computed (%s)", j.Instance.InstanceID, note))
			continue
		}
		ms = append(ms, *m)
	}
	man := &harness.Manifest{Kind: harness.KindMetricsOnly, RunID: o.runID, Dataset: in.ds.Path, DatasetSchema: string(in.ds.Schema), DatasetSHA256: harness.DatasetDigest(o.dataset),
		Predictions: in.predName, Retrieval: o.retrieval, InputErrors: in.inputErrors, Complete: len(errs) == 0, Finished: time.Now().UTC(),
		UnreadableRows: in.unreadable, NotRunnable: in.notRunnable, Rejected: in.rejected, RejectedRows: in.rejectedRows, IgnoredPredictions: in.ignored,
		UnreadRows: in.unreadRows, DuplicateRows: in.duplicates, Units: metricsOnlyUnits(jobs, len(in.jobs))}
	man.NoteVersion(polynfiVersion())
	// The same numbers, intervals and input lines as `polynfi report` of
	// the run directory (report.BuildMetricsOnly).
	mo := report.BuildMetricsOnly(man, ms)
	mo.Version = polynfiVersion()
	data, err := json.MarshalIndent(mo, "", "  ")
	if err != nil {
		return err
	}
	if o.out != "" {
		if err := harness.WriteFileAtomic(filepath.Join(o.out, "metrics.json"), append(data, '\n')); err != nil {
			return err
		}
		if err := man.Write(o.out); err != nil {
			return err
		}
	}
	if o.format == "json" {
		if _, err := e.stdout.Write(append(data, '\n')); err != nil {
			return err
		}
	} else if err := report.WritePageText(e.stdout, report.MetricsOnlyPage(mo, "polynfi eval --metrics-only", false)); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// metricsOnlyUnits are the manifest units of a --metrics-only run's jobs
// (a missing prediction's empty one included): the report counts each
// unreadable dataset row once per (model, run) pair of them. The first
// submitted jobs are the predictions given; the rest are the empty ones
// metricsOnlyJobs adds for units without one (Missing).
func metricsOnlyUnits(jobs []harness.Job, submitted int) []harness.ManifestUnit {
	units := make([]harness.ManifestUnit, len(jobs))
	for i, j := range jobs {
		missing := i >= submitted
		units[i] = harness.ManifestUnit{Key: j.Key(), Empty: j.Prediction.Empty(), Missing: &missing}
	}
	return units
}

// metricsOnlyJobs returns the jobs of a --metrics-only run: every
// prediction, and for every (model, run) pair of the predictions, an empty
// prediction of each instance that pair has none for. A missing prediction
// is scored as an empty one and stays in the means (counting 0), as
// SWE-PolyBench merges predictions into the dataset, per model as in a
// full eval.
func metricsOnlyJobs(in *evalInputs) []harness.Job {
	jobs := append([]harness.Job(nil), in.jobs...)
	type pr struct {
		model string
		run   int
	}
	var pairs []pr
	have := map[pr]map[string]bool{}
	for _, j := range in.jobs {
		p := pr{j.Prediction.ModelNameOrPath, j.Prediction.Run}
		if have[p] == nil {
			have[p] = map[string]bool{}
			pairs = append(pairs, p)
		}
		have[p][j.Instance.InstanceID] = true
	}
	for _, p := range pairs {
		for _, x := range in.instances {
			if !have[p][x.InstanceID] {
				jobs = append(jobs, harness.Job{Instance: x, Prediction: dataset.Prediction{InstanceID: x.InstanceID, ModelNameOrPath: p.model, Run: p.run}})
			}
		}
	}
	return jobs
}

// startManifest merges this call's evaluated set and predictions into
// OUT's manifest (creating it), marks the run incomplete until it ends,
// and writes it before anything is evaluated. Units without a prediction
// get the metrics of an empty prediction, computed by the harness as for
// an evaluated empty prediction.
func startManifest(e *env, o evalOptions, in *evalInputs, h *harness.Harness, mode harness.Mode, start time.Time) (*harness.Manifest, error) {
	man, ok, err := harness.ReadManifest(o.out)
	if err != nil {
		return nil, err
	}
	if !ok || man.Kind != harness.KindHarness {
		man = &harness.Manifest{Kind: harness.KindHarness}
	}
	man.RunID, man.Dataset, man.DatasetSchema, man.Predictions = o.runID, manifestPath(in.ds.Path), string(in.ds.Schema), in.predName
	man.DatasetSHA256 = harness.DatasetDigest(o.dataset)
	man.NativeMode, man.Workers, man.InputErrors, man.Started = mode, o.workers, in.inputErrors, start.UTC()
	man.UnreadableRows, man.NotRunnable = in.unreadable, in.notRunnable
	man.UnreadRows, man.DuplicateRows = in.unreadRows, in.duplicates
	man.RejectedRows = harness.MergePredictionRows(man.RejectedRows, in.rejectedRows, in.predFiles)
	if len(o.instanceIDs) == 0 {
		man.IgnoredPredictions = harness.MergePredictionRows(man.IgnoredPredictions, in.ignored, in.predFiles)
	}
	man.Rejected = harness.CountRows(man.RejectedRows)
	man.Retrieval = ""
	if o.retrieval != "off" {
		man.Retrieval = o.retrieval
	}
	man.Complete, man.Finished = false, time.Time{}
	man.NoteVersion(polynfiVersion())
	var units []harness.ManifestUnit
	for _, j := range in.jobs {
		units = append(units, harness.ManifestUnit{Key: j.Key(), Empty: j.Prediction.Empty()})
	}
	var insts []harness.ManifestInstance
	for _, x := range in.instances {
		insts = append(insts, harness.ManifestInstance{InstanceID: x.InstanceID, Repo: x.Repo, Language: x.Language, TaskCategory: x.TaskCategory})
	}
	man.Merge(insts, units)
	// An instance that some (model, run) pair of the run (over every eval
	// call into OUT) has no prediction for keeps the metrics of an empty
	// prediction: that pair's missing unit counts 0 in the localization
	// means, whether or not another model predicted the instance.
	need := man.InstancesMissingAUnit()
	inCall := map[string]bool{}
	for _, x := range in.instances {
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
		for _, x := range in.instances {
			if x.InstanceID != mi.InstanceID {
				continue
			}
			if em := h.EmptyPredictionMetrics(e.ctx, x); em != nil {
				mi.ComplexityClass = em.Complexity
				if need[mi.InstanceID] {
					mi.EmptyRetrieval = em
				}
			}
		}
	}
	return man, man.Write(o.out)
}

// warnUnreadableRecords names, on stderr, every record file in out that
// cannot be read: the unit is evaluated again when this call has a job for
// it (its record is then replaced), and otherwise stays unreadable and is
// listed in the report.
func warnUnreadableRecords(e *env, out string, jobs []harness.Job) {
	_, bad, err := harness.ReadRecords(out)
	if err != nil || len(bad) == 0 {
		return
	}
	dirs := map[string]bool{}
	for _, j := range jobs {
		dirs[filepath.Join(out, filepath.FromSlash(harness.RecordRelDir(j.Key())))] = true
	}
	for _, b := range bad {
		if dirs[filepath.Dir(b.Path)] {
			fmt.Fprintf(e.stderr, "polynfi: warning: unreadable record %s (%s): evaluating it again\n", b.Path, b.Error)
		} else {
			fmt.Fprintf(e.stderr, "polynfi: warning: unreadable record %s (%s): not in this call, listed in the report\n", b.Path, b.Error)
		}
	}
}

// dedupeInstanceIDs returns ids (--instance-ids, comma-separated or
// repeated) with each id once, in the order of its first mention: an id
// given twice is one instance, evaluated once (two evaluations of it
// would count it twice and could share one record directory). Each id
// dropped is said on stderr.
func dedupeInstanceIDs(e *env, ids []string) []string {
	seen, told := make(map[string]bool, len(ids)), map[string]bool{}
	out := ids[:0:0]
	for _, id := range ids {
		if seen[id] {
			if !told[id] {
				told[id] = true
				fmt.Fprintf(e.stderr, "polynfi: --instance-ids: %s given more than once: evaluated once\n", id)
			}
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

// unitsOf says how many units (instance × model × run) jobs are: "1
// instance", "3 instances" when each instance is one unit, else "6 units
// of 3 instances".
func unitsOf(jobs []harness.Job) string {
	ids := map[string]bool{}
	for _, j := range jobs {
		ids[j.Instance.InstanceID] = true
	}
	if len(ids) == len(jobs) {
		return plural(len(jobs), "instance")
	}
	return plural(len(jobs), "unit") + " of " + plural(len(ids), "instance")
}
