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
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/images/imagespec"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/testlog"
)

// Harness evaluates predictions. Its fields are read-only after set up; a
// Harness is safe for concurrent use by Run's workers.
type Harness struct {
	Repos *clones.Repos
	// Runtime starts the sandbox of every instance (runtime.Local: a work
	// tree on the host; docker.Docker: a container).
	Runtime runtime.Runtime
	// Images resolves the image of an instance for container runtimes
	// (package images); unused by the local runtime.
	Images ImageResolver
	// Limits bound every sandbox (CPU, memory, processes).
	Limits runtime.Limits
	// LanguageLimits fills the CPU and memory limits Limits leaves zero
	// from the instance's language (runtime.DefaultsFor: 4 cores and 8 GiB
	// for C++ and Rust builds, 2 and 4 GiB otherwise). Set by the Docker
	// runtime's command line; the local runtime applies its runner's
	// limits and Kubernetes its pod resources instead.
	LanguageLimits bool
	// RunKey labels the sandboxes of this run (runtime.LabelRun), the same
	// for every run writing the same output, so that a later run can
	// remove what a killed one left.
	RunKey string
	// Retries is how many more times an instance whose evaluation ends in
	// an infrastructure failure is tried (Run).
	Retries int
	// StartAhead is how many sandboxes Run starts ahead of the workers
	// (image resolved, container started, patch files copied in) while
	// they evaluate other instances, so that an instance's start is off
	// its path; 0 starts each when its evaluation begins. At most
	// Workers + StartAhead sandboxes exist at once.
	StartAhead int
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
	NativeMode grading.Mode
	RunID      string

	// RunEmpty runs the tests for an empty prediction too (on base + test
	// patch), instead of recording empty_patch: validation's no-patch run.
	RunEmpty bool
	// Validation, when set, holds the stored validation of the dataset's
	// instances by id (polynfi validate): it tells an environment failure
	// from a patch that broke the build (attribute).
	Validation map[string]Validation

	// CleanRoom re-runs, for every record whose tests ran with the model
	// patch, its tests in a fresh sandbox with only the patch's source
	// paths applied (IsSourcePath; the rest as base + test patch): a
	// verdict that differs makes the record tampered (Record.CleanRoom).
	// Opt-in: it adds one more evaluation for each patch that changes a
	// non-source path.
	CleanRoom bool
	// noGuards leaves out the canaries and the runner-internals check:
	// the baseline of BenchmarkCanaryCost only, never set outside tests.
	noGuards bool

	// Retrieval, when set, computes localization metrics (package
	// retrieval) into Record.Retrieval.
	Retrieval *retrieval.Options
	// NFI, when set, scores the changed source files before and after the
	// model patch into Record.NFI.
	NFI *nfi.Engine

	removals   sync.WaitGroup // background removals of sandboxes (release)
	removeMu   sync.Mutex
	removeErrs []string // their failures, until Drain
}

// ImageResolver gives the image a container runtime starts an instance
// from (package images implements it). The choice is recorded even when
// err is non-nil (what was tried); an error that is the environment's
// fault wraps a runtime.InfraError.
type ImageResolver interface {
	Resolve(ctx context.Context, in dataset.Instance) (imagespec.Choice, error)
}

// Evaluate evaluates prediction p of instance in and returns its record and
// artifacts; it does not save them. Everything that goes wrong with the
// instance (missing repository, test patch that does not apply, a rejected
// or failed model patch, a failing or hanging test run) is in the record;
// a failure of the environment (runtime.InfraError: daemon unreachable,
// image missing, container killed for memory or gone) is status
// infra_failure with Record.InfraReason set, in every mode.
// The error is non-nil only when ctx is cancelled: then the instance is
// abandoned and its workspace removed.
func (h *Harness) Evaluate(ctx context.Context, in dataset.Instance, p dataset.Prediction) (*runrecord.Record, Artifacts, error) {
	return h.evaluateStarted(ctx, in, p, nil, false)
}

