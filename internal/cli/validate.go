package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// ValidationFile is the name of the validation report in validate's output
// directory; eval --validation reads it.
const ValidationFile = "validation.json"

// validationReport is what validate writes to OUT/validation.json.
type validationReport struct {
	Dataset   string                       `json:"dataset"`
	Runs      int                          `json:"runs"`
	Total     int                          `json:"total"`
	Holding   int                          `json:"holding"`
	Subset    string                       `json:"subset,omitempty"`
	Instances []harness.InstanceValidation `json:"instances"`
	Started   time.Time                    `json:"started_at"`
	ElapsedS  float64                      `json:"elapsed_s"`
}

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
	start := time.Now()
	ds, err := dataset.Load(o.dataset)
	if err != nil {
		return fmt.Errorf("load dataset: %w", err)
	}
	for _, re := range ds.Errors {
		fmt.Fprintf(e.stderr, "polynfi: row not validated: %s\n", textesc.Terminal(re.Error()))
	}
	instances := ds.Instances
	if len(o.instanceIDs) > 0 {
		want := map[string]bool{}
		for _, id := range o.instanceIDs {
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
		return fmt.Errorf("%s: no valid instance to validate", o.dataset)
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
	store, err := harness.OpenStore(o.out)
	if err != nil {
		return err
	}
	defer store.Close()
	h := &harness.Harness{
		Repos:      harness.NewRepos(o.reposDir, filepath.Join(o.out, ".repos")),
		ScratchDir: store.ScratchDir(),
		Timeout:    o.timeout,
		NativeMode: harness.Mode(ds.NativeMode()),
		RunID:      "validate",
		RunEmpty:   true,
		Retries:    o.retries,
		RunKey:     runKey(o.out),
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
	} else {
		runner := runtime.NewLocal(e.ctx, runtime.LocalOptions{NoIsolation: o.noIsolation})
		defer runner.Close()
		if err := checkSandbox(e, runner); err != nil {
			return err
		}
		h.Runtime = runner
		h.Env = []string{"POLYNFI_DATASET_DIR=" + dsDir}
		h.ReadOnly = toolchainDirs(dsDir, o.toolchains)
	}
	jobs := harness.ValidationJobs(instances, o.runs)
	b := newBar(e.stderr, len(jobs), "validating")
	res, runErr := h.Run(e.ctx, jobs, store, harness.RunOptions{Workers: o.workers, Progress: func(ev harness.Event) { b.set(ev.Done) }})
	b.finish()
	if engine != nil {
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
	if runErr != nil {
		return runErr
	}
	vals := harness.Validate(jobs, res.Records, o.runs)
	rep := validationReport{Dataset: o.dataset, Runs: o.runs, Total: len(vals), Instances: vals, Started: start.UTC()}
	holds := map[string]bool{}
	for _, v := range vals {
		if v.Holds {
			rep.Holding++
			holds[v.InstanceID] = true
		}
	}
	subset, err := writeSubset(o.dataset, o.out, holds)
	if err != nil {
		fmt.Fprintf(e.stderr, "polynfi: subset not written: %v\n", err)
	}
	rep.Subset = subset
	rep.ElapsedS = time.Since(start).Seconds()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := harness.WriteFileAtomic(filepath.Join(o.out, ValidationFile), append(data, '\n')); err != nil {
		return err
	}
	if o.format == "json" {
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
	for _, v := range vals {
		if !v.Holds {
			fmt.Fprintf(e.stdout, "  %s: %s\n", v.InstanceID, v.Reason)
		}
		for _, f := range v.FlakyTests {
			fmt.Fprintf(e.stdout, "    flaky %s %s: passed %d of %d gold runs\n", f.List, textesc.Terminal(f.Test), f.Passed, f.Passed+f.Failed)
		}
	}
	fmt.Fprintf(e.stdout, "report: %s\n", filepath.Join(o.out, ValidationFile))
	if subset != "" {
		fmt.Fprintf(e.stdout, "subset that holds: %s\n", subset)
	}
	if rep.Holding < rep.Total || len(ds.Errors) > 0 {
		return exitError{1}
	}
	return nil
}

// writeSubset writes the rows of the dataset file whose instance_id is in
// keep to out/valid.<ext>, in the file's own format (CSV, JSON list,
// JSONL), and returns its path.
func writeSubset(file, out string, keep map[string]bool) (string, error) {
	ext := strings.ToLower(filepath.Ext(file))
	data, err := regfile.ReadFile(file)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(out, "valid"+ext)
	var buf bytes.Buffer
	switch ext {
	case ".csv":
		r := csv.NewReader(bytes.NewReader(data))
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		if err != nil || len(rows) == 0 {
			return "", fmt.Errorf("%s: %v", file, err)
		}
		col := -1
		for i, h := range rows[0] {
			if strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) == "instance_id" {
				col = i
			}
		}
		if col < 0 {
			return "", fmt.Errorf("%s: no instance_id column", file)
		}
		w := csv.NewWriter(&buf)
		_ = w.Write(rows[0])
		for _, row := range rows[1:] {
			if col < len(row) && keep[row[col]] {
				_ = w.Write(row)
			}
		}
		w.Flush()
	case ".jsonl":
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			var row struct {
				InstanceID string `json:"instance_id"`
			}
			if json.Unmarshal(sc.Bytes(), &row) == nil && keep[row.InstanceID] {
				buf.Write(sc.Bytes())
				buf.WriteByte('\n')
			}
		}
	case ".json":
		var rows []json.RawMessage
		if err := json.Unmarshal(data, &rows); err != nil {
			return "", fmt.Errorf("%s: want a JSON list of rows: %v", file, err)
		}
		var kept []json.RawMessage
		for _, r := range rows {
			var row struct {
				InstanceID string `json:"instance_id"`
			}
			if json.Unmarshal(r, &row) == nil && keep[row.InstanceID] {
				kept = append(kept, r)
			}
		}
		b, _ := json.MarshalIndent(kept, "", "  ")
		buf.Write(b)
		buf.WriteByte('\n')
	default:
		return "", fmt.Errorf("%s: the subset is written for CSV, JSON and JSONL datasets only", file)
	}
	if err := harness.WriteFileAtomic(dst, buf.Bytes()); err != nil {
		return "", err
	}
	return dst, nil
}

// loadValidation reads a validation report (validate's validation.json)
// into the map eval's harness uses.
func loadValidation(file string) (map[string]harness.Validation, error) {
	f, err := regfile.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rep validationReport
	if err := json.NewDecoder(io.LimitReader(f, 1<<30)).Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	m := map[string]harness.Validation{}
	for _, v := range rep.Instances {
		m[v.InstanceID] = v.Validation
	}
	return m, nil
}
