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
	"github.com/polynfi/polynfi/runrecord"
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
// apply_patch_to_container; SWE-bench 5.0.2 harness/run_evaluation.py
// GIT_APPLY_CMDS (the order of the four commands).
//
// Deliberately unlike the published harnesses: SWE-PolyBench tries
// "git apply -v --ignore-whitespace --reject" and then "patch --batch
// --fuzz=5 -p1 -f" on the tree the failed attempt left (a partially applied
// patch and its .rej files), so a patch whose context differs from the
// tree only in whitespace applies there with git and may need fuzz here.
// SWE-bench (release 5.0.2) resets between attempts as polynfi does and
// tries the same four commands in the same order, "git apply --verbose
// --3way" (a three-way merge through the blobs named in the patch's index
// lines) among them; it finally accepts a patch that "git apply --check
// --reverse" finds already applied, which polynfi does not (a patch whose
// every attempt failed is patch_failed here).
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
	{"git apply --verbose --3way", []string{"apply", "--verbose", "--3way"}, true},
	{"git apply --verbose --reject", []string{"apply", "--verbose", "--reject"}, true},
	{"patch --batch --fuzz=5 -p1 --forward", []string{"patch", "--batch", "--fuzz=5", "-p1", "--forward", "--no-backup-if-mismatch", "-i"}, false},
}

// fuzzMethod is the cascade's last attempt, GNU patch with fuzz: a patch
// it applies changed the tree where its hunks' context did not match as
// written (appliedDiff).
var fuzzMethod = applyMethods[len(applyMethods)-1].name

// appliedDiff is the change the apply cascade made to the work tree, as a
// git diff against snap (base + test patch): every file, new ones
// included, without renames. It is what retrieval locates a fuzz-applied
// patch's nodes from. The index is left holding the tree (guardTests
// resets it).
func appliedDiff(ctx context.Context, t *tree, snap string) (string, error) {
	d, err := t.script(ctx, `g add --all . && g diff --cached --no-color --no-ext-diff --no-renames --binary "$1"`, snap)
	return string(d), err
}

// checkPatchPaths rejects a patch whose files would land outside the work
// tree (diff.CheckPatchFS over lstat, the tree as the sandbox sees it:
// tree.base or snapshot looked the patch's paths up); parsed is nil when
// the strict parser cannot read the patch.
func checkPatchPaths(lstat safepath.Lstat, patch string) (parsed []diff.File, err error) {
	files, err := diff.CheckPatchFS(lstat, patch)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatchRejected, err)
	}
	return files, nil
}

// verifyWritten checks every path an apply attempt changed in the work
// tree against commit c (modified, deleted, added and untracked, ignored
// ones included; an untracked directory counts as one path): inside the
// tree, not in .git, through no link, and any link it left points inside
// the tree. One command lists the paths, the types of their prefixes and
// the links' targets.
func verifyWritten(ctx context.Context, t *tree, c string) error {
	out, err := t.script(ctx, lstatFunc+`{ g diff --name-only -z --no-renames --no-ext-diff --no-textconv "$1" -- && g ls-files -z --others --directory; } > "$(g rev-parse --git-dir)/polynfi-changed" || exit 1
while IFS= read -r -d '' p; do
  p=${p%/}; q=""; rest=$p
  while :; do
    c=${rest%%/*}; q=${q:+$q/}$c
    printf '%s\0%s\0' "$q" "$(lst "$q")"
    if [ -L "$q" ]; then printf '%s\0' "$(readlink -- "$q")"; else printf '\0'; fi
    [ "$rest" = "$c" ] && break
    rest=${rest#*/}
  done
  printf '\0\0\0'
done < "$(g rev-parse --git-dir)/polynfi-changed"`, c)
	if err != nil {
		return err
	}
	// Records: prefix, type, link target; an empty record ends a path.
	fields := strings.Split(string(out), "\x00")
	m := map[string]os.FileMode{}
	targets := map[string]string{}
	var paths []string
	cur := ""
	for i := 0; i+2 < len(fields); i += 3 {
		q, typ, target := fields[i], fields[i+1], fields[i+2]
		if q == "" && typ == "" {
			if cur != "" {
				paths = append(paths, cur)
			}
			cur = ""
			continue
		}
		cur = q
		switch typ {
		case "l":
			m[q] = os.ModeSymlink
			targets[q] = target
		case "d":
			m[q] = os.ModeDir
		case "f":
			m[q] = 0
		}
	}
	lstat := func(p string) (os.FileMode, bool) {
		mode, ok := m[p]
		return mode, ok
	}
	for _, p := range paths {
		if err := safepath.UnderFS(lstat, p, true); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
		if mode, ok := lstat(p); ok && mode&os.ModeSymlink != 0 {
			if err := safepath.LinkTarget(p, targets[p]); err != nil {
				return fmt.Errorf("%w: %v", ErrPatchRejected, err)
			}
		}
	}
	return nil
}

// snapshot records the current state of the work tree as a commit (not on
// any branch) so that reset can return to it, and looks up the prefixes of
// paths in the tree (one command). Ignored files are left out (an image's
// node_modules or build output in the work tree stays as it is and out of
// the index).
func snapshot(ctx context.Context, t *tree, paths []string) (string, safepath.Lstat, error) {
	pre := lookups(paths)
	out, err := t.script(ctx, lstatFunc+`g add --all . && tree=$(g write-tree) && g commit-tree "$tree" -p HEAD -m "polynfi snapshot" && lst "$@"`, pre...)
	if err != nil {
		return "", nil, err
	}
	sha, answer, _ := strings.Cut(string(out), "\n")
	lstat, err := modes(pre, []byte(answer))
	return strings.TrimSpace(sha), lstat, err
}

