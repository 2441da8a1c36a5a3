package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
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
// Every method reads the patch from a file the harness copied into the
// sandbox, outside the work tree, and writes only what the
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
	{"git apply --verbose", []string{"apply", "--verbose"}, true},
	{"git apply --verbose --reject", []string{"apply", "--verbose", "--reject"}, true},
	{"patch --batch --fuzz=5 -p1 --forward", []string{"patch", "--batch", "--fuzz=5", "-p1", "--forward", "--no-backup-if-mismatch", "-i"}, false},
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

// checkPatchPaths rejects a patch whose files would land outside the work
// tree (diff.CheckPatchFS over the tree as the sandbox sees it); parsed is
// nil when the strict parser cannot read the patch.
func checkPatchPaths(ctx context.Context, t *tree, patch string) (parsed []diff.File, err error) {
	lstat, err := t.lstat(ctx, diff.PatchPaths(patch))
	if err != nil {
		return nil, err
	}
	files, err := diff.CheckPatchFS(lstat, patch)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatchRejected, err)
	}
	return files, nil
}

// verifyWritten checks every path an apply attempt changed in the work
// tree against commit c (modified, deleted, added and untracked, ignored
// ones included): inside the tree, not in .git, through no link, and any
// link it left points inside the tree.
func verifyWritten(ctx context.Context, t *tree, c string) error {
	out, err := t.script(ctx, `g diff --name-only -z --no-renames --no-ext-diff --no-textconv "$1" -- && g ls-files -z --others`, c)
	if err != nil {
		return err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	lstat, err := t.lstat(ctx, paths)
	if err != nil {
		return err
	}
	var links []string
	for _, p := range paths {
		if err := safepath.UnderFS(lstat, p, true); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
		if m, ok := lstat(p); ok && m&os.ModeSymlink != 0 {
			links = append(links, p)
		}
	}
	if len(links) == 0 {
		return nil
	}
	targets, err := t.script(ctx, `for p in "$@"; do printf '%s\0' "$(readlink -- "$p")"; done`, links...)
	if err != nil {
		return err
	}
	tl := strings.Split(string(targets), "\x00")
	for i, p := range links {
		if i >= len(tl) {
			return fmt.Errorf("%w: cannot read symbolic link %s", ErrPatchRejected, p)
		}
		if err := safepath.LinkTarget(p, tl[i]); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
	}
	return nil
}

// snapshot records the current state of the work tree as a commit (not on
// any branch) so that reset can return to it. Ignored files are left out
// (an image's node_modules or build output in the work tree stays as it
// is and out of the index).
func snapshot(ctx context.Context, t *tree) (string, error) {
	out, err := t.script(ctx, `g add --all . && tree=$(g write-tree) && g commit-tree "$tree" -p HEAD -m "polynfi snapshot"`)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// reset returns the work tree to commit c: tracked files restored,
// untracked files (.rej files, new files of a failed attempt) removed;
// ignored files are kept.
func reset(ctx context.Context, t *tree, c string) error {
	_, err := t.script(ctx, `g reset --quiet --hard "$1" && g clean -fdq`, c)
	return err
}

// applyCascade applies patch to the work tree with each method in turn,
// resetting it to snap between attempts, and stops at the first that
// succeeds. name names the patch's file in the sandbox (test.patch,
// model.patch). parsed is the strict parse of the patch (nil when it does
// not parse: then GNU patch is not tried, and it is given the canonical
// rendering of parsed, never the patch as written). When none succeeds,
// the tree is left reset to snap. An attempt that succeeds but leaves a
// path that fails the path check is undone and the error wraps
// ErrPatchRejected; any other error is an infrastructure or harness
// failure (the sandbox went away, ctx was cancelled), not a patch that
// does not apply.
func applyCascade(ctx context.Context, t *tree, name, patch string, parsed []diff.File, snap string) (ApplyResult, error) {
	var res ApplyResult
	raw, canon := "", ""
	for i, m := range applyMethods {
		if i > 0 {
			if err := reset(ctx, t, snap); err != nil {
				return res, fmt.Errorf("reset before %s: %w", m.name, err)
			}
		}
		var argv []string
		if m.git {
			if raw == "" {
				f, err := t.copyPatch(ctx, name, patch)
				if err != nil {
					return res, err
				}
				raw = f
			}
			argv = append(append(append([]string{"git"}, gitexec.Overrides()...), m.argv...), raw)
		} else {
			text, ok, why := "", false, "the patch does not parse strictly, so polynfi cannot check what patch would write"
			if parsed != nil {
				text, ok, why = diff.Canonical(parsed)
			}
			if !ok {
				res.Attempts = append(res.Attempts, ApplyAttempt{Method: m.name, Output: "not tried: " + why})
				continue
			}
			if canon == "" {
				f, err := t.copyPatch(ctx, "canonical-"+name, text)
				if err != nil {
					return res, err
				}
				canon = f
			}
			argv = append(append([]string(nil), m.argv...), canon)
		}
		r, err := t.sb.Exec(ctx, harnessCommand(argv))
		if err != nil {
			return res, fmt.Errorf("%s: %w", m.name, err)
		}
		out := append(append([]byte(nil), r.Stdout...), r.Stderr...)
		if len(out) > 4096 {
			out = append(out[:4096:4096], "\n[truncated]"...)
		}
		ok := r.ExitCode == 0 && !r.TimedOut
		res.Attempts = append(res.Attempts, ApplyAttempt{Method: m.name, OK: ok, Output: string(out)})
		if ok {
			if verr := verifyWritten(ctx, t, snap); verr != nil {
				if rerr := reset(ctx, t, snap); rerr != nil {
					return res, fmt.Errorf("reset after rejected apply: %w", rerr)
				}
				return res, verr
			}
			res.Applied, res.Method = true, m.name
			return res, nil
		}
	}
	if err := reset(ctx, t, snap); err != nil {
		return res, fmt.Errorf("reset after failed apply: %w", err)
	}
	return res, nil
}

// writeFiles writes full file contents (a prediction's Files) into the
// work tree after checking every path (safepath.UnderFS over the tree as
// the sandbox sees it).
func writeFiles(ctx context.Context, t *tree, files map[string]string) error {
	var paths []string
	for p := range files {
		if err := safepath.Check(p); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	lstat, err := t.lstat(ctx, paths)
	if err != nil {
		return err
	}
	var fs []runtime.File
	for _, p := range paths {
		if err := safepath.UnderFS(lstat, p, false); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
		fs = append(fs, runtime.File{Path: p, Mode: 0o644, Data: []byte(files[p])})
	}
	return t.sb.CopyIn(ctx, "", fs)
}
