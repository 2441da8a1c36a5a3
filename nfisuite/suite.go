// Package nfisuite is the SWE-NFI evaluation suite (arXiv 2607.27409 §4,
// polynfi spec §3.1): for every agent run on an NFI task it decides validity
// (non-empty output, every target file parses), functional correctness (the
// task's tests pass on the output, strict grading) and, on correct runs only,
// the improvement I_p per aspect, next to the human reference improvement
// I_p(h) of the same task. Each run becomes one Record; package report turns
// records into the paper's tables.
package nfisuite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfirecord"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/testlog"
)

// Suite evaluates agent runs on NFI tasks. A Suite is safe for concurrent
// use; each goroutine passes its own syntax.Parser.
type Suite struct {
	Engine *nfi.Engine
	Runner runtime.Runner
	// Timeout bounds one test run (0: runtime.DefaultTimeout).
	Timeout time.Duration
	// WorkDir is where per-run workspaces are made ("" : os.TempDir()).
	WorkDir string
	// KeepWorkspaces leaves workspaces on disk (for debugging).
	KeepWorkspaces bool
	// LogDir, when set, receives each run's test log as <key>.log.
	LogDir string
	// Repos provides the base repositories of tasks whose environment names
	// one (environment.repo and base_commit, as `polynfi tasks build`
	// writes them); nil when no --repos-dir was given.
	Repos *clones.Repos
}

// Output resolves what a prediction asks to write: path → content of every
// target file (a target the agent did not give keeps its code before), plus
// any other file the agent wrote. ok is false with a reason (ReasonEmpty,
// ReasonPatchError) and a detail when there is no usable output.
func Output(task *dataset.NFITask, p *dataset.Prediction) (files map[string]string, reason, detail string) {
	before := map[string]string{}
	for _, f := range task.Files {
		before[f.Path] = f.Before
	}
	if p.Empty() {
		return nil, nfirecord.ReasonEmpty, "the prediction has neither files nor a patch"
	}
	out := map[string]string{}
	for k, v := range before {
		out[k] = v
	}
	if len(p.Files) > 0 {
		blank := true
		for path, content := range p.Files {
			if err := dataset.CheckRelPath(path); err != nil {
				return nil, nfirecord.ReasonPatchError, fmt.Sprintf("files: %v", err)
			}
			out[path] = content
			if strings.TrimSpace(content) != "" {
				blank = false
			}
		}
		if blank {
			return nil, nfirecord.ReasonEmpty, "every file of the prediction is empty"
		}
		return out, "", ""
	}
	changed, err := diff.Parse(p.ModelPatch)
	if err != nil {
		return nil, nfirecord.ReasonPatchError, err.Error()
	}
	if len(changed) == 0 {
		return nil, nfirecord.ReasonEmpty, "the patch changes no file"
	}
	for _, f := range changed {
		path := f.Path()
		if err := diff.CheckPath(path); err != nil {
			return nil, nfirecord.ReasonPatchError, err.Error()
		}
		if f.IsBinary {
			return nil, nfirecord.ReasonPatchError, fmt.Sprintf("%s: binary patches are not supported", path)
		}
		old := before[f.OldPath]
		if f.IsNew {
			old = ""
		}
		newContent, err := diff.Apply([]byte(old), f)
		if err != nil {
			return nil, nfirecord.ReasonPatchError, err.Error()
		}
		if f.IsRename && f.OldPath != path {
			delete(out, f.OldPath)
		}
		if f.IsDelete {
			out[path] = ""
			continue
		}
		out[path] = string(newContent)
	}
	return out, "", ""
}

// OutputKey is the SHA-256 of a prediction's content (dataset.Prediction.PatchSHA256).
func OutputKey(p *dataset.Prediction) string { return p.PatchSHA256() }

// scoreFiles scores the task's target files of one version; a file absent
// from the version (deleted) is left out of the mean.
func (s *Suite) scoreFiles(parser *syntax.Parser, task *dataset.NFITask, version map[string]string) []nfi.FileScore {
	var out []nfi.FileScore
	for _, f := range task.Files {
		content, ok := version[f.Path]
		if !ok || content == "" {
			continue
		}
		out = append(out, s.Engine.Score(parser, f.Path, []byte(content)))
	}
	return out
}

// Human returns the task's reference improvement I_p(h) and the flipped rules.
func (s *Suite) Human(parser *syntax.Parser, task *dataset.NFITask) nfi.Delta {
	before, after := map[string]string{}, map[string]string{}
	for _, f := range task.Files {
		before[f.Path], after[f.Path] = f.Before, f.After
	}
	return nfi.Compare(s.scoreFiles(parser, task, before), s.scoreFiles(parser, task, after))
}

