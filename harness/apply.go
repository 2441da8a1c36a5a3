package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

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

// writtenScript prints, for every path an apply attempt changed in the
// work tree against commit $1 (modified, deleted, added and untracked,
// ignored ones included; an untracked directory counts as one path), the
// types of its prefixes and the links' targets (the records
// checkWritten reads). It needs lst (lstatFunc) and g.
const writtenScript = `{ g diff --name-only -z --no-renames --no-ext-diff --no-textconv "$1" -- && g ls-files -z --others --directory; } > "$(g rev-parse --git-dir)/polynfi-changed" || exit 1
while IFS= read -r -d '' p; do
  p=${p%/}; q=""; rest=$p
  while :; do
    c=${rest%%/*}; q=${q:+$q/}$c
    printf '%s\0' "$q"; lst "$q"; printf '\0'
    if [ -L "$q" ]; then printf '%s\0' "$(readlink -- "$q")"; else printf '\0'; fi
    [ "$rest" = "$c" ] && break
    rest=${rest#*/}
  done
  printf '\0\0\0'
done < "$(g rev-parse --git-dir)/polynfi-changed"`

// verifyWritten checks every path an apply attempt changed in the work
// tree against commit c (writtenScript, one command; checkWritten).
func verifyWritten(ctx context.Context, t *tree, c string) error {
	out, err := t.script(ctx, lstatFunc+writtenScript, c)
	if err != nil {
		return err
	}
	return checkWritten(out)
}

// checkWritten checks writtenScript's answer: every changed path inside
// the tree, not in .git, through no link, and any link it left points
// inside the tree; the error wraps ErrPatchRejected.
func checkWritten(out []byte) error {
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
	out, err := t.script(ctx, lstatFunc+snapshotScript, pre...)
	if err != nil {
		return "", nil, err
	}
	return snapshotAnswer(pre, out)
}

// snapshotScript is snapshot's command, the prefixes to look up as its
// arguments; it needs lst (lstatFunc) and g.
const snapshotScript = `g add --all . && tree=$(g write-tree) && g commit-tree "$tree" -p HEAD -m "polynfi snapshot" && lst "$@"`

// snapshotAnswer reads snapshotScript's answer for the prefixes pre: the
// commit and the types of pre.
func snapshotAnswer(pre []string, out []byte) (string, safepath.Lstat, error) {
	sha, answer, _ := strings.Cut(string(out), "\n")
	lstat, err := modes(pre, []byte(answer))
	return strings.TrimSpace(sha), lstat, err
}

