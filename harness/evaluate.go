// Package harness evaluates agents' patches against repository tests, the
// way SWE-PolyBench and SWE-bench do and more strictly: per instance it
// makes a workspace at the base commit from a local clone, applies the test
// patch and the model patch (with a cascade of methods and a reset between
// attempts), runs the test command through a runtime.Runner, parses the log
// (JUnit XML reports first), grades the result in three modes, attaches
// localization metrics and NFI deltas, and records everything atomically.
// Run evaluates many instances with a bounded worker pool and resumes
// where an earlier run stopped.
//
// The package never prints; progress goes through a callback.
//
// Source: polynfi evaluation spec §2; SWE-PolyBench run_evaluation.py and
// docker_utils.py; SWE-bench harness/run_evaluation.py and grading.py.
package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/testlog"
)

// Harness evaluates predictions. Its fields are read-only after set up; a
// Harness is safe for concurrent use by Run's workers.
type Harness struct {
	Repos  *Repos
	Runner runtime.Runner
	// ScratchDir is the parent of workspaces and temp files (Store.ScratchDir).
	ScratchDir string
	// Timeout overrides the per-language default (runtime.TimeoutFor) when
	// positive.
	Timeout time.Duration
	// Env holds extra KEY=VALUE pairs for test commands
	// (POLYNFI_DATASET_DIR).
	Env []string
	// Writable lists more directories the test command may write under
	// isolation.
	Writable []string
	// ReadOnly lists host directories the test command may read under
	// isolation (toolchains the dataset ships, e.g. its env/ directory);
	// the dataset file itself, with its gold patches, is never among them.
	ReadOnly []string
	// NativeMode is the dataset's grading mode; Record.Resolved follows it.
	NativeMode Mode
	RunID      string

	// Retrieval, when set, computes localization metrics (package
	// retrieval) into Record.Retrieval.
	Retrieval *retrieval.Options
	// NFI, when set, scores the changed .py files before and after the
	// model patch into Record.NFI.
	NFI *nfi.Engine
}

// Evaluate evaluates prediction p of instance in and returns its record and
// artifacts; it does not save them. Everything that goes wrong with the
// instance (missing repository, test patch that does not apply, a rejected
// or failed model patch, a failing or hanging test run) is in the record.
// The error is non-nil only when ctx is cancelled: then the instance is
// abandoned and its workspace removed.
func (h *Harness) Evaluate(ctx context.Context, in dataset.Instance, p dataset.Prediction) (*Record, Artifacts, error) {
	start := time.Now()
	rec := &Record{
		Schema:         RecordSchema,
		Key:            Key{InstanceID: in.InstanceID, Model: p.ModelNameOrPath, Run: p.Run, PatchSHA256: p.PatchSHA256()},
		InstanceSHA256: in.EvalSHA256(),
		RunID:          h.RunID,
		Repo:           in.Repo,
		BaseCommit:     in.BaseCommit,
		Language:       in.Language,
		TaskCategory:   in.TaskCategory,
		NativeMode:     h.NativeMode,
		Generation:     !p.Empty(),
		AgentDurationS: p.DurationS, TokensIn: p.TokensIn, TokensOut: p.TokensOut, CostUSD: p.CostUSD,
		StartedAt:       start.UTC(),
		PolyBenchOutput: PolyBenchOutput{PassedTests: []string{}, FailedTests: []string{}},
	}
	art := Artifacts{ModelPatch: p.ModelPatch}
	err := h.evaluate(ctx, in, p, rec, &art)
	if ctx.Err() != nil {
		return nil, Artifacts{}, ctx.Err()
	}
	if err != nil {
		rec.Verdicts = AllModes(StatusError, err.Error())
		rec.Error = err.Error()
	}
	if h.Retrieval != nil {
		t := time.Now()
		st := rec.Verdicts.Get(h.NativeMode).Status
		rec.Retrieval = h.retrievalMetrics(ctx, in, art.ModelPatch, st == StatusPatchFailed || st == StatusPatchRejected)
		rec.Timing.RetrievalS = time.Since(t).Seconds()
		rec.Timing.MetricsS += rec.Timing.RetrievalS
		if ctx.Err() != nil {
			return nil, Artifacts{}, ctx.Err()
		}
	}
	v := rec.Verdicts.Get(h.NativeMode)
	rec.Resolved, rec.Status = v.Resolved, v.Status
	rec.FinishedAt = time.Now().UTC()
	rec.Timing.TotalS = time.Since(start).Seconds()
	rec.Timing.OverheadS = rec.Timing.TotalS - rec.Timing.TestS
	return rec, art, nil
}