// reset returns the work tree to commit c: tracked files restored,
// untracked files (.rej files, new files of a failed attempt) removed;
// ignored files are kept.
func reset(ctx context.Context, t *tree, c string) error {
	_, err := t.script(ctx, `g reset --quiet --hard "$1" && g clean -fdq`, c)
	return err
}

// cascadeFiles are a patch's files in the sandbox: as written (for git
// apply) and its canonical rendering (for GNU patch; "" when there is none,
// why says why).
type cascadeFiles struct {
	raw, canonical, why string
}

// patchFiles names the files of patch name in a copy (see copyPatches):
// name itself and, when parsed renders canonically, "canonical-"+name.
func patchFiles(name, patch string, parsed []diff.File, copy map[string]string) cascadeFiles {
	copy[name] = patch
	f := cascadeFiles{raw: name}
	if parsed == nil {
		return f
	}
	text, ok, why := diff.Canonical(parsed)
	if !ok {
		f.why = why
		return f
	}
	copy["canonical-"+name] = text
	f.canonical = "canonical-" + name
	return f
}

// at maps f's names to their paths in the sandbox.
func (f cascadeFiles) at(paths map[string]string) cascadeFiles {
	f.raw = paths[f.raw]
	if f.canonical != "" {
		f.canonical = paths[f.canonical]
	}
	return f
}

// applyCascade applies a patch (files, copied into the sandbox) to the work
// tree with each method in turn, resetting it to snap between attempts,
// and stops at the first that succeeds. parsed is the strict parse of the
// patch (nil when it does not parse: then GNU patch is not tried; it is
// given the canonical rendering of parsed, never the patch as written). When none succeeds,
// the tree is left reset to snap. An attempt that succeeds but leaves a
// path that fails the path check is undone and the error wraps
// ErrPatchRejected; any other error is an infrastructure or harness
// failure (the sandbox went away, ctx was cancelled), not a patch that
// does not apply.
func applyCascade(ctx context.Context, t *tree, files cascadeFiles, parsed []diff.File, snap string) (runrecord.ApplyResult, error) {
	var res runrecord.ApplyResult
	for i, m := range applyMethods {
		if i > 0 {
			if err := reset(ctx, t, snap); err != nil {
				return res, fmt.Errorf("reset before %s: %w", m.name, err)
			}
		}
		var argv []string
		if m.git {
			argv = append(append(append([]string{"git"}, gitexec.Overrides()...), m.argv...), files.raw)
		} else {
			if files.canonical == "" {
				why := "the patch does not parse strictly, so polynfi cannot check what patch would write"
				if files.why != "" {
					why = files.why
				}
				res.Attempts = append(res.Attempts, runrecord.ApplyAttempt{Method: m.name, Output: "not tried: " + why})
				continue
			}
			argv = append(append([]string(nil), m.argv...), files.canonical)
		}
		r, err := t.exec(ctx, argv)
		if err != nil {
			return res, fmt.Errorf("%s: %w", m.name, err)
		}
		out := append(append([]byte(nil), r.Stdout...), r.Stderr...)
		if len(out) > 4096 {
			out = append(out[:4096:4096], "\n[truncated]"...)
		}
		ok := r.ExitCode == 0 && !r.TimedOut
		res.Attempts = append(res.Attempts, runrecord.ApplyAttempt{Method: m.name, OK: ok, Output: string(out)})
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

// filesChange writes a files prediction's contents into the work tree
// over snap (base + test patch; writeFiles checks every path first) and
// returns the change they make: the git diff of the whole tree against
// snap, new files included. A full run and --metrics-only
// (PredictionMetrics) both take a files prediction's patch from here: it
// is the patch the record stores and that retrieval scores. A path
// writeFiles refuses is an error wrapping ErrPatchRejected.
func filesChange(ctx context.Context, t *tree, files map[string]string, lstat safepath.Lstat, snap string) (string, error) {
	if err := writeFiles(ctx, t, files, lstat); err != nil {
		return "", err
	}
	d, err := t.script(ctx, `g add --all . && g diff --cached --no-color --no-ext-diff --binary "$1"`, snap)
	return string(d), err
}

// filesApplied is how a files prediction whose files were written applied.
func filesApplied() runrecord.ApplyResult {
	return runrecord.ApplyResult{Applied: true, Method: "files", Attempts: []runrecord.ApplyAttempt{{Method: "files", OK: true}}}
}

// writeFiles writes full file contents (a prediction's Files) into the
// work tree after checking every path (safepath.UnderFS over lstat, the
// tree as the sandbox sees it).
func writeFiles(ctx context.Context, t *tree, files map[string]string, lstat safepath.Lstat) error {
	var paths []string
	for p := range files {
		if err := safepath.Check(p); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var fs []runtime.File
	for _, p := range paths {
		if err := safepath.UnderFS(lstat, p, false); err != nil {
			return fmt.Errorf("%w: %v", ErrPatchRejected, err)
		}
		fs = append(fs, runtime.File{Path: p, Mode: 0o644, Data: []byte(files[p])})
	}
	return t.sb.CopyIn(ctx, "", fs)
}