// reset returns the work tree to commit c: tracked files restored,
// untracked files (.rej files, new files of a failed attempt) removed;
// ignored files are kept.
func reset(ctx context.Context, t *tree, c string) error {
	_, err := t.script(ctx, resetScriptFirst, c)
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
//
// Where each of the harness's commands is an exec of its own (no session:
// the kubernetes runtime), the cascade's steps (each attempt, the resets
// between them and after the last, the listing of the paths a successful
// attempt changed) run in one command, cascadeScript, which reports each
// step; in a session they run one command each. The path check and the
// undoing of a rejected attempt are done here. When that command
// ends before its last step (killed at its timeout, an attempt killed by
// a signal, an answer that does not frame), the steps it did not report
// are run one command each, as they were before, an attempt after a
// reset of whatever an interrupted step left.
func applyCascade(ctx context.Context, t *tree, files cascadeFiles, parsed []diff.File, snap string) (runrecord.ApplyResult, error) {
	res, _, err := applyCascadeAhead(ctx, t, files, snap, nil)
	return res, err
}

// applyCascadeAhead is applyCascade that, when ahead is not nil and the
// cascade runs as one command (no session), also takes the snapshot of
// the tree the patch was applied to in that command, looking up the prefixes ahead (lookups): its answer
// (snapshotScript's) is returned when the attempt that applied was
// accepted; nil when it was not taken (the caller takes it).
func applyCascadeAhead(ctx context.Context, t *tree, files cascadeFiles, snap string, ahead []string) (runrecord.ApplyResult, []byte, error) {
	steps := cascadeSteps(files)
	if err := t.ensureSession(ctx); err != nil {
		return runrecord.ApplyResult{}, nil, fmt.Errorf("apply cascade: %w", err)
	}
	if t.sess != nil {
		// Each step is a fork of the session's shell: one command per
		// step costs less than the script's framing of every step
		// (BenchmarkDockerApplyCascade), so the script serves the
		// runtimes where each command is an exec of its own.
		res, _, err := cascadeFrom(ctx, t, steps, nil, false, snap)
		return res, nil, err
	}
	return cascadeByScript(ctx, t, steps, snap, ahead)
}

// cascadeByScript is applyCascadeAhead's cascade in one command
// (cascadeScript), the steps it did not report run one command each.
func cascadeByScript(ctx context.Context, t *tree, steps []cascadeStep, snap string, ahead []string) (runrecord.ApplyResult, []byte, error) {
	recs, cut, err := runCascadeScript(ctx, t, steps, snap, ahead)
	if err != nil {
		return runrecord.ApplyResult{}, nil, err
	}
	res, rec, err := cascadeFrom(ctx, t, steps, recs, cut, snap)
	if err != nil || rec == nil || rec.snapshot == nil || rec.snapshot.code != 0 {
		return res, nil, err
	}
	return res, rec.snapshot.out, nil
}

// cascadeFrom carries out the cascade's steps: those recs reports (see
// cascadeScript) as reported, the rest one command each, an attempt
// after a reset of the tree when dirty (the script may have been cut in
// the middle of a step). With no records it is the cascade run step by
// step. applied is the record of the attempt that applied when the script
// reported it with its listing.
func cascadeFrom(ctx context.Context, t *tree, steps []cascadeStep, recs []cascadeRecord, dirty bool, snap string) (res runrecord.ApplyResult, applied *cascadeRecord, err error) {
	for i, st := range steps {
		var rec *cascadeRecord
		if i < len(recs) {
			rec = &recs[i]
			if !st.matches(rec.tag) {
				// Not the step the script was given: none of its
				// records from here on is taken.
				recs, rec, dirty = recs[:i], nil, true
			}
		}
		if st.notTried != "" {
			res.Attempts = append(res.Attempts, runrecord.ApplyAttempt{Method: applyMethods[st.method].name, Output: "not tried: " + st.notTried})
			continue
		}
		if st.reset {
			if rec != nil && rec.tag == 'r' {
				dirty = false
				continue
			}
			var rerr error
			if rec != nil && rec.tag == 'R' {
				rerr = fmt.Errorf("%s: exit %d: %s", resetScriptFirst, rec.code, strings.TrimSpace(string(rec.err)))
			} else {
				rerr = reset(ctx, t, snap)
			}
			dirty = false
			if rerr != nil {
				if st.method == len(applyMethods) {
					return res, nil, fmt.Errorf("reset after failed apply: %w", rerr)
				}
				return res, nil, fmt.Errorf("reset before %s: %w", applyMethods[st.method].name, rerr)
			}
			continue
		}
		m := applyMethods[st.method]
		var out []byte
		ok, listed := false, false
		var written cascadeRecord
		if rec != nil && rec.tag == 'A' {
			out = append(append([]byte(nil), rec.out...), rec.err...)
			ok = rec.code == 0
			if ok && rec.written != nil {
				written, listed = *rec.written, true
			}
		} else {
			if dirty {
				if err := reset(ctx, t, snap); err != nil {
					return res, nil, fmt.Errorf("reset before %s: %w", m.name, err)
				}
				dirty = false
			}
			r, err := t.exec(ctx, st.argv)
			if err != nil {
				return res, nil, fmt.Errorf("%s: %w", m.name, err)
			}
			out = append(append([]byte(nil), r.Stdout...), r.Stderr...)
			ok = r.ExitCode == 0 && !r.TimedOut
		}
		if len(out) > 4096 {
			out = append(out[:4096:4096], "\n[truncated]"...)
		}
		res.Attempts = append(res.Attempts, runrecord.ApplyAttempt{Method: m.name, OK: ok, Output: string(out)})
		if !ok {
			continue
		}
		var verr error
		switch {
		case listed && written.code == 0:
			verr = checkWritten(written.out)
		case listed:
			verr = fmt.Errorf("list the paths the apply changed: exit %d: %s", written.code, strings.TrimSpace(string(written.err)))
		default:
			verr = verifyWritten(ctx, t, snap)
		}
		if verr != nil {
			if rerr := reset(ctx, t, snap); rerr != nil {
				return res, nil, fmt.Errorf("reset after rejected apply: %w", rerr)
			}
			return res, nil, verr
		}
		res.Applied, res.Method = true, m.name
		if listed {
			applied = rec
		}
		return res, applied, nil
	}
	return res, nil, nil
}

// cascadeStep is one step of the apply cascade: a reset of the tree before
// method (after the last one when method is len(applyMethods)), or an
// attempt of method with argv, or a method not tried (why).
type cascadeStep struct {
	method   int
	reset    bool
	argv     []string
	notTried string
}

// matches reports whether tag is the tag of a record of step st.
func (st cascadeStep) matches(tag byte) bool {
	switch {
	case st.reset:
		return tag == 'r' || tag == 'R'
	case st.notTried != "":
		return tag == 'n'
	}
	return tag == 'A'
}

// cascadeSteps lists the cascade's steps for files, in order.
func cascadeSteps(files cascadeFiles) []cascadeStep {
	var steps []cascadeStep
	for i, m := range applyMethods {
		if i > 0 {
			steps = append(steps, cascadeStep{method: i, reset: true})
		}
		switch {
		case m.git:
			steps = append(steps, cascadeStep{method: i, argv: append(append(append([]string{"git"}, gitexec.Overrides()...), m.argv...), files.raw)})
		case files.canonical == "":
			why := "the patch does not parse strictly, so polynfi cannot check what patch would write"
			if files.why != "" {
				why = files.why
			}
			steps = append(steps, cascadeStep{method: i, notTried: why})
		default:
			steps = append(steps, cascadeStep{method: i, argv: append(append([]string(nil), m.argv...), files.canonical)})
		}
	}
	return append(steps, cascadeStep{method: len(applyMethods), reset: true})
}

// resetScriptFirst is the first line of reset's script, which names it in
// its errors.
const resetScriptFirst = `g reset --quiet --hard "$1" && g clean -fdq`

// cascadeScript runs the apply cascade's steps, given after $1 (the commit
// resets go to) as words: "R" a reset (resetScriptFirst), "T n w1 .. wn"
// an attempt running w1..wn, "N" a method not tried (nothing runs). It
// prints one record per step on standard output, each field ended by NUL,
// a blob as its length then its bytes:
//
//	r                               a reset done
//	R status stderr                 a reset that failed: the script stops
//	A status stdout stderr          an attempt
//	n                               a method not tried
//
// After an attempt that exits 0, the paths it changed are listed
// (writtenScript) as "W status stdout stderr", then, when $2 is a count
// k (not "-") and the listing succeeded, the tree's snapshot is taken
// (snapshotScript, the k words after $2 its arguments) as "S status
// stdout stderr", and the script stops. The steps follow $2 (and its k
// words). An
// attempt killed by a signal (status above 128) ends the script with its
// status, as such a command ends the session (the runtime checks the
// sandbox). The streams are kept in the work tree's git directory.
const cascadeScript = `s=$1 k=$2; shift 2
sp=(); if [ "$k" != - ]; then sp=("${@:1:k}"); shift "$k"; fi
gd=$(g rev-parse --git-dir) || exit 1
o=$gd/polynfi-out e=$gd/polynfi-err
blob() { local n=0; if [ -s "$1" ]; then n=$(wc -c < "$1") && n=$((n)) || return 1; fi; printf '%d\0' "$n"; [ "$n" = 0 ] || head -c "$n" -- "$1"; }
written() {
` + writtenScript + `
}
snapshot() { ` + snapshotScript + `; }
while [ $# -gt 0 ]; do
  case $1 in
  R) shift
    { g reset --quiet --hard "$s" && g clean -fdq; } >/dev/null 2>"$e"; rc=$?
    if [ "$rc" -ne 0 ]; then printf 'R\0%d\0' "$rc"; blob "$e"; exit 0; fi
    printf 'r\0' ;;
  N) shift; printf 'n\0' ;;
  T) n=$2; shift 2
    ( exec "${@:1:n}" ) >"$o" 2>"$e" </dev/null; rc=$?
    shift "$n"
    printf 'A\0%d\0' "$rc"; blob "$o"; blob "$e"
    if [ "$rc" -gt 128 ]; then exit "$rc"; fi
    if [ "$rc" -eq 0 ]; then
      ( written "$s" ) >"$o" 2>"$e"; rc=$?
      printf 'W\0%d\0' "$rc"; blob "$o"; blob "$e"
      if [ "$k" != - ] && [ "$rc" -eq 0 ]; then
        ( snapshot "${sp[@]}" ) >"$o" 2>"$e"; rc=$?
        printf 'S\0%d\0' "$rc"; blob "$o"; blob "$e"
      fi
      exit 0
    fi ;;
  *) exit 2 ;;
  esac
done`

// cascadeRecord is one step's record of cascadeScript: its tag, status and
// streams, and for an attempt that succeeded the listing of the paths it
// changed (W; nil when missing) and the snapshot taken after it (S; nil
// when none).
type cascadeRecord struct {
	tag      byte
	code     int
	out, err []byte
	written  *cascadeRecord
	snapshot *cascadeRecord
}

// runCascadeScript runs cascadeScript for steps (one command, at most the
// per-command timeout for each step; ahead, when not nil, the prefixes
// the snapshot looks up, see applyCascadeAhead) and returns the records of the
// steps it reported, in order, one per step (an attempt's W inside its
// A): fewer than steps when it stopped early (a step failed, or the
// script ended before its end). cut says that the script may have ended
// in the middle of a step (killed at its timeout or by a signal): what
// that step did to the tree is unknown. The error is an InfraError or
// ctx's.
func runCascadeScript(ctx context.Context, t *tree, steps []cascadeStep, snap string, ahead []string) (recs []cascadeRecord, cut bool, err error) {
	args := []string{snap, "-"}
	if ahead != nil {
		args = append([]string{snap, strconv.Itoa(len(ahead))}, ahead...)
	}
	for _, st := range steps {
		switch {
		case st.reset:
			args = append(args, "R")
		case st.notTried != "":
			args = append(args, "N")
		default:
			args = append(append(args, "T", strconv.Itoa(len(st.argv))), st.argv...)
		}
	}
	argv := append([]string{"bash", "-c", gitFunc() + lstatFunc + cascadeScript, "polynfi"}, args...)
	r, err := t.execTimeout(ctx, argv, time.Duration(len(steps))*harnessTimeout)
	if err != nil {
		return nil, false, fmt.Errorf("apply cascade: %w", err)
	}
	if r.TimedOut {
		return nil, true, nil
	}
	recs = parseCascade(r.Stdout, len(steps))
	for _, n := range r.Notes {
		if strings.HasPrefix(n, "output truncated") {
			// Only the last record, the listing of the paths an attempt
			// changed, can be long enough to be cut: it is read again.
			for i := range recs {
				recs[i].written, recs[i].snapshot = nil, nil
			}
		}
	}
	if r.ExitCode > 128 {
		// Killed by a signal: by an attempt's (which it reported), or the
		// script itself, in the middle of a step.
		last := len(recs) - 1
		cut = last < 0 || recs[last].tag != 'A' || recs[last].code != r.ExitCode
	}
	return recs, cut, nil
}

// parseCascade reads cascadeScript's records, at most n, up to the first
// that does not frame.
func parseCascade(b []byte, n int) []cascadeRecord {
	field := func() ([]byte, bool) {
		f, rest, ok := bytes.Cut(b, []byte{0})
		if ok {
			b = rest
		}
		return f, ok
	}
	num := func() (int, bool) {
		f, ok := field()
		if !ok {
			return 0, false
		}
		v, err := strconv.Atoi(string(f))
		return v, err == nil
	}
	blob := func() ([]byte, bool) {
		l, ok := num()
		if !ok || l < 0 || l > len(b) {
			return nil, false
		}
		d := b[:l:l]
		b = b[l:]
		return d, true
	}
	// status and two streams
	full := func(rec *cascadeRecord) bool {
		var ok1, ok2, ok3 bool
		rec.code, ok1 = num()
		rec.out, ok2 = blob()
		rec.err, ok3 = blob()
		return ok1 && ok2 && ok3
	}
	// the full record tagged t if one follows, else nil with b unread
	optional := func(t byte) *cascadeRecord {
		save := b
		if f, ok := field(); ok && len(f) == 1 && f[0] == t {
			r := cascadeRecord{tag: t}
			if full(&r) {
				return &r
			}
		}
		b = save
		return nil
	}
	var recs []cascadeRecord
	for len(recs) < n {
		tag, ok := field()
		if !ok || len(tag) != 1 {
			break
		}
		rec := cascadeRecord{tag: tag[0]}
		switch rec.tag {
		case 'r', 'n':
		case 'R':
			var ok1, ok2 bool
			rec.code, ok1 = num()
			rec.err, ok2 = blob()
			if !ok1 || !ok2 {
				return recs
			}
		case 'A':
			if !full(&rec) {
				return recs
			}
			if rec.code == 0 {
				if rec.written = optional('W'); rec.written != nil {
					rec.snapshot = optional('S')
				}
			}
		default:
			return recs
		}
		recs = append(recs, rec)
	}
	return recs
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