// Evaluate runs the suite on one prediction: validity, functional
// correctness (strict: the task's tests run on the output and every parsed
// test passes, with exit code 0), and I_p on a correct output. human is the
// task's reference improvement (Suite.Human). It returns an error only when
// ctx is cancelled or the workspace cannot be made; everything about the
// output itself is in the Record.
func (s *Suite) Evaluate(ctx context.Context, parser *syntax.Parser, task *dataset.NFITask, p *dataset.Prediction, human nfi.Improvement) (nfirecord.Record, error) {
	start := time.Now()
	rec := nfirecord.Record{InstanceID: task.InstanceID, Model: p.ModelNameOrPath, Run: p.Run, Aspect: task.Aspect.Code(), Scope: task.Scope,
		Human: human, DurationS: p.DurationS, TokensIn: p.TokensIn, TokensOut: p.TokensOut, CostUSD: p.CostUSD, Key: OutputKey(p)}
	defer func() { rec.EvalSeconds = time.Since(start).Seconds() }()
	out, reason, detail := Output(task, p)
	if reason != "" {
		rec.InvalidReason, rec.InvalidDetail = reason, detail
		return rec, nil
	}
	before := map[string]string{}
	for _, f := range task.Files {
		before[f.Path] = f.Before
	}
	beforeScores := s.scoreFiles(parser, task, before)
	afterScores := s.scoreFiles(parser, task, out)
	for _, fs := range afterScores {
		if !fs.Valid {
			rec.InvalidReason = nfirecord.ReasonUnparsable
			rec.InvalidDetail = fmt.Sprintf("%s: %s", fs.Path, fs.Status)
			if fs.Error != nil {
				rec.InvalidDetail = fmt.Sprintf("%s:%d:%d: %s", fs.Path, fs.Error.Line, fs.Error.Column, fs.Error.Message)
			}
			return rec, nil
		}
	}
	if len(afterScores) == 0 {
		rec.InvalidReason, rec.InvalidDetail = nfirecord.ReasonEmpty, "the output deletes every target file"
		return rec, nil
	}
	rec.Valid = true
	if err := s.test(ctx, task, out, &rec); err != nil {
		return rec, err
	}
	if rec.FunctionallyCorrect {
		d := nfi.Compare(beforeScores, afterScores)
		rec.Before, rec.After = &d.Before, &d.After
		im := d.Improvement
		rec.Improvement = &im
		rec.Flips = d.Flips
	}
	return rec, nil
}

// test writes the workspace (environment, output, tests), runs the task's
// test command and grades the log strictly.
func (s *Suite) test(ctx context.Context, task *dataset.NFITask, out map[string]string, rec *nfirecord.Record) error {
	ws, cleanup, err := s.workspace(ctx, task)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		rec.Tested = true
		rec.TestStatus = "error"
		rec.InvalidDetail = err.Error()
		return nil
	}
	if !s.KeepWorkspaces {
		defer cleanup()
	}
	var files []dataset.FileContent
	if task.Environment != nil {
		files = append(files, task.Environment.Files...)
	}
	paths := make([]string, 0, len(out))
	for p := range out {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if out[p] != "" {
			files = append(files, dataset.FileContent{Path: p, Content: out[p]})
		} else if err := safepath.Remove(ws, p); err != nil { // deleted by the output
			return fmt.Errorf("write workspace of %s: %w", task.InstanceID, err)
		}
	}
	files = append(files, task.Tests...)
	for _, f := range files {
		// Every write goes through the one path checker: a prediction's
		// file, like the task's own, may not leave the workspace, enter
		// .git or pass through a symbolic link.
		if err := safepath.WriteFile(ws, f.Path, []byte(f.Content), 0o644); err != nil {
			rec.Tested = true
			rec.TestStatus = "error"
			rec.InvalidDetail = fmt.Sprintf("write %s: %v", f.Path, err)
			return nil
		}
	}
	if task.TestPatch != "" {
		if out, err := gitApply(ctx, ws, task.TestPatch); err != nil {
			rec.Tested = true
			rec.TestStatus = "error"
			rec.InvalidDetail = fmt.Sprintf("apply the task's test patch: %v: %s", err, out)
			return nil
		}
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = runtime.DefaultTimeout
	}
	rec.Tested = true
	written := map[string]bool{}
	for _, f := range files {
		written[filepath.Clean(filepath.Join(ws, filepath.FromSlash(f.Path)))] = true
	}
	started := time.Now()
	res, err := s.Runner.Run(ctx, runtime.Command{Script: task.TestCommand, Dir: ws, Timeout: timeout})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		rec.TestStatus = "error"
		rec.InvalidDetail = err.Error()
		return nil
	}
	rec.TestExitCode = res.ExitCode
	log := append(append([]byte{}, res.Stderr...), res.Stdout...)
	log = fmt.Appendf(log, "\nContainer exited with status code %d\n", res.ExitCode)
	if s.LogDir != "" {
		// Atomically, and never through a link at the log's name.
		_ = atomicfile.WriteFileIn(s.LogDir, nfirecord.LogName(task.InstanceID, rec.Model, rec.Run), log)
	}
	// What the run itself produced: JUnit XML reports written during the
	// run (not files the prediction or the task wrote, nor older ones),
	// else one stream of the log (stdout, or stderr when stdout holds no
	// recognisable log: text printed on stderr cannot pass for the
	// runner's report); a stream holding a second complete report was
	// written to by something other than the runner.
	var results []testlog.Result
	var reports []string
	for _, r := range testlog.FindJUnitReports(ws) {
		if fi, err := os.Lstat(r); err == nil && !written[filepath.Clean(r)] && !fi.ModTime().Before(started) {
			reports = append(reports, r)
		}
	}
	secondReport := false
	if len(reports) > 0 {
		for _, r := range reports {
			f, err := os.Open(r)
			if err != nil {
				continue
			}
			rs, _ := testlog.ParseJUnitXML(f)
			f.Close()
			results = append(results, rs...)
		}
	} else {
		stream := res.Stdout
		if _, ok := testlog.Detect(stream); !ok {
			stream = res.Stderr
		}
		if fw, ok := testlog.Detect(stream); ok {
			results, _ = testlog.Parse(fw, stream)
			secondReport = testlog.CountReports(fw, stream) > 1
		}
	}
	rec.TestStatus = GradeStrict(results, res.ExitCode, res.TimedOut)
	if secondReport && rec.TestStatus == "passed" {
		rec.TestStatus = "inconsistent"
		rec.InvalidDetail = "the test command's output holds more than one report: the others were printed by something other than the runner"
	}
	rec.TestsTotal = len(results)
	for _, r := range results {
		if r.Status == testlog.Passed || r.Status == testlog.XFail || r.Status == testlog.Skipped {
			rec.TestsPassed++
		}
	}
	rec.FunctionallyCorrect = rec.TestStatus == "passed"
	return nil
}