// evaluateStarted is Evaluate on the sandbox pre (nil: started here),
// which it removes, in the background when background is set (see
// release).
func (h *Harness) evaluateStarted(ctx context.Context, in dataset.Instance, p dataset.Prediction, pre *started, background bool) (*runrecord.Record, Artifacts, error) {
	start := time.Now()
	rec := &runrecord.Record{
		Schema:         runrecord.RecordSchema,
		Key:            runrecord.Key{InstanceID: in.InstanceID, Model: p.ModelNameOrPath, Run: p.Run, PatchSHA256: p.PatchSHA256()},
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
		PolyBenchOutput: grading.PolyBenchOutput{PassedTests: []string{}, FailedTests: []string{}},
	}
	art := Artifacts{ModelPatch: p.ModelPatch}
	err := h.evaluate(ctx, in, p, rec, &art, pre, background)
	if ctx.Err() != nil {
		return nil, Artifacts{}, ctx.Err()
	}
	if reason := runtime.InfraReason(err); reason != "" {
		// The environment failed, not the patch: never scored, retried.
		rec.InfraReason = reason
		rec.Verdicts = grading.AllModes(grading.StatusInfraFailure, err.Error())
		rec.Error = err.Error()
	} else if err != nil {
		rec.Verdicts = grading.AllModes(grading.StatusError, err.Error())
		rec.Error = err.Error()
	}
	if h.CleanRoom && err == nil {
		h.cleanRoom(ctx, in, p, rec)
		if ctx.Err() != nil {
			return nil, Artifacts{}, ctx.Err()
		}
	}
	if h.Retrieval != nil {
		t := time.Now()
		st := rec.Verdicts.Get(h.NativeMode).Status
		rec.Retrieval = h.retrievalMetricsFrom(ctx, in, art.ModelPatch, art.AppliedPatch, st == grading.StatusPatchFailed || st == grading.StatusPatchRejected, art.BaseFiles)
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
	// The image's pull or build is the environment's cost, not the
	// harness's: it is left out of the overhead (Timing.ImageS).
	rec.Timing.OverheadS = rec.Timing.TotalS - rec.Timing.TestS - rec.Timing.ImageS
	if rec.CleanRoom != nil {
		rec.Timing.OverheadS -= rec.CleanRoom.TotalS // the clean room's own cost is CleanRoom.TotalS
	}
	return rec, art, nil
}

// retrievalMetrics computes the localization metrics of patch, the
// prediction as applied (for a files prediction, the diff it made);
// applied is the diff a patch that only GNU patch's fuzz applied made to
// the tree ("" otherwise: see retrieval.Input.Applied). Every mode (a full
// run, --metrics-only through PredictionMetrics, the metrics of a missing
// prediction) scores through here. unapplied marks a patch that did not apply or was rejected: as in
// SWE-PolyBench, it scores 0 for files and nodes. Metrics are computed
// whatever else went wrong with the instance (SWE-PolyBench computes them
// when its test patch does not apply, too). Nil only when the base files
// cannot be read at all.
func (h *Harness) retrievalMetrics(ctx context.Context, in dataset.Instance, patch, applied string, unapplied bool) *retrieval.InstanceMetrics {
	return h.retrievalMetricsFrom(ctx, in, patch, applied, unapplied, nil)
}

// retrievalMetricsFrom is retrievalMetrics with the base files read in the
// sandbox (base, nil when there are none): the source of node metrics
// when the repository has no local clone. Without either, node metrics
// are skipped and node_error says why.
func (h *Harness) retrievalMetricsFrom(ctx context.Context, in dataset.Instance, patch, applied string, unapplied bool, base retrieval.MemSource) *retrieval.InstanceMetrics {
	src, srcErr := h.Repos.Source(ctx, in.Repo)
	var gs retrieval.Source
	if src != "" {
		gs = retrieval.NewGitSource(ctx, src, in.BaseCommit)
	} else if base != nil {
		gs = base
	}
	opts := *h.Retrieval
	opts.Parser = nil
	opts.Unapplied = unapplied
	noNodes := opts.Nodes && gs == nil
	if noNodes {
		opts.Nodes = false
	}
	m, err := retrieval.Evaluate(retrieval.Input{InstanceID: in.InstanceID, Language: in.Language, TaskCategory: in.TaskCategory,
		Reference: in.Patch, Prediction: patch, ReferenceNodes: in.ModifiedNodes, Applied: applied}, gs, opts)
	if err != nil {
		return nil
	}
	if noNodes {
		m.NodeError = "node metrics not computed: the base files could not be read (no local clone of " + in.Repo
		if srcErr != nil {
			m.NodeError += ": " + srcErr.Error()
		}
		m.NodeError += ", and none read in the sandbox)"
	}
	return &m
}

// baseFiles reads, in the work tree's repository, the contents at commit
// base of the files the patches name (old paths; one command), for node
// metrics when the host has no clone. A file absent at base is left out
// (retrieval then reports it absent); nil when the read fails.
func baseFiles(ctx context.Context, t *tree, base string, patches ...string) retrieval.MemSource {
	seen := map[string]bool{}
	var paths []string
	for _, pt := range patches {
		for _, p := range diff.ScanPaths(pt) {
			if p.Old != "" && p.Old != diff.DevNull && !seen[p.Old] && safepath.Check(p.Old) == nil {
				seen[p.Old] = true
				paths = append(paths, p.Old)
			}
		}
	}
	if len(paths) == 0 {
		return retrieval.MemSource{}
	}
	out, err := t.script(ctx, `b=$1; shift
for p; do
  if s=$(g cat-file -s "$b:$p" 2>/dev/null); then printf '%s\0' "$s"; g cat-file blob "$b:$p" || exit 1; else printf -- '-\0'; fi
done`, append([]string{base}, paths...)...)
	if err != nil {
		return nil
	}
	m := retrieval.MemSource{}
	for _, p := range paths {
		head, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil
		}
		if string(head) == "-" {
			out = rest
			continue
		}
		n, err := strconv.Atoi(string(head))
		if err != nil || n > len(rest) {
			return nil
		}
		m[p], out = string(rest[:n]), rest[n:]
	}
	return m
}