// retrievalMetrics computes the localization metrics of patch, the
// prediction as applied (for a files prediction, the diff it made).
// unapplied marks a patch that did not apply or was rejected: as in
// SWE-PolyBench, it scores 0 for files and nodes. Metrics are computed
// whatever else went wrong with the instance (SWE-PolyBench computes them
// when its test patch does not apply, too). Nil only when the base files
// cannot be read at all.
func (h *Harness) retrievalMetrics(ctx context.Context, in dataset.Instance, patch string, unapplied bool) *retrieval.InstanceMetrics {
	src, _ := h.Repos.Source(ctx, in.Repo)
	var gs retrieval.Source
	if src != "" {
		gs = retrieval.NewGitSource(ctx, src, in.BaseCommit)
	}
	opts := *h.Retrieval
	opts.Parser = nil
	opts.Unapplied = unapplied
	if opts.Nodes && gs == nil {
		opts.Nodes = false
	}
	m, err := retrieval.Evaluate(retrieval.Input{InstanceID: in.InstanceID, Language: in.Language, TaskCategory: in.TaskCategory,
		Reference: in.Patch, Prediction: patch, ReferenceNodes: in.ModifiedNodes}, gs, opts)
	if err != nil {
		return nil
	}
	return &m
}

// evaluate does the work; an error is a harness-level failure of the
// instance (StatusError).
func (h *Harness) evaluate(ctx context.Context, in dataset.Instance, p dataset.Prediction, rec *Record, art *Artifacts) error {
	if strings.TrimSpace(in.TestCommand) == "" {
		return errors.New("instance has no test_command")
	}
	t := time.Now()
	scratch, err := os.MkdirTemp(h.ScratchDir, "inst-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	ws, remove, err := h.Repos.Workspace(ctx, in.Repo, in.BaseCommit, scratch)
	if err != nil {
		return err
	}
	defer remove()
	rec.Timing.WorkspaceS = time.Since(t).Seconds()
	baseRev, err := gitCmd(ctx, ws, "rev-parse", "--verify", "HEAD")
	if err != nil {
		return err
	}
	base := strings.TrimSpace(string(baseRev))

	// Test patch, then the model patch.
	t = time.Now()
	if strings.TrimSpace(in.TestPatch) != "" {
		parsed, err := checkPatchPaths(ws, in.TestPatch)
		if err != nil {
			return fmt.Errorf("test patch: %w", err)
		}
		ar, err := applyCascade(ctx, ws, in.TestPatch, parsed, base)
		rec.TestPatchApply = &ar
		if err != nil {
			return fmt.Errorf("test patch: %w", err)
		}
		if !ar.Applied {
			return errors.New("test patch does not apply")
		}
	}
	snap, err := snapshot(ctx, ws)
	if err != nil {
		return fmt.Errorf("snapshot after the test patch: %w", err)
	}
	if p.Empty() {
		rec.Verdicts = AllModes(StatusEmptyPatch, "the prediction is empty")
		rec.Timing.ApplyS = time.Since(t).Seconds()
		return nil
	}
	if len(p.Files) > 0 {
		if err := writeFiles(ws, p.Files); err != nil {
			if errors.Is(err, ErrPatchRejected) {
				rec.Error = err.Error()
				rec.Verdicts = AllModes(StatusPatchRejected, err.Error())
				return nil
			}
			return err
		}
		d, err := workDiff(ctx, ws, snap)
		if err != nil {
			return err
		}
		art.ModelPatch = d
		rec.ModelPatchApply = &ApplyResult{Applied: true, Method: "files", Attempts: []ApplyAttempt{{Method: "files", OK: true}}}
	} else {
		parsed, err := checkPatchPaths(ws, p.ModelPatch)
		if err != nil {
			rec.Error = err.Error()
			rec.Verdicts = AllModes(StatusPatchRejected, err.Error())
			return nil
		}
		ar, err := applyCascade(ctx, ws, p.ModelPatch, parsed, snap)
		rec.ModelPatchApply = &ar
		if errors.Is(err, ErrPatchRejected) {
			rec.Error = err.Error()
			rec.Verdicts = AllModes(StatusPatchRejected, err.Error())
			return nil
		}
		if err != nil {
			return fmt.Errorf("model patch: %w", err)
		}
		if !ar.Applied {
			rec.Error = "no attempt of the apply cascade applied the model patch"
			rec.Verdicts = AllModes(StatusPatchFailed, rec.Error)
			rec.Timing.ApplyS = time.Since(t).Seconds()
			return nil
		}
	}
	rec.PatchApplied = true
	// Leave the tree as PolyBench does: HEAD at the base commit, both
	// patches as uncommitted changes.
	if _, err := gitCmd(ctx, ws, "reset", "--quiet", "--mixed", base); err != nil {
		return fmt.Errorf("unstage after apply: %w", err)
	}
	rec.Timing.ApplyS = time.Since(t).Seconds()

	if h.NFI != nil {
		t = time.Now()
		rec.NFI = h.nfiDelta(ctx, ws, snap, art.ModelPatch)
		rec.Timing.NFIS = time.Since(t).Seconds()
		rec.Timing.MetricsS += rec.Timing.NFIS
	}

	// Run the tests.
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = runtime.TimeoutFor(in.Language)
	}
	script := "set -uxo pipefail\n" + in.TestCommand + "\n"
	art.Command = "#!/bin/bash\n" + script
	testStart := time.Now()
	res, err := h.Runner.Run(ctx, runtime.Command{Script: script, Dir: ws, Env: h.Env, Timeout: timeout, Writable: h.Writable, Visible: h.ReadOnly})
	if err != nil {
		return fmt.Errorf("run test command: %w", err)
	}
	rec.Timing.TestS = res.Duration.Seconds()
	art.TestLog = BuildLog(res)
	tr := &TestRun{Command: script, ExitCode: res.ExitCode, TimedOut: res.TimedOut, TimeoutS: timeout.Seconds(),
		DurationS: res.Duration.Seconds(), Isolation: res.Isolation, Notes: res.Notes}
	rec.Test = tr

	// Parse: JUnit XML written by this run and the log; the reading that
	// names the most expected tests wins, JUnit on a tie.
	t = time.Now()
	cands, reports := readResults(ws, art.TestLog, testStart)
	fw, results, f2p, p2p := chooseReading(cands, in.FailToPass, in.PassToPass, dockerWorkdir(in.Dockerfile))
	tr.Parser, tr.JUnitReports, tr.NumResults = fw, reports, len(results)
	v, out := Grade(f2p, p2p, RunOutcome{Results: results, ExitCode: res.ExitCode, TimedOut: res.TimedOut,
		Language: in.Language, Framework: fw, Log: art.TestLog})
	rec.Verdicts, rec.PolyBenchOutput = v, out
	rec.Timing.ParseS = time.Since(t).Seconds()
	return nil
}

