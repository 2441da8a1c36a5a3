package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/images/imagespec"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// started is an instance's sandbox, made, with the harness's files (the
// patches, an eval script) copied in: by evaluate itself, or ahead of it by
// Run (Harness.StartAhead) while other instances run.
type started struct {
	ready chan struct{} // closed once the fields below are set

	wt     *tree
	remove func() error // removes the sandbox, the work tree and the scratch directory
	choice *imagespec.Choice
	err    error // the sandbox could not be made; nothing is left to remove

	// startInstance began, resolved the image, had the sandbox started
	// and the files copied in, was done.
	begin, imageEnd, startEnd, end time.Time

	// The patches' strict parses (nil when a patch does not parse) and
	// their files in the sandbox.
	testParsed, modelParsed []diff.File
	testFiles, modelFiles   cascadeFiles
	modelPaths              []string // the paths the prediction names

	// The tree prepared for the model patch (prepareTree): its base
	// commit, the test patch applied (how), the snapshot of base + test
	// patch, the types of the prefixes of modelPaths in it; prepErr is
	// what went wrong (the instance's error, or an InfraError).
	base, snap string
	testApply  *runrecord.ApplyResult
	modelLstat safepath.Lstat
	prepErr    error
}

// timings sets the record's ImageS and WorkspaceS from st, for an
// evaluation that began at t0: the part of the image's resolution and of
// the sandbox's start that the evaluation waited for (all of it when st
// was made by the evaluation; what was left of it when st was started
// ahead).
func (st *started) timings(t0 time.Time, rec *runrecord.Record) {
	rec.Timing.ImageS = overlap(t0, st.begin, st.imageEnd)
	rec.Timing.WorkspaceS = overlap(t0, st.imageEnd, st.startEnd)
}

// overlap is the seconds of [from, to] after t0 (0 when none).
func overlap(t0, from, to time.Time) float64 {
	if t0.After(from) {
		from = t0
	}
	return max(to.Sub(from).Seconds(), 0)
}

// startInstance makes the sandbox prediction p of instance in is evaluated
// in (Harness.start) and copies the patch files into it in one copy, into
// st (a new one when nil; else one whose ready channel is made and not
// closed), and returns st with st.ready closed. It never fails: a failure
// is st.err (an instance that cannot run, an image that cannot be had, a
// sandbox that did not start), and then nothing is left behind.
func (h *Harness) startInstance(ctx context.Context, in dataset.Instance, p dataset.Prediction, st *started) *started {
	if st == nil {
		st = &started{ready: make(chan struct{})}
	}
	st.begin = time.Now()
	st.imageEnd = st.begin
	defer func() {
		if st.startEnd.IsZero() {
			st.startEnd = time.Now()
		}
		st.end = time.Now()
		close(st.ready)
	}()
	evalScript := usesEvalScript(in)
	if strings.TrimSpace(in.TestCommand) == "" && !evalScript {
		st.err = errors.New("instance has no test_command and no eval_script")
		return st
	}
	if evalScript && h.Runtime != nil && h.Runtime.Name() == "local" {
		st.err = errors.New("instance has an eval_script and no test_command: it runs in a container (a container runtime), not in a work tree on the host")
		return st
	}
	// The files to copy in: the test patch (unless an eval script applies
	// it, SWE-bench 5.x), the model patch, each with its canonical
	// rendering for GNU patch, and the eval script.
	copies := map[string]string{}
	if strings.TrimSpace(in.TestPatch) != "" && !evalScript {
		if f, err := diff.Parse(in.TestPatch); err == nil {
			st.testParsed = f
		}
		st.testFiles = patchFiles("test.patch", in.TestPatch, st.testParsed, copies)
	}
	if !p.Empty() && len(p.Files) == 0 {
		if f, err := diff.Parse(p.ModelPatch); err == nil {
			st.modelParsed = f
		}
		st.modelFiles = patchFiles("model.patch", p.ModelPatch, st.modelParsed, copies)
	}
	// An eval script's parts are copied in by runEvalScript (split at
	// its marker lines, the shell's state carried between them).
	scratch, err := os.MkdirTemp(h.ScratchDir, "inst-")
	if err != nil {
		st.err = err
		return st
	}
	wt, remove, err := h.start(ctx, in, scratch, st)
	if err != nil {
		_ = os.RemoveAll(scratch)
		st.err = err
		return st
	}
	st.wt = wt
	st.remove = func() error {
		err := remove()
		_ = os.RemoveAll(scratch)
		return err
	}
	if len(copies) > 0 {
		at, err := wt.copyPatches(ctx, copies)
		if err != nil {
			_ = st.remove()
			st.wt, st.remove, st.err = nil, nil, err
			return st
		}
		st.testFiles, st.modelFiles = st.testFiles.at(at), st.modelFiles.at(at)
		wt.evalScript = at["eval.sh"]
	}
	st.startEnd = time.Now()
	st.modelPaths = predictionPaths(p)
	st.prepErr = prepareTree(ctx, in, st)
	return st
}

// predictionPaths are the paths prediction p names: its files' (sorted)
// or its patch's (diff.PatchPaths); none for an empty one.
func predictionPaths(p dataset.Prediction) []string {
	if len(p.Files) > 0 {
		paths := make([]string, 0, len(p.Files))
		for f := range p.Files {
			paths = append(paths, f)
		}
		sort.Strings(paths)
		return paths
	}
	if p.Empty() {
		return nil
	}
	return diff.PatchPaths(p.ModelPatch)
}