// sandboxTmp is the harness's directory for patches inside a container.
const sandboxTmp = "/tmp/.polynfi"

// testStartMarker is touched in the work tree's git directory right before
// the test command runs: a JUnit report counts only when it is newer.
const testStartMarker = "polynfi-test-start"

// ContainerWorkdir is where the repository of instance in lives in its
// image: the Dockerfile's last WORKDIR, else /testbed for a SWE-bench 5.x
// row (eval_script), else "" (the image's own working directory). The
// harness and `polynfi run` both start containers there.
func ContainerWorkdir(in dataset.Instance) string {
	if wd := dockerWorkdir(in.Dockerfile); wd != "" {
		return wd
	}
	if usesEvalScript(in) {
		return swebWorkdir // SWE-bench's images keep the repository there
	}
	return ""
}

// evaluate does the work on the instance's sandbox st (nil: started
// here), and removes it (in the background: see release); an error is a harness-level failure of the instance
// (StatusError), or an infrastructure failure when it wraps a
// runtime.InfraError. evaluate owns st: it removes its sandbox.
func (h *Harness) evaluate(ctx context.Context, in dataset.Instance, p dataset.Prediction, rec *runrecord.Record, art *Artifacts, st *started, background bool) (err error) {
	t0 := time.Now()
	if st == nil {
		st = h.startInstance(ctx, in, p, nil)
	} else {
		<-st.ready
	}
	st.timings(t0, rec)
	if st.choice != nil {
		c := *st.choice
		rec.Image = &c
	}
	if st.err != nil {
		return st.err
	}
	wt := st.wt
	info := runrecord.SandboxInfo(wt.sb.Info())
	rec.Sandbox = &info
	defer func() {
		wt.endSession()
		rec.CopyS = wt.copyS
		t := time.Now()
		if rerr := h.release(st, background); rerr != nil {
			rec.Sandbox.Notes = append(rec.Sandbox.Notes, "sandbox not removed: "+rerr.Error())
		}
		rec.Timing.RemoveS = time.Since(t).Seconds()
	}()
	// The tree at base + test patch, prepared with the sandbox
	// (startInstance, prepareTree).
	t := time.Now()
	rec.TestPatchApply = st.testApply
	if st.prepErr != nil {
		return st.prepErr
	}
	if h.Retrieval != nil && h.Retrieval.Nodes && h.Runtime.Name() != "local" {
		if _, err := h.Repos.Source(ctx, in.Repo); err != nil {
			// No clone on the host: the image's repository gives the
			// base files node metrics need.
			art.BaseFiles = baseFiles(ctx, wt, st.base, in.Patch, p.ModelPatch)
		}
	}
	testAhead := overlap(t0, st.startEnd, st.end)
	base, snap, modelLstat := st.base, st.snap, st.modelLstat
	modelFiles, modelParsed, modelPaths := st.modelFiles, st.modelParsed, st.modelPaths
	applyS := func() float64 { return testAhead + time.Since(t).Seconds() }
	if p.Empty() && h.RunEmpty {
		// Validation: the tests run on base + test patch alone.
		rec.Timing.ApplyS = applyS()
		return h.runTests(ctx, in, wt, rec, art, nil, snap)
	}
	if p.Empty() {
		rec.Verdicts = grading.AllModes(grading.StatusEmptyPatch, "the prediction is empty")
		rec.Timing.ApplyS = applyS()
		return nil
	}
	var patchPaths []string
	if len(p.Files) > 0 {
		d, err := filesChange(ctx, wt, p.Files, modelLstat, snap)
		if err != nil {
			if errors.Is(err, ErrPatchRejected) {
				rec.Error = err.Error()
				rec.Verdicts = grading.AllModes(grading.StatusPatchRejected, err.Error())
				return nil
			}
			return err
		}
		art.ModelPatch = d
		ar := filesApplied()
		rec.ModelPatchApply = &ar
		for f := range p.Files {
			patchPaths = append(patchPaths, f)
		}
	} else {
		if _, err := checkPatchPaths(modelLstat, p.ModelPatch); err != nil {
			rec.Error = err.Error()
			rec.Verdicts = grading.AllModes(grading.StatusPatchRejected, err.Error())
			return nil
		}
		patchPaths = modelPaths
		ar, err := applyCascade(ctx, wt, modelFiles, modelParsed, snap)
		rec.ModelPatchApply = &ar
		if errors.Is(err, ErrPatchRejected) {
			rec.Error = err.Error()
			rec.Verdicts = grading.AllModes(grading.StatusPatchRejected, err.Error())
			return nil
		}
		if err != nil {
			return fmt.Errorf("model patch: %w", err)
		}
		if !ar.Applied {
			rec.Error = grading.ReasonNotApplied
			rec.Verdicts = grading.AllModes(grading.StatusPatchFailed, rec.Error)
			rec.Timing.ApplyS = applyS()
			return nil
		}
		if ar.Method == fuzzMethod {
			if art.AppliedPatch, err = appliedDiff(ctx, wt, snap); err != nil {
				return fmt.Errorf("model patch: the diff GNU patch made: %w", err)
			}
		}
	}
	rec.PatchApplied = true
	// The tests are the instance's, not the patch's: test files and
	// runner configuration go back to base + test patch (guardTests).
	// The tree is then left as PolyBench leaves it: HEAD at the base
	// commit, both patches as uncommitted changes.
	te, err := guardTests(ctx, wt, base, snap, in.TestPatch, patchPaths)
	if err != nil {
		return err
	}
	rec.TestEdits = te
	rec.Timing.ApplyS = applyS()
	t = time.Now()
	applied := art.ModelPatch
	if art.AppliedPatch != "" {
		applied = art.AppliedPatch
	}
	if !h.noGuards {
		rec.RunnerInternals = checkRunnerInternals(ctx, wt, applied)
	}
	rec.Timing.RunnerCheckS = time.Since(t).Seconds()

	if h.NFI != nil {
		t = time.Now()
		rec.NFI = h.nfiDelta(ctx, wt, snap, art.ModelPatch)
		rec.Timing.NFIS = time.Since(t).Seconds()
		rec.Timing.MetricsS += rec.Timing.NFIS
	}
	err = h.runTests(ctx, in, wt, rec, art, te, snap)
	applyRunnerFindings(&rec.Verdicts, rec.RunnerInternals)
	return err
}

