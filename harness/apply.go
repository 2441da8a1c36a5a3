package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/internal/safepath"
)

// ErrPatchRejected is returned (wrapped) for a patch that would write
// outside the workspace: a path with "..", an absolute path, a path inside
// .git, a path through a symbolic link in the workspace or one the patch
// creates, or a symbolic link it creates that points outside. The checks
// are those of safepath, the project's one path checker.
var ErrPatchRejected = errors.New("patch writes outside the workspace")

// The apply cascade, in order, with the work tree reset between attempts.
// Source: polynfi evaluation spec §2.2; SWE-PolyBench docker_utils.py
// apply_patch_to_container; SWE-bench harness/run_evaluation.py
// GIT_APPLY_CMDS.
//
// Deliberately unlike the published harnesses: SWE-PolyBench tries
// "git apply -v --ignore-whitespace --reject" and then "patch --batch
// --fuzz=5 -p1 -f" on the tree the failed attempt left (a partially applied
// patch and its .rej files), so a patch whose context differs from the
// tree only in whitespace applies there with git and may need fuzz here.
// SWE-bench (release 5.0.2) resets between attempts as polynfi does, but
// also tries "git apply --verbose --3way" (a three-way merge through the
// blobs named in the patch's index lines) before --reject, and finally
// accepts a patch that "git apply --check --reverse" finds already
// applied; polynfi keeps the spec's three attempts, so a patch that only a
// three-way merge applies is patch_failed here.
//
// Every method reads the patch from standard input and writes only what the
// path check has understood: git apply checks every path itself (no "..",
// no .git, nothing beyond a symbolic link, its own or the patch's) and is
// given only patches whose paths polynfi checked as well; GNU patch, which
// reads many more diff forms (context, normal and ed diffs, Index: lines)
// and names, is never given the patch as written but its canonical unified
// rendering (diff.Canonical) of what the strict parser read, and is refused
// for a patch the strict parser cannot read. After an attempt that
// succeeds, every path it changed is checked again (safepath) and the
// attempt is undone when one fails.
var applyMethods = []struct {
	name string
	argv []string
	git  bool
}{
	{"git apply --verbose", []string{"apply", "--verbose", "-"}, true},
	{"git apply --verbose --reject", []string{"apply", "--verbose", "--reject", "-"}, true},
	{"patch --batch --fuzz=5 -p1 --forward", []string{"patch", "--batch", "--fuzz=5", "-p1", "--forward", "--no-backup-if-mismatch"}, false},
}

// ApplyAttempt is one try of the cascade.
type ApplyAttempt struct {
	Method string `json:"method"`
	OK     bool   `json:"ok"`
	Output string `json:"output,omitempty"` // combined output, truncated to 4 KiB
}

// ApplyResult says whether a patch applied and how.
type ApplyResult struct {
	Applied  bool           `json:"applied"`
	Method   string         `json:"method,omitempty"` // the attempt that applied it
	Attempts []ApplyAttempt `json:"attempts"`
}

// checkPatchPaths rejects a patch whose files would land outside the
// workspace ws (diff.CheckPatch); parsed is nil when the strict parser
// cannot read the patch.
func checkPatchPaths(ws, patch string) (parsed []diff.File, err error) {
	files, err := diff.CheckPatch(ws, patch)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatchRejected, err)
	}
	return files, nil
}

// checkWorkspacePath rejects p unless it is a clean relative path whose
// existing components in ws are not symbolic links (safepath.Under).
func checkWorkspacePath(ws, p string, lastMayBeLink bool) error {
	if err := safepath.Under(ws, p, lastMayBeLink); err != nil {
		return fmt.Errorf("%w: %v", ErrPatchRejected, err)
	}
	return nil
}

// changedPaths lists the paths of ws that differ from commit c: modified,
// deleted, added and untracked (ignored ones included).
func changedPaths(ctx context.Context, ws, c string) ([]string, error) {
	out, err := gitCmd(ctx, ws, "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", c, "--")
	if err != nil {
		return nil, err
	}
	other, err := gitCmd(ctx, ws, "ls-files", "-z", "--others")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, b := range [][]byte{out, other} {
		for _, p := range strings.Split(string(b), "\x00") {
			if p != "" {
				paths = append(paths, p)
			}
		}
	}
	return paths, nil
}

