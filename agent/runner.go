package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// DefaultTimeout is the default wall-time limit of one agent run.
const DefaultTimeout = 30 * time.Minute

// DefaultMaxOutput bounds each recorded stream and the kept trajectory, in bytes.
const DefaultMaxOutput = 16 << 20

// AllowedEnv are the variables of polynfi's own environment an agent
// sees (when set): what a program needs to find its tools, its home and
// configuration, the terminal and locale, and the network's proxies and
// certificate authorities. Anything else (API keys included) reaches the
// agent only through Options.Env (--agent-env).
var AllowedEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "TERM",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"}

// Options configure a Runner.
type Options struct {
	// Agent is a preset name (Presets) or GoldAgent.
	Agent string
	// Name is the predictions' model_name_or_path (default: Agent).
	Name string
	// Command overrides the preset's command template (see Expand).
	Command string
	// Model is the --model value given to the preset ({model_args}).
	Model string
	// Runs is the number of repeats per task (≥ 1).
	Runs int
	// Workers bounds the runs at once (≥ 1).
	Workers int
	// Timeout is the wall-time limit of one run (0: DefaultTimeout).
	Timeout time.Duration
	// Per-run budgets (0: none): a run whose reported tokens (in + out) or
	// cost exceed them is stopped as soon as its output shows it, and
	// marked over_budget.
	MaxTokens  int64
	MaxCostUSD float64
	// Whole-run budgets (0: none), over the runs of this invocation: when
	// spent, runs in flight are stopped and marked, and no new run starts.
	TotalMaxTokens  int64
	TotalMaxCostUSD float64
	// Env holds KEY=VALUE pairs given to the agent besides AllowedEnv.
	Env []string
	// Hide lists more host paths the agent must not see (the dataset's
	// directory, Out and the repositories are always hidden).
	Hide []string
	// Writable lists more host paths the agent may write (its state
	// directories, e.g. ~/.claude, are added by the preset).
	Writable []string
	// Visible lists host paths the agent may read even inside a hidden
	// directory (its program, when installed under /tmp).
	Visible []string
	// Redo runs again the recorded runs that did not complete.
	Redo bool
	// MaxOutput bounds each recorded stream and the kept trajectory (0: DefaultMaxOutput).
	MaxOutput int
	// Out is the output directory (records under Out/runs, predictions in
	// Out/predictions.jsonl, workspaces under Out/.work).
	Out string
	// Runtime runs the agent: a Local (bubblewrap over the host workspace)
	// or a container runtime, where the workspace is copied into
	// ContainerWorkdir of a container from Image and copied back after.
	Runtime runtime.Runtime
	// Image is the container image of the runs that have no image of
	// their own (SWE-NFI tasks) under a container runtime.
	Image string
	// Images resolves a repository instance's own image, as the harness
	// does (package images: the row's image, --image-template, a build
	// from the row's Dockerfile or task directory). With a container
	// runtime, an instance's run starts a container from it at the
	// repository (harness.ContainerWorkdir), replaces its .git by one
	// commit of the files as they are, and takes the change there.
	Images harness.ImageResolver
	// Limits bound each agent container (container runtimes).
	Limits runtime.Limits
	// RunKey labels every sandbox (runtime.LabelRun) so that a later run
	// with the same key removes what a killed one left.
	RunKey string
	// Copy lists host files copied into every agent container before the
	// agent starts (its program, its configuration).
	Copy []Copy
	// Setup is a bash script run in every agent container before the
	// agent (network on, the agent's environment), e.g. to install it;
	// a failure is the run's error.
	Setup string
	// ContainerWorkdir is where the workspace lives in a container
	// (default DefaultContainerWorkdir).
	ContainerWorkdir string
	// MaxWorkspace bounds what is copied back out of a container's
	// workspace, in bytes (0: DefaultMaxWorkspace).
	MaxWorkspace int64
	// Repos provides repositories at their base commit.
	Repos *clones.Repos
	// Progress, when set, is called once per settled run, from one
	// goroutine at a time.
	Progress func(Event)
	// Started and Finished, when set, are called with a run's name (the
	// task's instance_id, "#N" added for the Nth run when Runs > 1) when
	// it begins and when it ends (settled, failed or abandoned), from the
	// workers' goroutines: several at once.
	Started, Finished func(name string)
	// KeepWorkspaces leaves each run's workspace on disk.
	KeepWorkspaces bool
}

