package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/driver"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
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
					pythonMinor: minor, toolchains: o.toolchains})
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
	f.StringVar(&o.runID, "run-id", "", "name of this run, recorded in every result (default: the predictions' base names without extension, joined by +: a+b for a.jsonl and b.jsonl)")
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

func runInstanceEval(e *env, o evalOptions) error {
	start := time.Now()
	in, err := harness.LoadEvalInputs(harness.InputOptions{Dataset: o.dataset, Predictions: o.predictions, InstanceIDs: o.instanceIDs,
		Containers: o.containers, ImageTemplate: o.imageTemplate, Log: e.stderr})
	if err != nil {
		return err
	}
	bo := o.containerOptions.backend(o.out, e.stderr)
	eo := harness.EvalOptions{Dataset: o.dataset, Out: o.out, ReposDir: o.reposDir, RunID: o.runID, InstanceIDs: o.instanceIDs, Workers: o.workers,
		Redo: o.redo, Timeout: o.timeout, Retrieval: o.retrieval, Retries: o.retries, CleanRoom: o.cleanRoom, ValidationFile: o.validation, Version: polynfiVersion(),
		Log: e.stderr, RunKey: bo.RunKey}
	if o.metricsOnly {
		return runMetricsOnly(e, o, in, eo)
	}
	if o.nfiDeltas {
		minor, err := driver.ParsePythonVersion(o.pythonVersion)
		if err != nil {
			return err
		}
		if eo.NFI, err = driver.EvalEngine(o.catalog, o.config, minor); err != nil {
			return err
		}
	}
	dsDir, err := harness.DatasetDir(o.dataset)
	if err != nil {
		return err
	}
	bo.StartAhead, bo.Workers, bo.DatasetDir, bo.Toolchains, bo.Writable = o.startAhead, o.workers, dsDir, o.toolchains, o.writable
	bo.Local = runtime.LocalOptions{NoIsolation: o.noIsolation}
	if o.runtime == backend.Kubernetes {
		if bo.Kube, err = o.kube.options(bo.RunKey); err != nil {
			return err
		}
		if d := o.kube.podDeadline; d > 0 && d <= o.timeout {
			fmt.Fprintf(e.stderr, "polynfi: warning: --pod-deadline %s is not longer than --timeout %s: a test that runs to its timeout is ended by its pod's deadline first (infra_failure deadline_exceeded)\n", d, o.timeout)
		}
		if err := backend.CheckKubeconfig(o.kube.kubeconfig, o.kube.inCluster); err != nil {
			return fmt.Errorf("--runtime kubernetes: %w", err)
		}
		bo.NodeContainerd = o.kube.nodeContainerd
	}
	eo.Attach = backend.Attacher(bo)
	b := newBar(e.stderr, len(in.Jobs), "evaluating")
	eo.Progress, eo.RunDone, eo.Started, eo.Finished = b.set, b.finish, b.begin, b.end
	man, res, runErr := harness.Eval(e.ctx, in, eo)
	if man == nil {
		return runErr
	}
	// The report covers every record stored in OUT, over every eval call
	// into it, as `polynfi report OUT` does.
	recs, badRecs, err := runrecord.ReadRecords(o.out)
	if err != nil {
		return err
	}
	var call *report.CallResult
	if res != nil {
		call = &report.CallResult{Evaluated: res.Evaluated, Skipped: res.Skipped, Abandoned: res.Abandoned, Interrupted: res.Interrupted, Elapsed: res.Elapsed}
	}
	rep := report.BuildHarness(report.HarnessInput{Manifest: man, Records: recs, Result: call})
	rep.Polynfi.Version = polynfiVersion()
	rep.Polynfi.UnreadableRecords = badRecs
	if err := report.WriteHarnessFiles(o.out, rep); err != nil {
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
		unitsOf(in.Jobs), res.Evaluated, res.Skipped, time.Since(start).Round(time.Millisecond), filepath.Join(o.out, "report.json"))
	if o.format == "json" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(append(data, '\n'))
		return err
	}
	return printEvalSummary(e.stdout, rep, filepath.Join(o.out, "report.json"))
}

// printEvalSummary writes the text summary of a run report: the
// headline and tables of renderHarness, then the outcomes other than
// resolved/unresolved, the isolation used and the harness overhead.
func printEvalSummary(w io.Writer, r *report.Harness, reportPath string) error {
	if err := report.RenderHarness(w, r, "text", false); err != nil {
		return err
	}
	x := &r.Polynfi
	fmt.Fprintln(w)
	if len(x.Differing) == 0 {
		fmt.Fprintf(w, "verdicts agree in all modes\n")
	}
	var statuses []string
	for s, ids := range x.StatusIDs {
		if s != grading.StatusResolved && s != grading.StatusUnresolved {
			statuses = append(statuses, fmt.Sprintf("%s: %s", s, strings.Join(ids, ", ")))
		}
	}
	sort.Strings(statuses)
	for _, s := range statuses {
		fmt.Fprintf(w, "%s\n", s)
	}
	if n := len(x.NoTestRan); n > 0 {
		fmt.Fprintf(w, "environment failures: %s where no test ran (not the patch's fault)\n", plural(n, "unit"))
		for _, s := range x.NoTestRan {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	var iso []string
	for k, n := range x.Isolation {
		iso = append(iso, fmt.Sprintf("%s (%s)", k, plural(n, "run")))
	}
	sort.Strings(iso)
	if len(iso) > 0 {
		fmt.Fprintf(w, "isolation: %s\n", strings.Join(iso, ", "))
	}
	for _, n := range x.IsolationNote {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if x.Recorded > 0 {
		fmt.Fprintf(w, "harness overhead: mean %.2fs per instance over %s (tests: mean %.2fs)\n", x.MeanOverheadS, plural(x.Recorded, "recorded unit"), x.MeanTestS)
	}
	_, err := fmt.Fprintf(w, "report: %s\n", reportPath)
	return err
}

// runMetricsOnly computes retrieval metrics without running any test, as
// SWE-PolyBench's --metrics-only (harness.MetricsOnly), and writes
// OUT/metrics.json.
func runMetricsOnly(e *env, o evalOptions, in *harness.EvalInputs, eo harness.EvalOptions) error {
	ms, man, unitErrs, err := harness.MetricsOnly(e.ctx, in, eo, runtime.LocalOptions{NoIsolation: o.noIsolation})
	if err != nil {
		return err
	}
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
	return unitErrs
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