// verifyWritten checks every path an apply attempt changed in ws against
// commit c: inside ws, not in .git, through no link, and any link it left
// points inside ws.
func verifyWritten(ctx context.Context, ws, c string) error {
	paths, err := changedPaths(ctx, ws, c)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if err := checkWorkspacePath(ws, p, true); err != nil {
			return err
		}
		full := filepath.Join(ws, filepath.FromSlash(p))
		if fi, err := os.Lstat(full); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			t, err := os.Readlink(full)
			if err != nil {
				return err
			}
			if err := safepath.LinkTarget(p, t); err != nil {
				return fmt.Errorf("%w: %v", ErrPatchRejected, err)
			}
		}
	}
	return nil
}

// snapshot records the current state of the work tree ws as a commit (not
// on any branch) so that reset can return to it.
func snapshot(ctx context.Context, ws string) (string, error) {
	if _, err := gitCmd(ctx, ws, "add", "--all", "--force", "."); err != nil {
		return "", err
	}
	tree, err := gitCmd(ctx, ws, "write-tree")
	if err != nil {
		return "", err
	}
	c, err := gitCmd(ctx, ws, "commit-tree", strings.TrimSpace(string(tree)), "-p", "HEAD", "-m", "polynfi snapshot")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(c)), nil
}

// reset returns the work tree ws to commit c exactly: tracked files
// restored, everything untracked (including ignored files, .rej files)
// removed.
func reset(ctx context.Context, ws, c string) error {
	if _, err := gitCmd(ctx, ws, "reset", "--quiet", "--hard", c); err != nil {
		return err
	}
	_, err := gitCmd(ctx, ws, "clean", "-fdxq")
	return err
}

// applyCascade applies patch to ws with each method in turn, resetting ws
// to snap between attempts, and stops at the first that succeeds. parsed is
// the strict parse of the patch (nil when it does not parse: then GNU patch
// is not tried). When none succeeds, ws is left reset to snap. An attempt
// that succeeds but leaves a path that fails the path check is undone and
// the error wraps ErrPatchRejected.
func applyCascade(ctx context.Context, ws, patch string, parsed []diff.File, snap string) (ApplyResult, error) {
	var res ApplyResult
	for i, m := range applyMethods {
		if i > 0 {
			if err := reset(ctx, ws, snap); err != nil {
				return res, fmt.Errorf("reset before %s: %w", m.name, err)
			}
		}
		input := patch
		if !m.git {
			canon, ok, why := "", false, "the patch does not parse strictly, so polynfi cannot check what patch would write"
			if parsed != nil {
				canon, ok, why = diff.Canonical(parsed)
			}
			if !ok {
				res.Attempts = append(res.Attempts, ApplyAttempt{Method: m.name, Output: "not tried: " + why})
				continue
			}
			input = canon
		}
		actx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		var out []byte
		var err error
		if m.git {
			out, err = gitexec.Combined(actx, ws, strings.NewReader(input), m.argv...)
		} else {
			cmd := exec.CommandContext(actx, m.argv[0], m.argv[1:]...)
			cmd.Dir = ws
			cmd.Env = gitexec.Env(ws)
			cmd.Stdin = strings.NewReader(input)
			cmd.WaitDelay = 5 * time.Second
			out, err = cmd.CombinedOutput()
		}
		cancel()
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if len(out) > 4096 {
			out = append(out[:4096:4096], "\n[truncated]"...)
		}
		ok := err == nil
		res.Attempts = append(res.Attempts, ApplyAttempt{Method: m.name, OK: ok, Output: string(out)})
		if ok {
			if verr := verifyWritten(ctx, ws, snap); verr != nil {
				if rerr := reset(ctx, ws, snap); rerr != nil {
					return res, fmt.Errorf("reset after rejected apply: %w", rerr)
				}
				return res, verr
			}
			res.Applied, res.Method = true, m.name
			return res, nil
		}
	}
	if err := reset(ctx, ws, snap); err != nil {
		return res, fmt.Errorf("reset after failed apply: %w", err)
	}
	return res, nil
}

// writeFiles writes full file contents (a prediction's Files) into ws after
// checking every path (safepath.WriteFile: no link followed).
func writeFiles(ws string, files map[string]string) error {
	for p := range files {
		if err := checkWorkspacePath(ws, p, false); err != nil {
			return err
		}
	}
	for p, content := range files {
		if err := safepath.WriteFile(ws, p, []byte(content), 0o644); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
	}
	return nil
}