// Event reports one settled run.
type Event struct {
	Record *Record
	Reused bool
	Done   int
	Total  int
}

// Summary is what Run did.
type Summary struct {
	Total      int // runs asked for
	Ran        int // runs done now
	Reused     int // runs found recorded and kept
	NotStarted int // runs not started: the whole-run budget was spent (BudgetSpent says which)
	// Stopped counts the runs never started because the invocation was
	// interrupted (or stopped on an error) first; Abandoned those started
	// and interrupted in flight (no record). Total = Ran + Reused +
	// NotStarted + Stopped + Abandoned.
	Stopped     int
	Abandoned   int
	BudgetSpent string         // the whole-run budget that was spent ("total tokens 2000 > 1500"), "" when none
	ByStatus    map[string]int // over the runs done now and reused
	// Sums over the runs done now and reused: agent wall time; tokens and
	// cost where reported (Unknown* count the runs that did not report).
	AgentSeconds  float64
	Tokens        int64
	UnknownTokens int
	CostUSD       float64
	UnknownCost   int
	// OverheadS is polynfi's mean own time per run done now (workspace,
	// collection, records), OverheadN the runs it is over.
	OverheadS   float64
	OverheadN   int
	Elapsed     time.Duration
	Interrupted bool
	Records     []*Record // every record of this invocation's runs
}

// Runner runs one agent over tasks.
type Runner struct {
	opt    Options
	preset Preset
	hide   []string
	notes  []string

	mu        sync.Mutex
	spentTok  int64
	spentCost float64
	live      map[*liveRun]Usage
	exhausted string
}

type liveRun struct{}

// NewRunner checks the options and returns a Runner. hideAlways are the
// paths hidden from every run (the dataset's directory, the repositories).
func NewRunner(opt Options, hideAlways []string) (*Runner, error) {
	r := &Runner{opt: opt, live: map[*liveRun]Usage{}}
	if opt.Runs < 1 {
		return nil, fmt.Errorf("runs %d: want at least 1", opt.Runs)
	}
	if r.opt.Workers < 1 {
		r.opt.Workers = 1
	}
	if r.opt.Timeout <= 0 {
		r.opt.Timeout = DefaultTimeout
	}
	if r.opt.MaxOutput <= 0 {
		r.opt.MaxOutput = DefaultMaxOutput
	}
	if opt.Agent != GoldAgent {
		p, err := LookupPreset(opt.Agent)
		if err != nil {
			return nil, err
		}
		r.preset = p
		if opt.Command != "" {
			r.preset.Command = opt.Command
		}
		if err := CheckTemplate(r.preset.Command); err != nil {
			return nil, err
		}
	}
	if r.opt.Name == "" {
		r.opt.Name = opt.Agent
	}
	if r.opt.Runtime == nil {
		return nil, errors.New("no runtime")
	}
	home, _ := os.UserHomeDir()
	for _, h := range append(append(append([]string(nil), hideAlways...), opt.Out), opt.Hide...) {
		if h == "" {
			continue
		}
		abs, err := filepath.Abs(h)
		if err != nil {
			return nil, err
		}
		if abs == "/" || (home != "" && (home == abs || strings.HasPrefix(home+"/", abs+"/"))) {
			r.notes = append(r.notes, fmt.Sprintf("%s not hidden from the agent: it holds the home directory", abs))
			continue
		}
		r.hide = append(r.hide, abs)
	}
	r.hide = append(r.hide, os.TempDir()) // a private /tmp
	return r, nil
}

// remove removes sb (whatever ctx's state) and times it.
func (r *Runner) remove(ctx context.Context, sb runtime.Sandbox, rec *Record) {
	t := time.Now()
	if err := sb.Remove(context.WithoutCancel(ctx)); err != nil {
		rec.Notes = append(rec.Notes, "sandbox not removed: "+err.Error())
	}
	rec.Timing.RemoveS = time.Since(t).Seconds()
}

// SetImages sets Options.Images.
func (r *Runner) SetImages(i harness.ImageResolver) { r.opt.Images = i }

// SetProgress sets Options.Progress.
func (r *Runner) SetProgress(f func(Event)) { r.opt.Progress = f }

// Notes are warnings about the set-up (paths that could not be hidden).
func (r *Runner) Notes() []string { return r.notes }

type job struct {
	task Task
	run  int
	dir  string
}