// testTimeout is the timeout of in's test run: Timeout, else the
// language's default (runtime.TimeoutFor).
func (h *Harness) testTimeout(in dataset.Instance) time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return runtime.TimeoutFor(in.Language)
}

// runTests runs the instance's tests (runTestCommand) and makes a sandbox
// that stopped by itself while they ran or were read
// (*runtime.StoppedError: its PID 1 exited with no outside cause the
// engine reports) the run's outcome: unresolved in every mode, never an
// infrastructure failure that is retried and set apart from the model's
// failures. snap is the commit of base + test patch.
func (h *Harness) runTests(ctx context.Context, in dataset.Instance, wt *tree, rec *runrecord.Record, art *Artifacts, te *runrecord.TestEdits, snap string) error {
	err := h.runTestCommand(ctx, in, wt, rec, art, te, snap)
	var stopped *runtime.StoppedError
	if !errors.As(err, &stopped) || ctx.Err() != nil {
		return err
	}
	if rec.Test == nil {
		rec.Test = &runrecord.TestRun{Command: art.Command, ExitCode: -1, TimeoutS: h.testTimeout(in).Seconds(), Workdir: wt.sb.Workdir()}
	}
	rec.Test.Notes = append(rec.Test.Notes, stopped.Error())
	rec.Verdicts = grading.AllModes(grading.StatusUnresolved, "the sandbox stopped while the tests ran, by what ran in it: "+stopped.Error())
	return nil
}