// prepareTree brings st's work tree to base + test patch: the base commit
// and the types of the test patch's paths in it (one command), the path
// check of the test patch, its apply cascade (unless an eval script
// applies it), and the snapshot that the model patch is applied on and
// reset to, with the types of the model patch's paths in it. Nothing of
// the prediction is applied or run. The error is the instance's (a test
// patch that is refused or does not apply) or an InfraError.
func prepareTree(ctx context.Context, in dataset.Instance, st *started) error {
	wt := st.wt
	base, testLstat, err := wt.base(ctx, diff.PatchPaths(in.TestPatch))
	if err != nil {
		return err
	}
	st.base = base
	if strings.TrimSpace(in.TestPatch) != "" && !usesEvalScript(in) {
		if _, err := checkPatchPaths(testLstat, in.TestPatch); err != nil {
			return fmt.Errorf("test patch: %w", err)
		}
		// The snapshot is taken in the cascade's command when the patch
		// applies, and used once the path check accepted what it wrote.
		pre := lookups(st.modelPaths)
		if pre == nil {
			pre = []string{}
		}
		ar, ahead, err := applyCascadeAhead(ctx, wt, st.testFiles, base, pre)
		st.testApply = &ar
		if err != nil {
			return fmt.Errorf("test patch: %w", err)
		}
		if !ar.Applied {
			return errors.New("test patch does not apply")
		}
		if ahead != nil {
			snap, lstat, err := snapshotAnswer(pre, ahead)
			if err != nil {
				return fmt.Errorf("snapshot after the test patch: %w", err)
			}
			st.snap, st.modelLstat = snap, lstat
			return nil
		}
	}
	snap, lstat, err := snapshot(ctx, wt, st.modelPaths)
	if err != nil {
		return fmt.Errorf("snapshot after the test patch: %w", err)
	}
	st.snap, st.modelLstat = snap, lstat
	return nil
}

// start makes the instance's sandbox: for the local runtime a fresh work
// tree of the repository at the base commit under scratch, for container
// runtimes a container from the instance's image (Images; the choice and
// the time it took go to st). The returned function removes the sandbox
// (and the work tree) and says what went wrong doing so.
func (h *Harness) start(ctx context.Context, in dataset.Instance, scratch string, st *started) (*tree, func() error, error) {
	if h.Runtime == nil {
		return nil, nil, errors.New("harness: no runtime")
	}
	labels := map[string]string{runtime.LabelInstance: in.InstanceID}
	if h.RunKey != "" {
		labels[runtime.LabelRun] = h.RunKey
	}
	spec := runtime.Spec{Name: in.InstanceID, Labels: labels, Limits: h.Limits, Language: in.Language, Timeout: h.testTimeout(in)}
	if h.LanguageLimits {
		spec.Limits = h.Limits.WithDefaults(runtime.DefaultsFor(in.Language))
	}
	cleanup := func() error { return nil }
	tmp := sandboxTmp
	if h.Runtime.Name() == "local" {
		ws, remove, err := h.Repos.Workspace(ctx, in.Repo, in.BaseCommit, scratch)
		if err != nil {
			return nil, nil, err
		}
		spec.Workdir, cleanup, tmp = ws, func() error { remove(); return nil }, scratch
	} else {
		if h.Images == nil {
			return nil, nil, errors.New("harness: no image resolver for the container runtime")
		}
		choice, err := h.Images.Resolve(ctx, in)
		st.imageEnd = time.Now()
		if choice.Image != "" || choice.Source != "" {
			st.choice = &choice
		}
		if err != nil {
			return nil, nil, err
		}
		spec.Image, spec.Workdir = choice.Image, ContainerWorkdir(in)
	}
	sb, err := h.Runtime.Start(ctx, spec)
	if err != nil {
		_ = cleanup()
		return nil, nil, err
	}
	remove := func() error {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
		defer cancel()
		err := sb.Remove(rctx)
		_ = cleanup()
		return err
	}
	// The session needs an Exec that carries standard input and live
	// output: the local and docker runtimes' do (the kubernetes runtime's
	// does not, and runs each command as its own exec).
	name := h.Runtime.Name()
	return &tree{sb: sb, tmp: tmp, noSession: name != "local" && name != "docker"}, remove, nil
}

// release removes st's sandbox: at once, or in the background when
// background is set and the runtime is not local (a container's removal
// is then off the instance's path; Run waits for every removal before it
// returns, with Drain). The error is the removal's when it was done at
// once.
func (h *Harness) release(st *started, background bool) error {
	if st == nil || st.remove == nil {
		return nil
	}
	remove := st.remove
	st.remove = nil
	if !background || h.Runtime == nil || h.Runtime.Name() == "local" {
		return remove()
	}
	h.removals.Add(1)
	go func() {
		defer h.removals.Done()
		if err := remove(); err != nil {
			h.removeMu.Lock()
			h.removeErrs = append(h.removeErrs, err.Error())
			h.removeMu.Unlock()
		}
	}()
	return nil
}

// discard removes a sandbox started ahead that will not be evaluated.
func (h *Harness) discard(st *started) {
	if st == nil {
		return
	}
	<-st.ready
	if st.wt != nil {
		st.wt.endSession()
	}
	_ = h.release(st, true)
}

// Drain waits until every sandbox removal started in the background is
// done and returns the errors of those that failed (once each). Run calls
// it before it returns.
func (h *Harness) Drain() []string {
	h.removals.Wait()
	h.removeMu.Lock()
	defer h.removeMu.Unlock()
	errs := h.removeErrs
	h.removeErrs = nil
	return errs
}