// Run runs every task Runs times, skipping the runs recorded earlier (all
// but those that did not complete when Redo), and writes
// Out/predictions.jsonl from every record in Out when done or
// interrupted. The error is non-nil for an interruption (wrapping
// ctx.Err()) or when a record or the predictions cannot be written.
func (r *Runner) Run(ctx context.Context, tasks []Task) (*Summary, error) {
	start := time.Now()
	sum := &Summary{ByStatus: map[string]int{}}
	// Workspaces left by a killed run of this agent go first.
	work := r.workDir()
	if err := os.RemoveAll(work); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	var jobs []job
	var reused []*Record
	for _, t := range tasks {
		fp := t.Fingerprint()
		for k := 0; k < r.opt.Runs; k++ {
			dir := RunDir(r.opt.Out, r.opt.Name, t.ID(), k)
			if old, ok := readRecordIn(r.opt.Out, dir); ok && old.TaskSHA256 == fp && old.Status != StatusError && !(r.opt.Redo && old.Failed()) {
				reused = append(reused, old)
				continue
			}
			jobs = append(jobs, job{task: t, run: k, dir: dir})
		}
	}
	sum.Total = len(jobs) + len(reused)
	var mu sync.Mutex
	done := 0
	settle := func(rec *Record, isReused bool) {
		mu.Lock()
		defer mu.Unlock()
		done++
		sum.Records = append(sum.Records, rec)
		sum.ByStatus[rec.Status]++
		sum.AgentSeconds += rec.DurationS
		if n, ok := rec.Usage.Tokens(); ok {
			sum.Tokens += n
		} else {
			sum.UnknownTokens++
		}
		if rec.Usage.CostUSD != nil {
			sum.CostUSD += *rec.Usage.CostUSD
		} else {
			sum.UnknownCost++
		}
		if isReused {
			sum.Reused++
		} else {
			sum.Ran++
			sum.OverheadS += rec.Timing.OverheadS
			sum.OverheadN++
		}
		if r.opt.Progress != nil {
			r.opt.Progress(Event{Record: rec, Reused: isReused, Done: done, Total: sum.Total})
		}
	}
	for _, rec := range reused {
		settle(rec, true)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opt.Workers)
	started := 0
	for _, j := range jobs {
		if gctx.Err() != nil {
			break
		}
		if r.budgetSpent() != "" {
			mu.Lock()
			sum.NotStarted++
			mu.Unlock()
			continue
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil // stopped before it started
			}
			if r.budgetSpent() != "" {
				mu.Lock()
				sum.NotStarted++
				mu.Unlock()
				return nil
			}
			mu.Lock()
			started++
			mu.Unlock()
			if r.opt.Started != nil {
				name := j.task.ID()
				if r.opt.Runs > 1 {
					name = fmt.Sprintf("%s#%d", name, j.run+1)
				}
				r.opt.Started(name)
				if r.opt.Finished != nil {
					defer r.opt.Finished(name)
				}
			}
			rec, err := r.runOne(gctx, j)
			if err != nil {
				if gctx.Err() != nil {
					return nil // interrupted: abandoned
				}
				return err
			}
			settle(rec, false)
			return nil
		})
	}
	err := g.Wait()
	if sum.OverheadN > 0 {
		sum.OverheadS /= float64(sum.OverheadN)
	}
	sum.Abandoned = started - sum.Ran
	sum.Stopped = sum.Total - sum.Reused - sum.NotStarted - started
	if sum.NotStarted > 0 {
		sum.BudgetSpent = r.budgetSpent()
	}
	sum.Elapsed = time.Since(start)
	sortRecords(sum.Records)
	if perr := WritePredictions(r.opt.Out); perr != nil && err == nil {
		err = perr
	}
	if ctx.Err() != nil {
		sum.Interrupted = true
		return sum, fmt.Errorf("interrupted after %s: %d/%d runs recorded: %w", sum.Elapsed.Round(time.Second), sum.Ran+sum.Reused, sum.Total, ctx.Err())
	}
	return sum, err
}

// workDir is the parent of this agent's workspaces: OUT/.work/<agent>.
func (r *Runner) workDir() string { return filepath.Join(r.opt.Out, ".work", safeName(r.opt.Name)) }

// budgetSpent says which whole-run budget is spent ("" when none).
func (r *Runner) budgetSpent() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.exhausted
}

