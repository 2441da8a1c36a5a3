package cli

import (
	"encoding/json"
	"fmt"
	"github.com/polynfi/polynfi/internal/textesc"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/runtime"
)

type validateOptions struct {
	dataset, out, reposDir string
	runs, workers          int
	timeout                time.Duration
	instanceIDs            []string
	noIsolation            bool
	toolchains             []string
	format                 string
	// containerOptions are eval's container flags (--runtime local or
	// docker, --image-template, --cpus, --memory, --pids, --cache-level,
	// ...): SWE-bench 5.x rows run in their own images.
	containerOptions
}

func newValidateCmd(e *env) *cobra.Command {
	var o validateOptions
	c := &cobra.Command{
		Use:   "validate --dataset FILE --out DIR [--runs N]",
		Short: "Check that each instance's environment holds: gold resolves every time, FAIL_TO_PASS fails and PASS_TO_PASS passes without it",
		Long: `validate runs, per instance, the gold patch N times (--runs, default 3) and the
tests without any patch once. An instance holds when the gold patch resolves in
every run (native grading mode) and, without a patch, no FAIL_TO_PASS test passes
and no PASS_TO_PASS test fails. It writes OUT/validation.json (per instance: holds,
the reason when not, the gold statuses, the tests at fault) and OUT/valid.<ext>,
the rows of the dataset that hold, in the dataset's own format (CSV, JSON, JSONL).
Records of every run are kept under OUT/ as eval keeps them (models "gold" and
"no-patch"); re-running resumes.

eval --validation OUT/validation.json uses it to tell an environment failure from
a patch that broke the build: in strict mode a run that parses to no test is
infra_failure only for an instance that does not hold (or whose log says the
environment is broken), else unresolved.

--runtime docker runs every instance in its own container, its image resolved
as 'polynfi eval --runtime docker' resolves it (the row's image, as SWE-bench
5.x rows name theirs, --image-template, or a build from the row's Dockerfile or
task directory), with the same container flags. --runtime kubernetes is not
supported by validate (eval supports it). --format json prints the validation
report (validation.json) on stdout instead of the summary.

SWE-NFI task files are not validated here (validate checks repository
instances' FAIL_TO_PASS and PASS_TO_PASS): check a task set with
'polynfi eval --dataset TASKS --predictions gold', whose human reference must
pass the tasks' tests (exit 2 names the file).

Exit status: 0 when every instance holds, 1 when some do not, 2 for bad flags
(or an SWE-NFI task file), 3 for unreadable inputs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.dataset == "" || o.out == "" {
				return usagef("--dataset and --out are required")
			}
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			if err := o.containerOptions.validate(); err != nil {
				return err
			}
			if o.runtime == "kubernetes" {
				return usagef("--runtime kubernetes: validate runs locally or in Docker (--runtime docker); eval supports kubernetes")
			}
			if o.runtime != "docker" && (o.imageTemplate != "" || cmd.Flags().Changed("cpus") || cmd.Flags().Changed("memory") || cmd.Flags().Changed("pids")) {
				return usagef("--image-template, --cpus, --memory and --pids need --runtime docker")
			}
			if kind, err := dataset.DetectKind(o.dataset); err == nil && kind == dataset.KindNFITasks {
				return usagef("%s holds SWE-NFI tasks: validate checks repository instances (gold resolves, FAIL_TO_PASS fails and PASS_TO_PASS passes without it); check NFI tasks with 'polynfi eval --dataset %s --predictions gold --out DIR' (the human reference must pass each task's tests)", o.dataset, o.dataset)
			}
			if o.runs < 1 {
				return usagef("--runs %d: want at least 1", o.runs)
			}
			o.workers = workerCount(o.workers)
			for _, p := range []*string{&o.out, &o.reposDir} {
				if *p != "" {
					abs, err := filepath.Abs(*p)
					if err != nil {
						return err
					}
					*p = abs
				}
			}
			return runValidate(e, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset file (.csv, .json, .jsonl)")
	outFlag(f, &o.out, "output directory (validation.json, valid.<ext>, records)")
	f.IntVar(&o.runs, "runs", 3, "gold runs per instance (a flaky test fails some of them)")
	workersFlag(f, &o.workers, "runs")
	f.StringVar(&o.reposDir, "repos-dir", "", "directory of local clones; default: <dataset dir>/repos")
	f.DurationVar(&o.timeout, "timeout", 0, "test command timeout (default: per language, 1800s for Java, C, C++ and Rust, 1200s otherwise)")
	f.StringSliceVar(&o.instanceIDs, "instance-ids", nil, "validate only these instance ids")
	f.BoolVar(&o.noIsolation, "no-isolation", false, "run tests without bubblewrap (unsafe; the records say so)")
	f.StringArrayVar(&o.toolchains, "toolchain", nil, "extra host directory the tests may read under isolation (repeatable)")
	f.StringVar(&o.format, "format", "text", "output format: text (summary) or json (the validation report)")
	o.containerOptions.register(f, true)
	f.Lookup("runtime").Usage = "where tests run: local (a work tree on this machine, under bubblewrap) or docker (a container per instance from its own image, as eval --runtime docker; DOCKER_HOST is honoured)"
	return c
}

func runValidate(e *env, o validateOptions) error {
	dsDir, err := harness.DatasetDir(o.dataset)
	if err != nil {
		return err
	}
	bo := o.containerOptions.backend(o.out, e.stderr)
	bo.StartAhead, bo.Workers, bo.DatasetDir, bo.Toolchains = o.startAhead, o.workers, dsDir, o.toolchains
	bo.Local = runtime.LocalOptions{NoIsolation: o.noIsolation}
	b := newBar(e.stderr, 0, "validating")
	rep, ds, err := harness.RunValidation(e.ctx, harness.ValidateOptions{Dataset: o.dataset, Out: o.out, ReposDir: o.reposDir, Runs: o.runs,
		Workers: o.workers, Timeout: o.timeout, InstanceIDs: o.instanceIDs, Retries: o.retries, RunKey: bo.RunKey, Log: e.stderr,
		Progress: func(done, total int) { b.setTotal(total); b.set(done) }, RunDone: b.finish, Started: b.begin, Finished: b.end, Attach: backend.Attacher(bo)})
	if err != nil {
		return err
	}
	if o.format == "json" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if _, err := e.stdout.Write(append(data, '\n')); err != nil {
			return err
		}
		if rep.Holding < rep.Total || len(ds.Errors) > 0 {
			return exitError{1}
		}
		return nil
	}
	fmt.Fprintf(e.stdout, "%d/%d instances hold (%d gold runs each, one run without a patch)", rep.Holding, rep.Total, o.runs)
	if n := len(ds.Errors); n > 0 {
		fmt.Fprintf(e.stdout, "; %d rows could not be read", n)
	}
	fmt.Fprintln(e.stdout)
	for _, v := range rep.Instances {
		if !v.Holds {
			fmt.Fprintf(e.stdout, "  %s: %s\n", v.InstanceID, v.Reason)
		}
		for _, f := range v.FlakyTests {
			fmt.Fprintf(e.stdout, "    flaky %s %s: passed %d of %d gold runs\n", f.List, textesc.Terminal(f.Test), f.Passed, f.Passed+f.Failed)
		}
	}
	fmt.Fprintf(e.stdout, "report: %s\n", filepath.Join(o.out, harness.ValidationFile))
	if rep.Subset != "" {
		fmt.Fprintf(e.stdout, "subset that holds: %s\n", rep.Subset)
	}
	if rep.Holding < rep.Total || len(ds.Errors) > 0 {
		return exitError{1}
	}
	return nil
}