// workspace makes the directory a run's tests execute in: a work tree of the
// task's base repository at its commit when the environment names one, else
// an empty directory. cleanup removes it.
func (s *Suite) workspace(ctx context.Context, task *dataset.NFITask) (dir string, cleanup func(), err error) {
	repo, commit := "", task.BaseCommit
	if env := task.Environment; env != nil {
		repo = env.Repo
		if env.BaseCommit != "" {
			commit = env.BaseCommit
		}
	}
	if repo == "" {
		dir, err := os.MkdirTemp(s.WorkDir, "nfi-"+nfirecord.FileName(task.InstanceID)+"-")
		if err != nil {
			return "", nil, fmt.Errorf("make workspace for %s: %w", task.InstanceID, err)
		}
		return dir, func() { os.RemoveAll(dir) }, nil
	}
	if commit == "" {
		return "", nil, fmt.Errorf("task %s: environment names repository %s but no base_commit", task.InstanceID, repo)
	}
	if s.Repos == nil {
		return "", nil, fmt.Errorf("task %s needs repository %s at %s: give --repos-dir", task.InstanceID, repo, commit)
	}
	parent := s.WorkDir
	if parent == "" {
		parent = os.TempDir()
	}
	return s.Repos.Workspace(ctx, repo, commit, parent)
}

// gitApply applies a unified diff in dir with `git apply` (which also works
// outside a git repository) and returns git's output.
func gitApply(ctx context.Context, dir, patch string) (string, error) {
	if _, err := diff.CheckPatch(dir, patch); err != nil {
		return err.Error(), err
	}
	out, err := gitexec.Combined(ctx, dir, strings.NewReader(patch), "apply", "--whitespace=nowarn", "-")
	return string(out), err
}

// GradeStrict grades an NFI task's test run, where every test of the task
// must keep passing (they all pass on the code before and the human after):
// "timeout" when killed at the timeout; "infra_failure" when the log parses
// to no test; "failed" when a test failed or errored, or one test id has
// conflicting statuses; "inconsistent" when every test passed but the
// command exited non-zero; else "passed". Skipped and xfail tests do not
// fail the run. Source: polynfi spec §2.5 strict mode, §3.1.
func GradeStrict(results []testlog.Result, exitCode int, timedOut bool) string {
	if timedOut {
		return "timeout"
	}
	if len(results) == 0 {
		return "infra_failure"
	}
	seen := map[string]testlog.Status{}
	for _, r := range results {
		if prev, ok := seen[r.ID]; ok && prev != r.Status {
			return "failed"
		}
		seen[r.ID] = r.Status
		if r.Status == testlog.Failed || r.Status == testlog.Error {
			return "failed"
		}
	}
	if exitCode != 0 {
		return "inconsistent"
	}
	return "passed"
}

// ErrNoTasks is returned by Run when the task file holds no valid task.
var ErrNoTasks = errors.New("no valid NFI task")

// GoldPredictions returns one prediction per task whose files are the human
// reference after (model dataset.GoldModel, run 0): `--predictions gold`.
func GoldPredictions(tasks []dataset.NFITask) []dataset.Prediction {
	out := make([]dataset.Prediction, len(tasks))
	for i := range tasks {
		out[i] = dataset.Prediction{InstanceID: tasks[i].InstanceID, ModelNameOrPath: dataset.GoldModel, Files: tasks[i].GoldFiles()}
	}
	return out
}