// overBudget checks one run's usage so far against the per-run budgets and,
// with every other run's, against the whole-run budgets.
func (r *Runner) overBudget(lr *liveRun, u Usage) string {
	tok, tokOK := u.Tokens()
	if r.opt.MaxTokens > 0 && tokOK && tok > r.opt.MaxTokens {
		return fmt.Sprintf("run tokens %d > %d", tok, r.opt.MaxTokens)
	}
	if r.opt.MaxCostUSD > 0 && u.CostUSD != nil && *u.CostUSD > r.opt.MaxCostUSD {
		return fmt.Sprintf("run cost $%.4f > $%.4f", *u.CostUSD, r.opt.MaxCostUSD)
	}
	if r.opt.TotalMaxTokens <= 0 && r.opt.TotalMaxCostUSD <= 0 {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if lr != nil {
		r.live[lr] = u
	}
	totTok, totCost := r.spentTok, r.spentCost
	for _, lu := range r.live {
		if n, ok := lu.Tokens(); ok {
			totTok += n
		}
		if lu.CostUSD != nil {
			totCost += *lu.CostUSD
		}
	}
	switch {
	case r.opt.TotalMaxTokens > 0 && totTok > r.opt.TotalMaxTokens:
		r.exhausted = fmt.Sprintf("total tokens %d > %d", totTok, r.opt.TotalMaxTokens)
	case r.opt.TotalMaxCostUSD > 0 && totCost > r.opt.TotalMaxCostUSD:
		r.exhausted = fmt.Sprintf("total cost $%.4f > $%.4f", totCost, r.opt.TotalMaxCostUSD)
	}
	return r.exhausted
}

// finishLive moves a finished run's usage from the live set to the spent totals.
func (r *Runner) finishLive(lr *liveRun, u Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.live, lr)
	if n, ok := u.Tokens(); ok {
		r.spentTok += n
	}
	if u.CostUSD != nil {
		r.spentCost += *u.CostUSD
	}
}

// env is the agent's environment: AllowedEnv from ours (local runtime
// only: a container keeps its image's, with HOME containerHome unless
// Options.Env sets it), then Options.Env, then the run's POLYNFI_*
// variables.
func (r *Runner) env(pl placement, t Task, run int) []string {
	var out []string
	tmp := "/tmp"
	if pl.local {
		for _, k := range AllowedEnv {
			if v, ok := os.LookupEnv(k); ok {
				out = append(out, k+"="+v)
			}
		}
		tmp = os.TempDir()
	}
	if !pl.local && !hasEnv(r.opt.Env, "HOME") {
		out = append(out, "HOME="+containerHome)
	}
	out = append(out, r.opt.Env...)
	out = append(out, "POLYNFI_INSTANCE_ID="+t.ID(), fmt.Sprintf("POLYNFI_RUN=%d", run), "POLYNFI_WORKDIR="+pl.workdir,
		"POLYNFI_PROMPT_FILE="+pl.promptFile, "POLYNFI_OUT_DIR="+pl.outDir, "TMPDIR="+tmp)
	return out
}

// hasEnv says whether env (KEY=VALUE pairs) sets key.
func hasEnv(env []string, key string) bool {
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			return true
		}
	}
	return false
}

