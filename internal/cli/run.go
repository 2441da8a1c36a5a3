package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// runOptions are the flags of `polynfi run`.
type runOptions struct {
	dataset        string
	agentName      string
	agentCmd       string
	name           string
	model          string
	out            string
	runs           int
	workers        int
	timeout        time.Duration
	maxTokens      int64
	maxCost        float64
	totalMaxTokens int64
	totalMaxCost   float64
	agentEnv       []string
	hide           []string
	writable       []string
	visible        []string
	redo           bool
	instanceIDs    []string
	reposDir       string
	noIsolation    bool
	keep           bool
	maxOutput      int
	showPrompt     bool
	format         string
	image          string
	containerDir   string
	agentCopy      []string
	agentSetup     string
	// containerOptions are eval's container flags (--runtime, --cpus,
	// --memory, --pids, --image-template, --base-dockerfiles,
	// --build-workers, --retries, --cache-level): an instance's agent runs
	// in the image eval would test it in.
	containerOptions
}

func newRunCmd(e *env) *cobra.Command {
	var o runOptions
	c := &cobra.Command{
		Use:   "run --dataset FILE --agent AGENT --out DIR [--runs N] [--workers K]",
		Short: "Run a coding agent on every task or instance and write its predictions",
		Long: `run gives a coding agent every SWE-NFI task or repository instance of a dataset,
--runs times each, in a fresh workspace: an NFI task's code before (and its
environment), or the repository at base_commit. The agent never sees the
reference solution, the tests held back by the dataset, or other runs' outputs:
under bubblewrap it sees an allow-list, /usr, /etc without its secrets, the
toolchains on PATH, --agent-visible paths, its workspace, a private /tmp and a
private home holding a copy of its preset's state (~/.claude, ~/.codex, ...),
and nothing else of the host (no /root, /home, /opt, /var, /run, host /tmp);
the dataset's directory, the repositories and OUT stay hidden; only the
workspace, the agent's own directory, its home and --agent-writable are
writable; the network is kept (the agent needs its model's API). It never runs
as root: when polynfi is root, the agent is uid 65534, so --agent-visible and
--agent-writable paths must be readable and writable by that user. Its
environment is an allow-list (PATH, HOME, locale, proxies and certificates)
plus --agent-env.

Each run is limited in wall time (--timeout; the agent's whole process tree is
killed) and, when the agent reports them, in tokens and cost (--max-tokens,
--max-cost per run; --total-max-tokens, --total-max-cost for the whole
invocation): a run that reports more is stopped and marked over_budget.

Per run, OUT/runs/<agent>/<instance_id>/run-<k>/ holds record.json (the exact
command, exit code, status, timings, tokens, cost, sandbox), stdout.log and
stderr.log (bounded), prompt.txt, patch.diff, prediction.json and the files the
agent wrote into {out_dir} (trajectory/). OUT/predictions.jsonl collects the
predictions of every recorded run in the format 'polynfi eval' reads. Re-running
the same command does only the runs not recorded yet; --redo also re-runs those
that did not complete.

Agents (--agent): claude, codex, aider, mini-swe-agent (headless presets that
read time, tokens and cost from each agent's own output), cmd (any --agent-cmd),
and gold (an oracle that applies the reference solution). --agent-cmd replaces
a preset's command and keeps its output reader. The command runs under bash -c
in the workspace with the prompt on stdin; placeholders, each inserted
shell-quoted:
` + agent.PlaceholderHelp() + `
With --runtime docker a repository instance's run gets a container from the
instance's own image, resolved exactly as 'polynfi eval --runtime docker'
resolves it (the row's image, --image-template, else built from the row's
Dockerfile with the repository at base_commit, or from its task directory;
same --base-dockerfiles, --build-workers, --retries and --cache-level, build
logs in OUT/build_logs), with --cpus, --memory and --pids, and the network.
The agent works in the repository where the image keeps it (the Dockerfile's
WORKDIR, /testbed for SWE-bench rows), whose .git polynfi first replaces by
one commit of the files as they are (no later history); its change is taken
there against that commit. The record names the image (record.json "image").
Instance images do not hold the agent's program: --agent-copy HOST:/PATH
copies host files (a static binary, a script) into every container and
--agent-setup SCRIPT runs before the agent (e.g. installs it; its time is
setup_s, not the agent's). SWE-NFI tasks have no image of their own: they run
in a container from --image, the workspace copied to --container-workdir and
back after the run (regular files only) and diffed on the host. In every
container the prompt and {out_dir} are under /polynfi-agent, and the agent's
environment is --agent-env and the run's POLYNFI_* variables on top of the
image's own (nothing of polynfi's environment). The agent runs there as uid
65534 (no capability, no new privileges), never the image's root, owning the
workspace and /polynfi-agent; its HOME is /polynfi-agent/home unless
--agent-env sets HOME. --runtime kubernetes is not supported by run (exit 2).

A custom command may write {out_dir}/usage.json ({"tokens_in": N, "tokens_out":
N, "cost_usd": X}); a figure no agent reported is recorded as unknown (null),
never 0.

A run that did not complete (the agent exited non-zero, timed out or went
over budget) is listed in the summary with its reason (exit code and the last
line of its stderr, the limit, the budget). It keeps what it changed as its
prediction; one that changed nothing writes no prediction, so that eval counts
it as SWE-bench counts a missing prediction (not submitted, never resolved)
rather than as an empty patch the agent chose to give.

Exit status: 0 when every run was recorded and at least one completed
(failed agent runs are results), 1 when no run completed (the likely cause is
printed) or when some runs were not started because a whole-run budget
(--total-max-tokens, --total-max-cost) was spent, 2 for bad flags, 3 for
unreadable inputs, 130 when interrupted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("start-ahead") {
				return usagef("--start-ahead: run starts no agent container ahead (each run's container starts when a worker takes it); the flag is eval's and validate's")
			}
			return runAgents(e, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset file: SWE-NFI tasks or repository instances (.csv, .json, .jsonl, .parquet)")
	f.StringVar(&o.agentName, "agent", "", "agent: "+strings.Join(agent.PresetNames(), ", ")+" (default cmd when --agent-cmd is given)")
	f.StringVar(&o.agentCmd, "agent-cmd", "", "command template run under bash -c in the workspace (placeholders in --help)")
	f.StringVar(&o.name, "name", "", "model_name_or_path of the predictions (default: the agent's name)")
	f.StringVar(&o.model, "model", "", "model given to a preset ({model_args})")
	outFlag(f, &o.out, "output directory: records and predictions.jsonl")
	f.IntVar(&o.runs, "runs", 1, "repeats per task or instance (SWE-NFI ran 5)")
	workersFlag(f, &o.workers, "agent runs")
	f.DurationVar(&o.timeout, "timeout", agent.DefaultTimeout, "wall-time limit of one run")
	f.Int64Var(&o.maxTokens, "max-tokens", 0, "token budget (in + out) of one run (0: none)")
	f.Float64Var(&o.maxCost, "max-cost", 0, "cost budget of one run in USD (0: none)")
	f.Int64Var(&o.totalMaxTokens, "total-max-tokens", 0, "token budget of the whole invocation (0: none)")
	f.Float64Var(&o.totalMaxCost, "total-max-cost", 0, "cost budget of the whole invocation in USD (0: none)")
	f.StringArrayVar(&o.agentEnv, "agent-env", nil, "pass KEY (its value here) or KEY=VALUE to the agent (repeatable)")
	f.StringArrayVar(&o.hide, "hide", nil, "another host path the agent must not see (repeatable)")
	f.StringArrayVar(&o.writable, "agent-writable", nil, "another host directory the agent may write (writable by uid 65534 when polynfi runs as root; repeatable)")
	f.StringArrayVar(&o.visible, "agent-visible", nil, "a host path the agent may read besides /usr, /etc, the toolchains on PATH and its workspace, e.g. its program's directory (readable by uid 65534 when polynfi runs as root; repeatable)")
	f.BoolVar(&o.redo, "redo", false, "also re-run the recorded runs that did not complete (failed, timeout, over_budget)")
	f.StringSliceVar(&o.instanceIDs, "instance-ids", nil, "run only these instance ids (comma-separated or repeated)")
	f.StringVar(&o.reposDir, "repos-dir", "", "directory of local clones or bundles; default: <dataset dir>/repos")
	f.BoolVar(&o.noIsolation, "no-isolation", false, "run agents without bubblewrap (nothing is hidden from them)")
	f.BoolVar(&o.keep, "keep-workspaces", false, "leave each run's workspace under OUT/.work")
	f.IntVar(&o.maxOutput, "max-output", agent.DefaultMaxOutput, "bytes kept of each stream and of the trajectory")
	f.BoolVar(&o.showPrompt, "show-prompt", false, "print the prompt template (with --dataset: the first selected task's prompt) and exit")
	f.StringVar(&o.format, "format", "text", "summary format: text or json")
	o.containerOptions.register(f, true)
	f.Lookup("runtime").Usage = "where agents run: local (bubblewrap over a host workspace) or docker (an instance in its own image, as eval resolves it; an NFI task in --image)"
	f.Lookup("retries").Usage = "retries of a failed image pull or build (docker)"
	f.Lookup("start-ahead").Hidden = true // refused: eval's and validate's
	f.StringVar(&o.image, "image", "", "container image of the SWE-NFI tasks' runs (--runtime docker); it must provide the agent's program")
	f.StringVar(&o.containerDir, "container-workdir", agent.DefaultContainerWorkdir, "an SWE-NFI task's workspace path in its container (--runtime docker)")
	f.StringArrayVar(&o.agentCopy, "agent-copy", nil, "HOST:/PATH: copy a host file or directory into every agent container (--runtime docker; repeatable)")
	f.StringVar(&o.agentSetup, "agent-setup", "", "bash script run in every agent container before the agent, e.g. to install it (--runtime docker)")
	return c
}

func runAgents(e *env, o runOptions) error {
	if err := checkFormat(o.format, "text", "json"); err != nil {
		return err
	}
	o.instanceIDs = dedupeInstanceIDs(e, o.instanceIDs)
	if o.showPrompt {
		return showPrompt(e, o)
	}
	if o.dataset == "" {
		return usagef("--dataset is required")
	}
	if o.out == "" {
		return usagef("--out is required")
	}
	if o.agentName == "" {
		if o.agentCmd == "" {
			return usagef("--agent is required (%s), or --agent-cmd", strings.Join(agent.PresetNames(), ", "))
		}
		o.agentName = agent.CommandAgent
	}
	if o.agentName == agent.CommandAgent && o.agentCmd == "" {
		return usagef("--agent cmd needs --agent-cmd")
	}
	if o.agentName == agent.GoldAgent && o.agentCmd != "" {
		return usagef("--agent gold runs no command: drop --agent-cmd")
	}
	if o.agentName != agent.GoldAgent {
		if _, err := agent.LookupPreset(o.agentName); err != nil {
			return usageError{err}
		}
	}
	if o.agentCmd != "" {
		if err := agent.CheckTemplate(o.agentCmd); err != nil {
			return usageError{err}
		}
	}
	if o.runs < 1 {
		return usagef("--runs %d: want at least 1", o.runs)
	}
	o.workers = workerCount(o.workers)
	if o.timeout <= 0 {
		return usagef("--timeout %s: want a positive duration", o.timeout)
	}
	if o.maxTokens < 0 || o.totalMaxTokens < 0 || o.maxCost < 0 || o.totalMaxCost < 0 {
		return usagef("budgets must not be negative")
	}
	var env []string
	for _, kv := range o.agentEnv {
		k, v, hasValue := strings.Cut(kv, "=")
		if k == "" || strings.ContainsAny(k, " \t\n") {
			return usagef("--agent-env %q: want KEY or KEY=VALUE", kv)
		}
		if !hasValue {
			var ok bool
			if v, ok = os.LookupEnv(k); !ok {
				return usagef("--agent-env %s: not set in this environment (give KEY=VALUE)", k)
			}
		}
		env = append(env, k+"="+v)
	}
	for _, p := range []*string{&o.out, &o.reposDir, &o.dataset} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return err
			}
			*p = abs
		}
	}
	if err := o.containerOptions.validate(); err != nil {
		return err
	}
	if o.runtime == "kubernetes" {
		return usagef("--runtime kubernetes: polynfi run does not run agents in a cluster (eval does); use --runtime local or docker")
	}
	var copies []agent.Copy
	for _, c := range o.agentCopy {
		cp, err := agent.ParseCopy(c)
		if err != nil {
			return usagef("--agent-copy %v", err)
		}
		copies = append(copies, cp)
	}
	if o.runtime != "docker" && (len(copies) > 0 || o.agentSetup != "" || o.image != "" || o.imageTemplate != "") {
		return usagef("--image, --image-template, --agent-copy and --agent-setup need --runtime docker")
	}
	tasks, kind, err := agent.LoadTasks(o.dataset, o.instanceIDs, e.stderr)
	if err != nil {
		return err
	}
	bo := o.containerOptions.backend(o.out, e.stderr)
	bo.Local = runtime.LocalOptions{NoIsolation: o.noIsolation, MaxOutput: o.maxOutput}
	b := newBar(e.stderr, len(tasks)*o.runs, "running "+o.agentName)
	sum, runErr := agent.Invoke(e.ctx, agent.Invocation{Options: agent.Options{
		Agent: o.agentName, Name: o.name, Command: o.agentCmd, Model: o.model, Runs: o.runs, Workers: o.workers,
		Timeout: o.timeout, MaxTokens: o.maxTokens, MaxCostUSD: o.maxCost, TotalMaxTokens: o.totalMaxTokens, TotalMaxCostUSD: o.totalMaxCost,
		Env: env, Hide: o.hide, Writable: o.writable, Visible: o.visible, Redo: o.redo, MaxOutput: o.maxOutput, Out: o.out,
		Image: o.image, ContainerWorkdir: o.containerDir, KeepWorkspaces: o.keep, Copy: copies, Setup: o.agentSetup,
		Progress: func(ev agent.Event) { b.set(ev.Done) }, Started: b.begin, Finished: b.end,
	}, Dataset: o.dataset, Kind: kind, ReposDir: o.reposDir, Backend: bo, RunDone: b.finish}, tasks)
	if sum == nil {
		return runErr
	}
	if err := printRunSummary(e.stdout, o, sum); err != nil {
		return err
	}
	if sum.Interrupted {
		fmt.Fprintf(e.stderr, "polynfi: %s (finished runs kept in %s; run the same command to resume)\n",
			strings.TrimSuffix(runErr.Error(), ": "+e.ctx.Err().Error()), o.out)
		return exitError{ExitInterrupted}
	}
	if sum.NotStarted > 0 {
		fmt.Fprintf(e.stderr, "polynfi: %d of %s not started: the whole-run budget was spent (%s); raise --total-max-tokens or --total-max-cost and run the same command to do them\n",
			sum.NotStarted, plural(sum.Total, "run"), sum.BudgetSpent)
		return exitError{ExitFindings}
	}
	if cause, ok := agent.NoRunCompleted(sum); ok {
		fmt.Fprintf(e.stderr, "polynfi: no agent run completed: %s\n", cause)
		return exitError{ExitFindings}
	}
	return nil
}

// maxListedFailures bounds the runs the text summary lists by name.
const maxListedFailures = 20

// printRunSummary writes what a `polynfi run` did.
func printRunSummary(w io.Writer, o runOptions, s *agent.Summary) error {
	preds := filepath.Join(o.out, agent.PredictionsFile)
	if o.format == "json" {
		m := map[string]any{"runs": s.Total, "ran": s.Ran, "reused": s.Reused, "not_started": s.NotStarted, "budget_spent": s.BudgetSpent,
			"not_started_interrupted": s.Stopped, "abandoned": s.Abandoned, "not_completed": agent.Failures(o.out, s),
			"by_status": s.ByStatus, "agent_seconds": s.AgentSeconds, "tokens": s.Tokens, "runs_without_tokens": s.UnknownTokens,
			"cost_usd": s.CostUSD, "runs_without_cost": s.UnknownCost, "overhead_s_mean": s.OverheadS, "overhead_runs": s.OverheadN,
			"elapsed_s": s.Elapsed.Seconds(), "interrupted": s.Interrupted, "predictions": preds}
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	counts := fmt.Sprintf("runs: %d (%d run now, %d already recorded", s.Total, s.Ran, s.Reused)
	if s.NotStarted > 0 {
		counts += fmt.Sprintf(", %d not started: whole-run budget spent (%s)", s.NotStarted, s.BudgetSpent)
	}
	if s.Stopped > 0 {
		counts += fmt.Sprintf(", %d not started: interrupted first", s.Stopped)
	}
	if s.Abandoned > 0 {
		counts += fmt.Sprintf(", %d interrupted while running (not recorded)", s.Abandoned)
	}
	fmt.Fprintln(w, counts+")")
	fmt.Fprintf(w, "status: %s\n", s.StatusCounts())
	if fails := agent.Failures(o.out, s); len(fails) > 0 {
		fmt.Fprintf(w, "runs that did not complete (%d; details in each record.json and stderr.log):\n", len(fails))
		for i, f := range fails {
			if i == maxListedFailures {
				fmt.Fprintf(w, "  ... and %d more\n", len(fails)-i)
				break
			}
			// the reason may quote the agent's stderr: shown, not obeyed
			fmt.Fprintf(w, "  %s run %d: %s: %s\n", textesc.Terminal(f.InstanceID), f.Run, f.Status, textesc.Terminal(f.Reason))
		}
	}
	n := s.Ran + s.Reused
	if n > 0 {
		fmt.Fprintf(w, "agent time: %.1fs in all, %.2fs per run\n", s.AgentSeconds, s.AgentSeconds/float64(n))
	}
	fmt.Fprintf(w, "tokens: %d over %s (%d reported none)\n", s.Tokens, plural(n-s.UnknownTokens, "run"), s.UnknownTokens)
	fmt.Fprintf(w, "cost: $%.4f over %s (%d reported none)\n", s.CostUSD, plural(n-s.UnknownCost, "run"), s.UnknownCost)
	if s.OverheadN > 0 {
		fmt.Fprintf(w, "polynfi overhead: %.3fs per run (workspace, collection, records; %s)\n", s.OverheadS, plural(s.OverheadN, "run"))
	}
	_, err := fmt.Fprintf(w, "predictions: %s (elapsed %s)\n", textesc.Terminal(preds), s.Elapsed.Round(time.Millisecond))
	return err
}

// showPrompt prints the prompt templates, or the prompt of the first
// selected task of --dataset.
func showPrompt(e *env, o runOptions) error {
	if o.dataset == "" {
		_, err := fmt.Fprintf(e.stdout, "# SWE-NFI task prompt\n%s\n\n# Repository instance prompt\n%s\n", agent.NFIPromptTemplate, agent.InstancePromptTemplate)
		return err
	}
	tasks, _, err := agent.LoadTasks(o.dataset, o.instanceIDs, e.stderr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, tasks[0].Prompt())
	return err
}

// chainAgentRun runs the agent of `polynfi eval --agent` into
// OUT/agent-runs (resumable like `polynfi run`) and returns its
// predictions file; its summary goes to stderr, eval's results to stdout.
func chainAgentRun(e *env, o evalOptions) (string, error) {
	// OUT is claimed before the agent writes into it, so that eval finds
	// it polynfi's (runrecord.ClaimDir).
	if err := runrecord.ClaimDir(o.out); err != nil {
		return "", err
	}
	ro := runOptions{dataset: o.dataset, agentName: o.agent, agentCmd: o.agentCmd, out: filepath.Join(o.out, "agent-runs"),
		runs: o.agentRuns, workers: o.workers, timeout: o.agentTimeout, agentEnv: o.agentEnv, instanceIDs: o.instanceIDs,
		reposDir: o.reposDir, noIsolation: o.noIsolation, maxOutput: agent.DefaultMaxOutput, format: "text",
		containerDir: agent.DefaultContainerWorkdir, containerOptions: o.containerOptions}
	sub := *e
	sub.stdout = e.stderr
	if err := runAgents(&sub, ro); err != nil {
		return "", err
	}
	return filepath.Join(ro.out, agent.PredictionsFile), nil
}
