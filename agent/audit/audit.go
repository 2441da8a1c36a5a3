// Package audit reads what coding agents did during their runs (package
// agent's run directories) for reaching beyond the task: the repository's
// history past the base commit (git log --all, the reflog, remote refs and
// tags, packed objects), the upstream repository (fetch, clone, a code
// host's URL), the benchmark's dataset, the reference solution or the
// held-back tests, paths polynfi hid, and the network. Each finding cites
// the step that did it: its index in the run's trajectory, the tool call
// or command, and where it was read.
//
// A run's steps come from its stdout (Claude Code's stream-json, Codex's
// JSON events) and the files it left in its output directory
// (mini-SWE-agent's trajectory, or either JSON-lines format). A run with
// no step to read (Claude Code's single result envelope, Aider's plain
// output, the oracle) is not audited: never counted clean.
//
// The rules are string patterns over each step's input (see Check); they
// see what the agent asked for, not what it got (a hidden dataset read
// through cat is a finding although it failed). Besides the steps, the
// workspace's .git as the agent left it (agent.Record.WorkspaceGit, local
// runs) is compared with the base: a remote, fetched refs, tags, packs or
// alternates are findings without a step.
//
// Source: issue 28 of polynfi; the practice audited is the one reported
// for SWE-bench agents reading later commits (git log --all) in the
// instance image.
package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/internal/safepath"
)

// File is the name of the audit report in an agent run's directory.
const File = "audit.json"

// Options are what Audit knows besides the runs.
type Options struct {
	// Datasets are the dataset files the runs were made from (a step
	// naming one reads the dataset).
	Datasets []string
	// Repos maps an instance id to its repository ("owner/name").
	Repos map[string]string
}

// Run is the audit of one agent run. Audited is set when at least one of
// its steps could be read (Formats says in which formats); Clean when it
// was audited and nothing was found.
type Run struct {
	Agent      string    `json:"model_name_or_path"`
	InstanceID string    `json:"instance_id"`
	Run        int       `json:"run"`
	Status     string    `json:"status"`
	Formats    []string  `json:"formats"`
	Steps      int       `json:"steps"`
	Audited    bool      `json:"audited"`
	Clean      bool      `json:"clean"`
	Findings   []Finding `json:"findings"`
	Notes      []string  `json:"notes,omitempty"`
}

// AgentSummary counts one agent's runs: Audited of Runs could be read,
// Clean of them had no finding; ByKind counts the runs with a finding of
// each kind.
type AgentSummary struct {
	Agent   string         `json:"model_name_or_path"`
	Runs    int            `json:"runs"`
	Audited int            `json:"audited"`
	Clean   int            `json:"clean"`
	Flagged int            `json:"flagged"`
	ByKind  map[string]int `json:"by_kind"`
}

// Report is the audit of every run of an output directory.
type Report struct {
	Dir    string         `json:"dir"`
	Agents []AgentSummary `json:"agents"`
	Runs   []Run          `json:"runs"`
}

// Key identifies a run as the harness's records do: model, instance, run.
type Key struct {
	Agent, InstanceID string
	Run               int
}

// ByKey indexes the report's runs.
func (r *Report) ByKey() map[Key]*Run {
	m := map[Key]*Run{}
	for i := range r.Runs {
		x := &r.Runs[i]
		m[Key{x.Agent, x.InstanceID, x.Run}] = x
	}
	return m
}

// Findings counts the findings of every run.
func (r *Report) Findings() int {
	n := 0
	for _, x := range r.Runs {
		n += len(x.Findings)
	}
	return n
}

// maxSource bounds one trajectory source read, in bytes (the runner keeps
// at most agent.DefaultMaxOutput of each).
const maxSource = 64 << 20

// Audit audits every run recorded under out (agent.LoadRecords). A run
// whose files cannot be read is audited as far as they can, with a note;
// the error is non-nil only when the records cannot be read.
func Audit(out string, opt Options) (*Report, error) {
	recs, err := agent.LoadRecords(out)
	if err != nil {
		return nil, err
	}
	rep := &Report{Dir: out, Agents: []AgentSummary{}, Runs: []Run{}}
	for _, rec := range recs {
		rep.Runs = append(rep.Runs, auditRun(out, rec, opt))
	}
	rep.Agents = summarize(rep.Runs)
	return rep, nil
}