// runOne runs one (task, run) and records it. The error is non-nil only
// when ctx was cancelled (the run is abandoned, nothing recorded) or the
// record cannot be written.
func (r *Runner) runOne(ctx context.Context, j job) (*Record, error) {
	t0 := time.Now()
	rec := &Record{Schema: RecordSchema, InstanceID: j.task.ID(), Agent: r.opt.Name, Preset: r.opt.Agent, Run: j.run,
		Kind: j.task.Kind(), TaskSHA256: j.task.Fingerprint(), StartedAt: t0.UTC(), ExitCode: -1, Changed: []string{}}
	rec.Notes = append(rec.Notes, r.notes...)
	var ws *workspace
	var err error
	if r.inImage(j.task) {
		ws, err = prepareBare(j.task, r.workDir())
	} else {
		ws, err = prepare(ctx, r.opt.Repos, j.task, r.workDir())
	}
	if ctx.Err() != nil {
		if ws != nil {
			ws.remove()
		}
		return nil, ctx.Err()
	}
	if err != nil {
		rec.Status, rec.Error = StatusError, fmt.Sprintf("workspace: %v", err)
		return rec, r.save(j, rec, nil, nil, nil, t0)
	}
	if !r.opt.KeepWorkspaces {
		defer ws.remove()
	}
	tPrep := time.Now()
	rec.Timing.PrepareS = tPrep.Sub(t0).Seconds()

	var res runtime.Result
	var out Output
	if r.opt.Agent == GoldAgent {
		rec.Command = "(oracle: apply the reference solution)"
		rec.Sandbox = runtime.Info{Runtime: "none"}
		err := ws.applyGold(ctx, j.task)
		res.Duration = time.Since(tPrep)
		if err != nil {
			rec.Status, rec.Error = StatusFailed, fmt.Sprintf("apply the reference: %v", err)
		} else {
			rec.Status, rec.ExitCode = StatusCompleted, 0
		}
	} else {
		var abandon error
		res, out, abandon = r.exec(ctx, j, ws, rec)
		if abandon != nil {
			return nil, abandon
		}
	}
	rec.DurationS = res.Duration.Seconds()
	rec.Timing.AgentS = res.Duration.Seconds()
	tCol := time.Now()
	if r.opt.Agent != GoldAgent && !r.inImage(j.task) && r.place(ws).local {
		rec.WorkspaceGit = readGitState(filepath.Join(ws.Dir, ".git"))
	}
	var ch *change
	if out.change != nil {
		ch = out.change
	} else if rec.Status != StatusError && !r.inImage(j.task) {
		var err error
		ch, err = ws.collect(ctx, j.task)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			rec.Status, rec.Error = StatusError, err.Error()
			ch = nil
		}
	}
	if ch != nil {
		rec.Changed = append(rec.Changed, ch.Paths...)
		rec.Skipped = ch.Skipped
		s := sha256.Sum256([]byte(ch.Patch))
		rec.PatchSHA256 = hex.EncodeToString(s[:])
	}
	rec.Timing.CollectS = time.Since(tCol).Seconds() + out.collectS
	return rec, r.save(j, rec, ch, &res, &out, t0)
}