// BuildLog assembles a run's log as SWE-PolyBench does: stderr, then
// stdout, then a line with the exit status ("Container operation timed
// out" instead when the run was killed at its timeout).
// Source: SWE-PolyBench docker_utils.py docker_run (error_output +
// stdout_output, then "Container exited with status code: N").
func BuildLog(r runtime.Result) []byte {
	var b bytes.Buffer
	b.Grow(len(r.Stderr) + len(r.Stdout) + 64)
	b.Write(r.Stderr)
	b.Write(r.Stdout)
	if r.TimedOut {
		b.WriteString("\nContainer operation timed out\n")
	} else {
		fmt.Fprintf(&b, "\nContainer exited with status code: %d\n", r.ExitCode)
	}
	return b.Bytes()
}

// readResults returns the readings of a run: the JUnit XML reports the
// run wrote in ws (modified at or after since), then the log parsed by the
// framework detected in it, then for TAP the log read the way
// SWE-PolyBench reads it (ids with test numbers). Ids are made relative to
// ws. reports lists the JUnit files read, workspace-relative.
func readResults(ws string, log []byte, since time.Time) (cands []candidate, reports []string) {
	var junit []testlog.Result
	for _, f := range testlog.FindJUnitReports(ws) {
		fi, err := os.Stat(f)
		if err != nil || fi.ModTime().Before(since.Add(-2*time.Second)) {
			continue // committed to the repository, not written by this run
		}
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		r, err := testlog.ParseJUnitXML(fh)
		fh.Close()
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(ws, f)
		reports = append(reports, rel)
		junit = append(junit, r...)
	}
	if len(reports) > 0 {
		cands = append(cands, candidate{string(testlog.JUnit), testlog.TrimWorkspace(junit, ws)})
	}
	if fw, ok := testlog.Detect(log); ok {
		if rs, err := testlog.Parse(fw, log); err == nil {
			cands = append(cands, candidate{string(fw), testlog.TrimWorkspace(rs, ws)})
		}
		if fw == testlog.TAP {
			cands = append(cands, candidate{string(testlog.TAP), testlog.PolyBenchTAP(log)})
		}
	}
	return cands, reports
}

// workDiff returns the diff of the work tree ws against commit c, new
// files included.
func workDiff(ctx context.Context, ws, c string) (string, error) {
	if _, err := gitCmd(ctx, ws, "add", "--all", "."); err != nil {
		return "", err
	}
	out, err := gitCmd(ctx, ws, "diff", "--cached", "--no-color", "--no-ext-diff", "--binary", c)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// nfiDelta scores the .py files the model patch changes, at snap (base plus
// test patch) and in the work tree after the patch. Nil when the patch
// changes no Python file.
func (h *Harness) nfiDelta(ctx context.Context, ws, snap, patch string) *NFIDelta {
	files, err := diff.Parse(patch)
	if err != nil {
		return nil
	}
	var paths []string
	for _, f := range files {
		if strings.HasSuffix(f.Path(), ".py") {
			paths = append(paths, f.Path())
		}
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	parser := syntax.NewParser()
	defer parser.Close()
	var before, after []nfi.FileScore
	for _, p := range paths {
		if old, err := gitCmd(ctx, ws, "show", snap+":"+p); err == nil {
			before = append(before, h.NFI.Score(parser, p, old))
		}
		if cur, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(p))); err == nil {
			after = append(after, h.NFI.Score(parser, p, cur))
		}
	}
	return &NFIDelta{Catalog: h.NFI.Catalog.Version, Files: paths, Delta: nfi.Compare(before, after)}
}