func auditRun(out string, rec *agent.Record, opt Options) Run {
	run := Run{Agent: rec.Agent, InstanceID: rec.InstanceID, Run: rec.Run, Status: rec.Status, Formats: []string{}, Findings: []Finding{}}
	if rec.Preset == agent.GoldAgent {
		run.Notes = append(run.Notes, "the oracle (gold): no agent, nothing to audit")
		return run
	}
	dir := agent.RunDir(out, rec.Agent, rec.InstanceID, rec.Run)
	relDir, err := filepath.Rel(out, dir)
	if err != nil {
		run.Notes = append(run.Notes, err.Error())
		return run
	}
	read := func(rel string) ([]byte, bool) {
		f, err := safepath.OpenIn(out, filepath.Join(relDir, filepath.FromSlash(rel)))
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				run.Notes = append(run.Notes, fmt.Sprintf("%s not read: %v", rel, err))
			}
			return nil, false
		}
		defer f.Close()
		b := make([]byte, 0, 4096)
		buf := make([]byte, 64<<10)
		for len(b) < maxSource {
			n, err := f.Read(buf)
			b = append(b, buf[:n]...)
			if err != nil {
				break
			}
		}
		return b, true
	}
	var steps []Step
	addFormat := func(f string) {
		for _, g := range run.Formats {
			if g == f {
				return
			}
		}
		run.Formats = append(run.Formats, f)
	}
	if b, ok := read(agent.StdoutFile); ok {
		s, f := ParseLines(agent.StdoutFile, b, len(steps))
		if f != "" {
			addFormat(f)
			steps = append(steps, s...)
		}
	}
	traj := append([]string(nil), rec.Trajectory...)
	sort.Strings(traj)
	for _, p := range traj {
		rel := path.Join(agent.TrajectoryDir, p)
		b, ok := read(rel)
		if !ok {
			continue
		}
		if s, ok := ParseMini(rel, b, len(steps)); ok {
			addFormat(FormatMini)
			steps = append(steps, s...)
			continue
		}
		if s, f := ParseLines(rel, b, len(steps)); f != "" {
			addFormat(f)
			steps = append(steps, s...)
		}
	}
	run.Steps = len(steps)
	run.Audited = len(run.Formats) > 0
	if !run.Audited {
		run.Notes = append(run.Notes, "no trajectory in a known format (Claude Code stream-json, Codex JSON events, mini-SWE-agent): not audited")
	}
	ctx := Context{Datasets: opt.Datasets, Repo: opt.Repos[rec.InstanceID]}
	for _, h := range rec.Hidden {
		if filepath.Clean(h) != filepath.Clean(os.TempDir()) {
			ctx.Hidden = append(ctx.Hidden, h)
		}
	}
	// The agent's own workspace lies under the (hidden) output directory.
	if abs, err := filepath.Abs(out); err == nil {
		ctx.Workdirs = append(ctx.Workdirs, filepath.Join(abs, ".work"))
	}
	for _, s := range steps {
		run.Findings = append(run.Findings, Check(s, ctx)...)
	}
	if rec.WorkspaceGit != nil {
		run.Findings = append(run.Findings, WorkspaceFindings(rec.WorkspaceGit)...)
	}
	run.Clean = run.Audited && len(run.Findings) == 0
	return run
}

// WorkspaceFindings compares a workspace's .git as the agent left it with
// the base (one branch, no remote, no pack, no alternates, no FETCH_HEAD,
// no shallow file): each difference that brings in history is a finding
// of KindWorkspace, without a step.
func WorkspaceFindings(st *agent.GitState) []Finding {
	var out []Finding
	add := func(why string) { out = append(out, Finding{Kind: KindWorkspace, Source: ".git", Why: why}) }
	if len(st.Remotes) > 0 {
		add("remote(s) configured: " + strings.Join(st.Remotes, ", "))
	}
	var foreign []string
	for _, r := range st.Refs {
		if strings.HasPrefix(r, "refs/remotes/") || strings.HasPrefix(r, "refs/tags/") || strings.HasPrefix(r, "refs/pull/") {
			foreign = append(foreign, r)
		}
	}
	if len(foreign) > 0 {
		add(fmt.Sprintf("%d remote-tracking, tag or pull ref(s): %s", len(foreign), strings.Join(firstN(foreign, 5), ", ")))
	}
	if st.FetchHead {
		add("FETCH_HEAD exists: a fetch ran")
	}
	if st.Packs > 0 {
		add(fmt.Sprintf("%d pack file(s): objects were fetched or repacked", st.Packs))
	}
	if st.Alternates {
		add("objects/info/alternates borrows another repository's objects")
	}
	if st.Shallow {
		add("a shallow file: a shallow fetch or clone ran")
	}
	return out
}

func firstN(xs []string, n int) []string {
	if len(xs) > n {
		return append(append([]string(nil), xs[:n]...), "...")
	}
	return xs
}

func summarize(runs []Run) []AgentSummary {
	by := map[string]*AgentSummary{}
	var names []string
	for _, r := range runs {
		s, ok := by[r.Agent]
		if !ok {
			s = &AgentSummary{Agent: r.Agent, ByKind: map[string]int{}}
			by[r.Agent] = s
			names = append(names, r.Agent)
		}
		s.Runs++
		if r.Audited {
			s.Audited++
		}
		if r.Clean {
			s.Clean++
		}
		if len(r.Findings) > 0 {
			s.Flagged++
		}
		seen := map[string]bool{}
		for _, f := range r.Findings {
			if !seen[f.Kind] {
				seen[f.Kind] = true
				s.ByKind[f.Kind]++
			}
		}
	}
	sort.Strings(names)
	out := make([]AgentSummary, 0, len(names))
	for _, n := range names {
		out = append(out, *by[n])
	}
	return out
}