// exec runs the agent's command in a sandbox over the workspace, with the
// wall-time limit and the budgets, and fills rec's command, sandbox,
// status, exit code and usage. The error is non-nil only when ctx was
// cancelled.
func (r *Runner) exec(ctx context.Context, j job, ws *workspace, rec *Record) (runtime.Result, Output, error) {
	var res runtime.Result
	var out Output
	home, _ := os.UserHomeDir()
	pl := r.place(ws)
	tStart := time.Now()
	spec := runtime.Spec{Name: fmt.Sprintf("%s-%s-run%d", r.opt.Name, j.task.ID(), j.run), Workdir: pl.workdir,
		CleanEnv: true, Network: true,
		Labels: map[string]string{"polynfi.agent": r.opt.Name, "polynfi.instance": j.task.ID(), "polynfi.run": fmt.Sprint(j.run)}}
	if r.opt.RunKey != "" {
		spec.Labels[runtime.LabelRun] = r.opt.RunKey
	}
	var sb runtime.Sandbox
	if r.inImage(j.task) {
		var err error
		sb, pl, err = r.startInImage(ctx, j, rec, spec)
		if sb != nil {
			defer r.remove(ctx, sb, rec)
			rec.Sandbox = sb.Info()
		}
		if err != nil {
			if ctx.Err() != nil {
				return res, out, ctx.Err()
			}
			rec.Status, rec.Error = StatusError, err.Error()
			return res, out, nil
		}
	}
	cmd, err := Expand(r.preset.Command, Vars{PromptFile: pl.promptFile, Prompt: j.task.Prompt(), Workdir: pl.workdir, OutDir: pl.outDir,
		InstanceID: j.task.ID(), Run: j.run, Model: r.opt.Model, ModelFlag: r.preset.ModelFlag, Files: targetFiles(j.task)})
	if err != nil {
		rec.Status, rec.Error = StatusError, err.Error()
		return res, out, nil
	}
	rec.Command = cmd
	env := r.env(pl, j.task, j.run)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		rec.EnvNames = append(rec.EnvNames, k)
	}
	spec.Env = env
	if sb != nil {
		// started by startInImage
	} else if pl.local {
		// The agent view: an allow-list (runtime.Command.AgentView), a
		// private home holding a copy of the preset's state, the agent
		// never the host's root.
		hdir, err := ws.privateHome(home, r.preset.stateDirs(home))
		if hdir != "" {
			// The copy holds the agent's login: never left on disk, not
			// even with --keep-workspaces.
			defer os.RemoveAll(hdir)
		}
		if err != nil {
			rec.Status, rec.Error = StatusError, fmt.Sprintf("prepare the agent's home: %v", err)
			return res, out, nil
		}
		spec.AgentView, spec.Home, spec.Hide, spec.Visible = true, hdir, r.hide, r.opt.Visible
		spec.Writable = append([]string{ws.AgentDir}, r.opt.Writable...)
		spec.Own = []string{ws.AgentDir}
		rec.Hidden = r.hide
	} else {
		spec.Image, spec.Limits = r.opt.Image, r.opt.Limits
	}
	if sb == nil {
		sb, err = r.opt.Runtime.Start(ctx, spec)
		if sb != nil {
			defer r.remove(ctx, sb, rec)
		}
		if err != nil {
			if ctx.Err() != nil {
				return res, out, ctx.Err()
			}
			rec.Status, rec.Error = StatusError, fmt.Sprintf("start the sandbox: %v", err)
			return res, out, nil
		}
		rec.Sandbox = sb.Info()
		if !pl.local {
			if err := r.copyIn(ctx, sb, ws, pl); err != nil {
				if ctx.Err() != nil {
					return res, out, ctx.Err()
				}
				rec.Status, rec.Error = StatusError, fmt.Sprintf("copy the workspace into the sandbox: %v", err)
				return res, out, nil
			}
		}
	}
	if !pl.local {
		rec.Timing.SandboxS = time.Since(tStart).Seconds() - rec.Timing.ImageS
		tSetup := time.Now()
		err := r.copyAgentFiles(ctx, sb)
		if err == nil {
			err = r.setup(ctx, sb, env)
		}
		if err == nil {
			err = r.handOver(ctx, sb, pl)
		}
		rec.Timing.SetupS = time.Since(tSetup).Seconds()
		if err != nil {
			if ctx.Err() != nil {
				return res, out, ctx.Err()
			}
			rec.Status, rec.Error = StatusError, err.Error()
			return res, out, nil
		}
	}

	reader := r.preset.NewReader()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	lr := &liveRun{}
	var overMu sync.Mutex
	over := ""
	lw := &lineWriter{r: reader, check: func() {
		if why := r.overBudget(lr, reader.Live()); why != "" {
			overMu.Lock()
			if over == "" {
				over = why
			}
			overMu.Unlock()
			cancel()
		}
	}}
	// A whole-run budget spent by another run stops this one too.
	stopWatch := make(chan struct{})
	go func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopWatch:
				return
			case <-runCtx.Done():
				return
			case <-tick.C:
				if why := r.budgetSpent(); why != "" {
					overMu.Lock()
					if over == "" {
						over = why
					}
					overMu.Unlock()
					cancel()
					return
				}
			}
		}
	}()
	c := runtime.Command{Script: cmd, Timeout: r.opt.Timeout, Stdin: strings.NewReader(j.task.Prompt()), Stdout: lw}
	if !pl.local {
		c.User = ContainerUser
	}
	if r.inImage(j.task) {
		c.Env = env // the container was made before the environment was known
	}
	res, err = sb.Exec(runCtx, c)
	close(stopWatch)
	lw.close()
	if ctx.Err() != nil {
		r.finishLive(lr, Usage{})
		return res, out, ctx.Err()
	}
	overMu.Lock()
	stopped := over
	overMu.Unlock()
	if err != nil && stopped == "" {
		r.finishLive(lr, Usage{})
		rec.Status, rec.Error = StatusError, err.Error()
		return res, out, nil
	}
	out.Stdout, out.Stderr = res.Stdout, res.Stderr
	files, ferr := sb.CopyOut(context.WithoutCancel(ctx), pl.outDir, int64(r.opt.MaxOutput))
	if ferr != nil {
		rec.Notes = append(rec.Notes, fmt.Sprintf("trajectory not kept: %v", ferr))
	}
	for _, f := range files {
		if pl.local || f.Path != ".keep" {
			out.Files = append(out.Files, f)
		}
	}
	rec.Usage = reader.Finish(out)
	r.finishLive(lr, rec.Usage)
	if r.inImage(j.task) {
		tCol := time.Now()
		ch, err := r.collectInImage(context.WithoutCancel(ctx), sb, pl)
		out.collectS = time.Since(tCol).Seconds()
		if err != nil {
			rec.Status, rec.Error = StatusError, err.Error()
			return res, out, nil
		}
		out.change = ch
	} else if !pl.local {
		if err := r.copyBack(context.WithoutCancel(ctx), sb, ws, pl); err != nil {
			rec.Status, rec.Error = StatusError, fmt.Sprintf("copy the workspace out of the sandbox: %v", err)
			return res, out, nil
		}
	}
	rec.ExitCode, rec.TimedOut = res.ExitCode, res.TimedOut
	rec.Notes = append(rec.Notes, res.Notes...)
	switch {
	case stopped != "":
		rec.Status, rec.OverBudget = StatusOverBudget, stopped
		rec.Notes = append(rec.Notes, "stopped: over budget ("+stopped+")")
		rec.ExitCode = -1
	case res.TimedOut:
		rec.Status = StatusTimeout
		rec.Error = fmt.Sprintf("killed at the wall-time limit (%s)", r.opt.Timeout)
	default:
		if why := r.overBudget(nil, rec.Usage); why != "" && !strings.HasPrefix(why, "total") {
			rec.Status, rec.OverBudget = StatusOverBudget, why
			rec.Notes = append(rec.Notes, "over budget after exit ("+why+")")
		} else if res.ExitCode == 0 {
			rec.Status = StatusCompleted
		} else {
			rec.Status = StatusFailed
			rec.Error = exitReason(res.ExitCode, res.Stderr)
			if pl.local && res.Isolation == runtime.IsolationBwrap && (res.ExitCode == 126 || res.ExitCode == 127) {
				rec.Error += "; " + ProgramHiddenHint
			}
		}
	}
	if _, ok := rec.Usage.Tokens(); !ok && (r.opt.MaxTokens > 0 || r.opt.TotalMaxTokens > 0) {
		rec.Notes = append(rec.Notes, "token budget not enforced for this run: the agent reported no tokens")
	}
	if rec.Usage.CostUSD == nil && (r.opt.MaxCostUSD > 0 || r.opt.TotalMaxCostUSD > 0) {
		rec.Notes = append(rec.Notes, "cost budget not enforced for this run: the agent reported no cost")
	}
	return res, out, nil
}

