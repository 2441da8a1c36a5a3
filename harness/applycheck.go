package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// PatchApplies reports whether patch applies with `git apply` to the
// repository clone repoDir at base, after the instance's test patch (as
// Evaluate applies them), without a work tree: both go through a private
// index (GIT_INDEX_FILE) read from base, so the clone is not touched. It
// is what a metrics-only run uses to score an unapplied patch 0, as an
// evaluated one is (SWE-PolyBench). Unlike Evaluate's cascade it does not
// try `--reject` or GNU patch's fuzz, so a patch only those apply counts
// as unapplied here. A blank patch applies.
func PatchApplies(ctx context.Context, repoDir, base, testPatch, patch string) (bool, error) {
	if strings.TrimSpace(patch) == "" {
		return true, nil
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