// runTestCommand runs the instance's test command in the work tree, reads
// its results and grades them into rec; te is what the model patch did to
// the tests (nil when nothing or no patch); snap is the commit of base +
// test patch, where the canaries' host files are read (canary.go).
func (h *Harness) runTestCommand(ctx context.Context, in dataset.Instance, wt *tree, rec *runrecord.Record, art *Artifacts, te *runrecord.TestEdits, snap string) error {
	t := time.Now()
	var canaries []runrecord.Canary
	canaryNote := "canaries not placed: a SWE-bench eval_script checks out and selects the test files itself"
	if h.noGuards {
		canaryNote = "canaries not placed: benchmark baseline"
	} else if !usesEvalScript(in) {
		var err error
		if canaries, canaryNote, err = placeCanaries(ctx, wt, in, snap); err != nil {
			return err
		}
		rec.Timing.CanaryS = time.Since(t).Seconds()
	}
	// The harness's session ends before anything of the instance runs.
	wt.endSession()

	// Run the tests.
	timeout := h.testTimeout(in)
	if usesEvalScript(in) {
		return h.runEvalScript(ctx, in, wt, rec, art, timeout, te)
	}
	script := "set -uxo pipefail\n" + in.TestCommand + "\n"
	art.Command = "#!/bin/bash\n" + script
	res, err := wt.sb.Exec(ctx, runtime.Command{Script: script, Env: h.Env, Timeout: timeout, Writable: h.Writable, Visible: h.ReadOnly})
	if err != nil && runtime.InfraReason(err) == runtime.ReasonOOM && ctx.Err() == nil {
		if val, ok := h.Validation[in.InstanceID]; ok && val.Holds {
			// The environment ran the gold patch within the same limits:
			// the memory went to what the patch made the tests do.
			reason := "the test command was killed at the memory limit, which the gold patch stays within (validation): " + err.Error()
			rec.Test = &runrecord.TestRun{Command: script, ExitCode: -1, TimeoutS: timeout.Seconds(), Notes: []string{err.Error()}}
			rec.Verdicts = grading.AllModes(grading.StatusUnresolved, reason)
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("run test command: %w", err)
	}
	rec.Timing.TestS = res.Duration.Seconds()
	// The attempt's secret for the marks of its log: drawn now, after the
	// last command of the attempt that runs the patch's code ended.
	secret := newLogSecret()
	tr := &runrecord.TestRun{Command: script, ExitCode: res.ExitCode, TimedOut: res.TimedOut, TimeoutS: timeout.Seconds(),
		DurationS: res.Duration.Seconds(), Isolation: res.Isolation, Notes: res.Notes, LogSecret: secret, Workdir: wt.sb.Workdir(),
		Canaries: canaries, CanaryNote: canaryNote}
	rec.Test = tr

	// Collect and parse: the JUnit XML reports written by this run and the
	// log, framed with the attempt's run marks (runlog.go) and read back
	// through them, as a re-grading reads it.
	t = time.Now()
	reports, err := collectReports(ctx, wt)
	if err != nil && res.TimedOut && runtime.InfraReason(err) == runtime.ReasonDeadline {
		// The sandbox's backend ended it at its deadline while the test
		// command, past its timeout, still ran (kube.Kubernetes'
		// Exec): the run timed out, and left no report to read.
		tr.Notes = append(tr.Notes, "test reports not collected: the sandbox had ended at its deadline")
		reports, err = nil, nil
	}
	if err != nil && res.TimedOut && errors.Is(err, runtime.ErrEndedAtTimeout) {
		// The backend ended the sandbox at the test command's timeout:
		// what the tests left running (a fork bomb) could not be killed
		// inside it.
		tr.Notes = append(tr.Notes, "test reports not collected: the sandbox was ended at the timeout")
		reports, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("collect the test reports: %w", err)
	}
	art.TestLog = BuildLog(res, secret, reports)
	l, err := readTestCommandLog(art.TestLog, secret)
	if err != nil {
		return fmt.Errorf("read back the test log: %w", err)
	}
	if in.SWEBenchPro != nil {
		l.Pro = runProParserOf(ctx, in, l)
		tr.Notes = append(tr.Notes, proParserNote(l.Pro))
	}
	g := gradeTestCommand(in, l, wt.sb.Workdir(), te, canaries)
	h.attribute(&g.verdicts, in, l, art.TestLog)
	grading.RespellVerdicts(&g.verdicts, g.f2p, in.FailToPass, g.p2p, in.PassToPass)
	tr.Parser, tr.JUnitReports, tr.NumResults, tr.Stream = g.framework, g.reports, g.numResults, g.stream
	tr.Notes = append(tr.Notes, g.notes...)
	rec.Verdicts, rec.PolyBenchOutput = g.verdicts, g.out
	rec.Timing.ParseS = time.Since(t).Seconds()
	return nil
}

// testCommandGrade is the grading of a test_command run (gradeTestCommand).
type testCommandGrade struct {
	verdicts   grading.Verdicts
	out        grading.PolyBenchOutput
	framework  string   // the reading chosen ("junit", a testlog framework, "swebench:<parser>")
	reports    []string // the JUnit reports read, relative to the work tree
	stream     string   // "stdout" or "stderr": the stream the log reading came from
	numResults int
	notes      []string
	f2p, p2p   []string // the expected ids as the chosen reading spells them
}

// gradeTestCommand reads and grades a test_command run from its streams and
// report files (l), for the run itself and for a re-grading alike: the
// log and reports are read by grading.ReadTestCommand (the reading that
// names the most expected tests, the others' failures dissenting) and
// graded by grading.Grade; a stream that holds more than one complete
// report is unresolved in every mode; test edits
// apply (applyTestEdits); the canaries the harness added (cs) are taken
// out of the chosen reading and checked (checkCanaries): a reading that
// fails them is StatusTampered in every mode. ws is the work tree's path
// in the sandbox ("" to leave ids as they are).
func gradeTestCommand(in dataset.Instance, l testCommandLog, ws string, te *runrecord.TestEdits, cs []runrecord.Canary) testCommandGrade {
	var g testCommandGrade
	files := make([]grading.ReportFile, len(l.Reports))
	for i, f := range l.Reports {
		files[i] = grading.ReportFile{Path: f.Path, Data: f.Data}
	}
	rd := grading.ReadTestCommand(in, l.Stdout, l.Stderr, files, ws, dockerWorkdir(in.Dockerfile))
	g.reports, g.stream, g.notes = rd.Reports, rd.Stream, rd.Notes
	fw, results, f2p, p2p, nReports, stream := rd.Framework, rd.Results, rd.FailToPass, rd.PassToPass, rd.NumReports, rd.Stream
	co := checkCanaries(cs, results)
	results = co.rest
	g.framework, g.numResults, g.f2p, g.p2p = fw, len(results), f2p, p2p
	full := append(append(append([]byte(nil), l.Stderr...), l.Stdout...), fmt.Sprintf("\nContainer exited with status code: %d\n", l.ExitCode)...)
	g.verdicts, g.out = grading.Grade(f2p, p2p, grading.RunOutcome{Results: results, ExitCode: l.ExitCode, TimedOut: l.TimedOut,
		Language: in.Language, Framework: fw, Log: full, CanaryFailed: co.failed})
	if in.MultiSWEBench != nil {
		mv := grading.GradeMultiSWEBench(in.MultiSWEBench, results, l.TimedOut)
		g.verdicts.MultiSWEBench = &mv
	}
	if in.SWEBenchPro != nil {
		pv := grading.GradeSWEBenchPro(in.FailToPass, in.PassToPass, l.Pro, results, l.ExitCode, l.TimedOut)
		g.verdicts.SWEBenchPro = &pv
	}
	if nReports > 1 && fw != string(testlog.JUnit) && !l.TimedOut {
		g.verdicts = grading.AllModes(grading.StatusUnresolved, fmt.Sprintf("the test command's %s holds %d %s reports; a test run prints one (the others were printed by something else)", stream, nReports, fw))
	}
	if co.problem != "" && !l.TimedOut {
		g.verdicts = grading.AllModes(grading.StatusTampered, co.problem)
		if in.SWEBenchPro != nil {
			pv := g.verdicts.Strict
			g.verdicts.SWEBenchPro = &pv
		}
	}
	applyTestEdits(&g.verdicts, te)
	return g
}

// collectReports copies out the JUnit XML reports the run wrote in the
// work tree: regular files at the conventional places
// (testlog.JUnitReportPatterns) newer than the test start marker, sorted
// by path, relative to the work tree. One command lists them and prints
// their contents (readFunc); a report past its output budget, or an
// answer that does not frame (a file changed while it was read), is
// copied out through the runtime.
func collectReports(ctx context.Context, wt *tree) ([]runtime.File, error) {
	ans, err := wt.script(ctx, readFunc+`m="$(g rev-parse --git-dir)/$1" RD_MAX=$2 RD_BUDGET=$3; shift 3
shopt -s nullglob
found=()
for pat in "$@"; do for f in $pat; do
  if [[ -f $f && ! -L $f && $f -nt $m ]]; then found+=("$f"); printf '%s\0' "$f"; fi
done; done
printf '\0'
rd "${found[@]}"`, append([]string{testStartMarker, strconv.Itoa(runtime.DefaultMaxOutput), strconv.Itoa(readBudget)}, testlog.JUnitReportPatterns()...)...)
	if err != nil {
		return nil, err
	}
	var names []string
	listed := false // the list ended as printed (not cut short)
	for !listed {
		name, rest, ok := bytes.Cut(ans, []byte{0})
		if !ok {
			break
		}
		ans = rest
		if listed = len(name) == 0; !listed {
			names = append(names, string(name))
		}
	}
	read, later, ok := parseRead(names, ans)
	if !listed || !ok {
		read, later = map[string][]byte{}, names
	}
	for _, rel := range later {
		if _, done := read[rel]; done {
			continue
		}
		files, err := wt.sb.CopyOut(ctx, rel, 0)
		if err != nil {
			if runtime.InfraReason(err) != "" {
				return nil, err
			}
			continue
		}
		if len(files) == 1 {
			read[rel] = files[0].Data
		}
	}
	var out []runtime.File
	for rel, data := range read {
		out = append(out, runtime.File{Path: rel, Data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// diffPaths lists the old and new paths of a patch: from its strict parse
// when there is one, else from the lenient header scan.
func diffPaths(parsed []diff.File, patch string) []string {
	var out []string
	if parsed != nil {
		for _, f := range parsed {
			out = append(out, f.OldPath, f.NewPath)
		}
		return out
	}
	for _, p := range diff.ScanPaths(patch) {
		out = append(out, p.Old, p.New)
	}
	return out
}

// nfiDelta scores the source files the model patch changes (NFISource:
// Python, Java, JavaScript, TypeScript; each judged by its language's
// rules), at snap (base plus test patch) and in the work tree after the
// patch. Nil when the patch changes no such file. A file of a language the
// catalog has no rule for is parsed for validity only (NFIDelta.NoRules).
func (h *Harness) nfiDelta(ctx context.Context, wt *tree, snap, patch string) *runrecord.NFIDelta {
	files, err := diff.Parse(patch)
	if err != nil {
		return nil
	}
	var paths []string
	for _, f := range files {
		if NFISource(f.Path()) {
			paths = append(paths, f.Path())
		}
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	var noRules []string
	for _, p := range paths {
		if l := nfi.SourceLanguage(p); !h.NFI.HasRules(l) && !slices.Contains(noRules, l.String()) {
			noRules = append(noRules, l.String())
		}
	}
	parser := syntax.NewParser()
	defer parser.Close()
	var before, after []nfi.FileScore
	for _, p := range paths {
		if old, err := wt.script(ctx, `g show "$1:$2"`, snap, p); err == nil {
			before = append(before, h.NFI.Score(parser, p, old))
		}
		if cur, err := wt.sb.CopyOut(ctx, p, 0); err == nil && len(cur) == 1 {
			after = append(after, h.NFI.Score(parser, p, cur[0].Data))
		}
	}
	return &runrecord.NFIDelta{Catalog: h.NFI.Catalog.Version, Files: paths, Delta: nfi.Compare(before, after), NoRules: noRules}
}

// NFISource reports whether the NFI delta scores the changed file at path:
// a file nfi.IsSource accepts (.py, .js, .ts, ...) or a .java file, which
// the Java front end (tree-sitter-java) parses and the catalog's Java rules,
// when it has some, judge.
func NFISource(path string) bool {
	return nfi.IsSource(path) || filepath.Ext(path) == ".java"
}