func targetFiles(t Task) []string {
	if t.NFI != nil {
		return t.NFI.TargetPaths()
	}
	return nil
}

// NoPredictionNote is the note of a record whose run wrote no prediction
// because it did not complete and changed nothing.
const NoPredictionNote = "no prediction: the run did not complete and changed nothing (eval counts it as a missing prediction, not as an empty patch)"

// ProgramHiddenHint ends the error of a sandboxed local run whose command
// was not found or could not be executed (exit 127 or 126): the usual
// cause is a program outside what the agent sees.
const ProgramHiddenHint = "a program the command runs may not be visible inside the agent's sandbox, which holds only /usr, /etc, " +
	"the toolchains on PATH, its workspace and its home (not /tmp, /opt, /home, /root nor the dataset's directory): " +
	"give its directory with --agent-visible DIR (readable by the agent's user)"

// exitReason says why an agent that exited non-zero failed: its exit code
// (128+N is signal N, as bash reports a killed child) and the last
// non-blank line of its stderr, at most 300 bytes.
func exitReason(code int, stderr []byte) string {
	why := fmt.Sprintf("the agent exited with code %d", code)
	if code > 128 && code < 128+65 {
		why += fmt.Sprintf(" (killed by signal %d)", code-128)
	}
	lines := strings.Split(strings.TrimRight(string(stderr), " \t\r\n"), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		if len(last) > 300 {
			last = last[:300] + "..."
		}
		why += "; stderr ends: " + strings.ToValidUTF8(last, "?")
	}
	return why
}

