package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// PatchApplies reports whether patch applies with `git apply` to the
// repository clone repoDir at base, after the instance's test patch (as
// Evaluate applies them), without a work tree: both go through a private
// index (GIT_INDEX_FILE) read from base, so the clone is not touched. It
// is the quick first step of PredictionMetrics: it does not try the
// cascade's `--reject` or GNU patch's fuzz, so false only means the rest
// of the cascade must be tried. A blank patch applies.
func PatchApplies(ctx context.Context, repoDir, base, testPatch, patch string) (bool, error) {
	if strings.TrimSpace(patch) == "" {
		return true, nil
	}
	if err := clones.CheckBase(ctx, repoDir, base); err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp("", "polynfi-index-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	run := func(stdin string, args ...string) error {
		cmd, err := gitexec.Command(ctx, repoDir, env, args...)
		if err != nil {
			return err
		}
		cmd.Stdin = strings.NewReader(stdin)
		return cmd.Run()
	}
	if err := run("", "read-tree", base); err != nil {
		return false, err
	}
	if strings.TrimSpace(testPatch) != "" {
		if err := run(testPatch, "apply", "--cached", "-"); err != nil {
			return false, nil
		}
	}
	return run(patch, "apply", "--cached", "--check", "-") == nil, nil
}

// PredictionMetrics scores prediction p of instance in without running
// its tests (eval --metrics-only), by the definitions of an evaluated run
// and through the same computation (retrievalMetrics): a blank prediction
// scores 0; a patch counts as applied exactly when the apply cascade of
// an evaluation applies it (spec §2.2: git apply, git apply --reject, GNU
// patch --fuzz=5, after the test patch), and a patch that does not apply,
// or writes outside the work tree, scores 0 for files and nodes; a patch
// only GNU patch's fuzz applies has its nodes located in the change it
// made (retrieval.Input.Applied). A files prediction ({"files": {path:
// content}}) is scored from the change its files make over base + test
// patch, written and diffed in a work tree as an evaluation does
// (filesChange); one with a path the evaluation refuses scores 0. The
// quick check (PatchApplies, no work tree) decides every patch git applies
// as written; the others, and files predictions, go through a work tree of
// h.Runtime (the local runtime). note says what could not be checked (no
// clone: file metrics only; no runtime or the work tree failed: a patch
// git does not apply, or a files prediction, counts as not applied); the
// result is nil only when the base files cannot be read.
func (h *Harness) PredictionMetrics(ctx context.Context, in dataset.Instance, p dataset.Prediction) (m *retrieval.InstanceMetrics, note string) {
	if p.Empty() {
		return h.retrievalMetrics(ctx, in, p.ModelPatch, "", false), ""
	}
	files := len(p.Files) > 0
	if !files {
		dir, err := h.Repos.Source(ctx, in.Repo)
		if err != nil {
			return h.retrievalMetrics(ctx, in, p.ModelPatch, "", false), "node metrics skipped: " + err.Error()
		}
		ok, err := PatchApplies(ctx, dir, in.BaseCommit, in.TestPatch, p.ModelPatch)
		if err != nil {
			return h.retrievalMetrics(ctx, in, p.ModelPatch, "", true), "cannot check whether the patch applies: " + err.Error()
		}
		if ok {
			return h.retrievalMetrics(ctx, in, p.ModelPatch, "", false), ""
		}
	}
	if h.Runtime == nil {
		if files {
			return h.retrievalMetrics(ctx, in, "", "", true), "no work tree can be made to write the prediction's files over the base commit, so the change they make is unknown: counted as not applied"
		}
		return h.retrievalMetrics(ctx, in, p.ModelPatch, "", true), "git apply does not apply the patch and no work tree can be made to try the rest of the apply cascade: counted as not applied"
	}
	ar, patch, applied, err := h.applyOnly(ctx, in, p)
	switch {
	case errors.Is(err, ErrPatchRejected):
		return h.retrievalMetrics(ctx, in, patch, "", true), ""
	case err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err().Error()
		}
		what := "the apply cascade"
		if files {
			what = "writing the prediction's files in a work tree"
		}
		return h.retrievalMetrics(ctx, in, patch, "", true), what + " could not run (" + err.Error() + "): counted as not applied"
	}
	return h.retrievalMetrics(ctx, in, patch, applied, !ar.Applied), ""
}

// applyOnly applies prediction p of in as Evaluate does (a work tree at
// the base commit with the test patch applied, then for a patch the path
// check and the apply cascade, for a files prediction its files written
// and diffed: filesChange) and runs nothing else. patch is the prediction
// as applied (p.ModelPatch; for files the diff they make, "" when they
// were refused); applied is the diff a fuzz-applied patch made
// (appliedDiff). The sandbox is removed before it returns.
func (h *Harness) applyOnly(ctx context.Context, in dataset.Instance, p dataset.Prediction) (ar runrecord.ApplyResult, patch, applied string, err error) {
	files := len(p.Files) > 0
	if !files {
		patch = p.ModelPatch
	}
	scratch, err := os.MkdirTemp(h.ScratchDir, "apply-")
	if err != nil {
		return ar, patch, "", err
	}
	defer os.RemoveAll(scratch)
	st := &started{}
	wt, remove, err := h.start(ctx, in, scratch, st)
	if err != nil {
		return ar, patch, "", err
	}
	defer func() { _ = remove() }()
	defer wt.endSession()
	copies := map[string]string{}
	if strings.TrimSpace(in.TestPatch) != "" && !usesEvalScript(in) {
		if f, err := diff.Parse(in.TestPatch); err == nil {
			st.testParsed = f
		}
		st.testFiles = patchFiles("test.patch", in.TestPatch, st.testParsed, copies)
	}
	if !files {
		if f, err := diff.Parse(p.ModelPatch); err == nil {
			st.modelParsed = f
		}
		st.modelFiles = patchFiles("model.patch", p.ModelPatch, st.modelParsed, copies)
	}
	at, err := wt.copyPatches(ctx, copies)
	if err != nil {
		return ar, patch, "", err
	}
	st.wt, st.testFiles, st.modelFiles = wt, st.testFiles.at(at), st.modelFiles.at(at)
	st.modelPaths = predictionPaths(p)
	if err := prepareTree(ctx, in, st); err != nil {
		return ar, patch, "", err
	}
	if files {
		// As Evaluate: the files are written over base + test patch and
		// the prediction is the change they make.
		d, err := filesChange(ctx, wt, p.Files, st.modelLstat, st.snap)
		if err != nil {
			return ar, "", "", err
		}
		return filesApplied(), d, "", nil
	}
	if _, err := checkPatchPaths(st.modelLstat, p.ModelPatch); err != nil {
		return ar, patch, "", err
	}
	if ar, err = applyCascade(ctx, wt, st.modelFiles, st.modelParsed, st.snap); err != nil || !ar.Applied {
		return ar, patch, "", err
	}
	if ar.Method == fuzzMethod {
		applied, err = appliedDiff(ctx, wt, st.snap)
	}
	return ar, patch, applied, err
}