// save writes the run's files and then, atomically, its record. A failed
// run keeps its change: what the agent left is its prediction.
func (r *Runner) save(j job, rec *Record, ch *change, res *runtime.Result, out *Output, t0 time.Time) error {
	tRec := time.Now()
	// The run's directory is replaced, never through a symbolic link
	// below the output directory (removing through a linked parent would
	// delete files elsewhere).
	rel, err := filepath.Rel(r.opt.Out, j.dir)
	if err != nil {
		return err
	}
	if err := safepath.MkdirAllIn(r.opt.Out, filepath.Dir(rel)); err != nil {
		return err
	}
	if err := os.RemoveAll(j.dir); err != nil {
		return err
	}
	if err := safepath.MkdirAllIn(r.opt.Out, rel); err != nil {
		return err
	}
	write := func(name string, b []byte) error {
		return atomicfile.WriteFileIn(r.opt.Out, filepath.Join(rel, name), b)
	}
	if err := write(PromptFile, []byte(j.task.Prompt())); err != nil {
		return err
	}
	if res != nil {
		rec.StdoutBytes, rec.StderrBytes = len(res.Stdout), len(res.Stderr)
		if err := write(StdoutFile, bound(res.Stdout, r.opt.MaxOutput)); err != nil {
			return err
		}
		if err := write(StderrFile, bound(res.Stderr, r.opt.MaxOutput)); err != nil {
			return err
		}
	}
	if out != nil {
		for _, f := range out.Files {
			if dataset.CheckRelPath(f.Path) != nil {
				continue
			}
			p := filepath.Join(j.dir, TrajectoryDir, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return err
			}
			rec.Trajectory = append(rec.Trajectory, f.Path)
		}
	}
	if ch != nil && rec.Status != StatusError {
		if err := write(PatchFile, []byte(ch.Patch)); err != nil {
			return err
		}
	}
	if ch != nil && rec.Status != StatusCompleted && len(ch.Paths) == 0 {
		// A run that did not complete and changed nothing (an agent that
		// crashed, timed out or was stopped before editing) has no
		// prediction: eval counts it as SWE-bench counts a missing
		// prediction (not submitted, not resolved), not as an agent's
		// empty answer.
		rec.Notes = append(rec.Notes, NoPredictionNote)
	} else if ch != nil && rec.Status != StatusError {
		p := predictionFor(j.task, rec.Agent, rec.Run, ch)
		d := rec.DurationS
		p.DurationS = &d
		p.TokensIn, p.TokensOut, p.CostUSD = rec.Usage.TokensIn, rec.Usage.TokensOut, rec.Usage.CostUSD
		line, err := predictionLine(p, j.task.NFI != nil)
		if err != nil {
			return err
		}
		if err := write(PredictionFile, append(line, '\n')); err != nil {
			return err
		}
	}
	rec.FinishedAt = time.Now().UTC()
	rec.Timing.RecordS = time.Since(tRec).Seconds()
	rec.Timing.TotalS = time.Since(t0).Seconds()
	rec.Timing.OverheadS = rec.Timing.TotalS - rec.Timing.AgentS - rec.Timing.ImageS - rec.Timing.SetupS
	b, err := jsonIndent(rec)
	if err != nil {
		return err
	}
	return write(RecordFile, b)
}

func bound(b []byte, max int) []byte {
	if len(b) <= max {
		return b
	}
	return append(append([]byte(nil), b[:max]...), fmt.Sprintf("\n[polynfi: %d more bytes not kept]\n", len(b)-max)...)
}

// WritePredictions writes Out/predictions.jsonl from the prediction of
// every recorded run in out (all agents), sorted by agent, instance and
// run, atomically. Runs in error have no prediction.
func WritePredictions(out string) error {
	recs, err := LoadRecords(out)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, rec := range recs {
		rel, err := filepath.Rel(out, filepath.Join(RunDir(out, rec.Agent, rec.InstanceID, rec.Run), PredictionFile))
		if err != nil {
			return err
		}
		b, err := safepath.ReadFileIn(out, rel)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		buf.Write(bytes.TrimRight(b, "\n"))
		buf.WriteByte('\n')
	}
	return atomicfile.Write(filepath.Join(out, PredictionsFile), buf.Bytes())
}

// StatusOrder lists the statuses in summary order.
var StatusOrder = []string{StatusCompleted, StatusFailed, StatusTimeout, StatusOverBudget, StatusError}

// StatusCounts renders ByStatus in StatusOrder ("completed 10, failed 2").
func (s *Summary) StatusCounts() string {
	var parts []string
	for _, st := range StatusOrder {
		parts = append(parts, fmt.Sprintf("%s %d", st, s.ByStatus[st]))
	}
	var extra []string
	for st, n := range s.ByStatus {
		if !contains(StatusOrder, st) {
			extra = append(extra, fmt.Sprintf("%s %d", st, n))
		}
	}
	sort.Strings(extra)
	return strings.Join(append(parts, extra...), ", ")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
