package driver

// Every git call of score and diff goes through the project's one git
// runner, internal/gitexec (runGit, and gitexec.Batch for cat-file); its
// diffs are read by the one diff parser, package diff.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/nfi"
)

// errNotGitRepo is returned when a git-aware mode runs outside a work tree.
var errNotGitRepo = errors.New("not inside a git work tree")

// runGit runs git in dir through the project's safe runner (gitexec:
// clean environment, no system or global configuration, every configured
// program neutralized, repository discovery stopped at dir's parent, so
// dir must be the work tree's top; see gitRoot).
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return gitexec.Output(ctx, dir, nil, args...)
}

// gitRoot returns the top directory of the work tree holding dir: the
// nearest directory upwards with a .git entry (a directory, or the file of
// a linked worktree). gitexec stops repository discovery at the directory
// it runs in, so the top is found here, without running git; gitexec
// refuses a repository whose configuration moves its work tree.
func gitRoot(ctx context.Context, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s: %w", dir, errNotGitRepo)
		}
	}
}

// gitMergeBase returns the best common ancestor of a and b (as `git diff
// a...b` and a pull request's "files changed" use); ok is false when they
// have none.
func gitMergeBase(ctx context.Context, root, a, b string) (string, bool, error) {
	out, err := runGit(ctx, root, "merge-base", a, b)
	if err != nil {
		if ctx.Err() != nil {
			return "", false, err
		}
		return "", false, nil // no common ancestor (exit 1)
	}
	return strings.TrimSpace(string(out)), true, nil
}

// gitChange is one changed file of `git diff --raw`: Status is git's
// letter (A, M, D, R, C, T); OldOID/NewOID are blob IDs (all zeros for a
// side that is absent or, for the work tree, not hashed; a commit ID for
// a submodule); OldMode/NewMode are git's modes ("100644", "120000" for a
// symbolic link, "160000" for a submodule; "000000" for an absent side);
// paths are relative to the work tree's root with forward slashes.
type gitChange struct {
	Status           byte
	OldPath, NewPath string
	OldOID, NewOID   string
	OldMode, NewMode string
}

// gitChangedPython lists the .py files that differ between commit base and
// head ("" for the work tree, staged for the index), renames detected.
//
// Renames are detected over every changed file, not only *.py (a
// pathspec would hide a rename's other side from git's detection), so
// that a .py file renamed to another name (`m.py` -> `m`, `m.txt`) stays
// paired with its origin and is scored as Python at its new name: the PR
// gate cannot be fooled by renaming a file out of the scored set. A file
// renamed from a non-.py name to a .py name is an added file.
//
// changed holds every path the change touches, of any name, on either
// side (for the symbolic links whose target changes; see linkedChanges).
func gitChangedPython(ctx context.Context, root, base, head string) (py []gitChange, changed map[string]bool, err error) {
	args := append([]string{"diff", "--raw", "-z", "-M", "--no-ext-diff", "--no-textconv", ignoreSubmodules, "--abbrev=40"}, diffSides(base, head)...)
	out, err := runGit(ctx, root, args...)
	if err != nil {
		return nil, nil, err
	}
	all, err := parseRawDiff(out)
	if err != nil {
		return nil, nil, err
	}
	changed = map[string]bool{}
	for _, c := range all {
		changed[c.OldPath], changed[c.NewPath] = true, true
	}
	delete(changed, "")
	for _, c := range all {
		oldPy, newPy := isPyPath(c.OldPath), isPyPath(c.NewPath)
		switch {
		case oldPy: // modified, deleted, or renamed (to any name)
			py = append(py, c)
		case newPy && c.OldPath != "": // renamed from a non-.py name: added
			c.Status, c.OldPath, c.OldOID = 'A', "", ""
			py = append(py, c)
		case newPy:
			py = append(py, c)
		}
	}
	return py, changed, nil
}

// ignoreSubmodules is given to every git diff of score and diff: a
// submodule is compared by the commit the superproject records and the
// one checked out (read from its refs), never by its work tree, which git
// would otherwise inspect by running `git status` inside the submodule
// with the submodule's own configuration (its filter.*.clean programs
// included, which gitexec cannot see to neutralize). "dirty" rather than
// "all" keeps a submodule at a .py path visible, so that it is named as
// skipped (see gitsymlink.go) rather than silently absent.
const ignoreSubmodules = "--ignore-submodules=dirty"

// isPyPath reports a path polynfi scores: .py, or the extension of
// another language with rules (nfi.IsSource).
func isPyPath(p string) bool { return nfi.IsSource(p) }

// diffSides are git diff's arguments for base against head: a commit, ""
// for the work tree, staged for the index (--cached).
func diffSides(base, head string) []string {
	switch head {
	case "":
		return []string{base}
	case Staged:
		return []string{"--cached", base}
	}
	return []string{base, head}
}

// parseRawDiff reads `git diff --raw -z` output:
// ":OLDMODE NEWMODE OLDOID NEWOID STATUS\x00PATH\x00[PATH2\x00]".
func parseRawDiff(out []byte) ([]gitChange, error) {
	fields := strings.Split(string(out), "\x00")
	var changes []gitChange
	for i := 0; i < len(fields); i++ {
		meta := fields[i]
		if meta == "" {
			continue
		}
		parts := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(parts) != 5 || i+1 >= len(fields) {
			return nil, fmt.Errorf("git diff --raw: unexpected record %q", meta)
		}
		c := gitChange{Status: parts[4][0], OldOID: parts[2], NewOID: parts[3], OldMode: parts[0], NewMode: parts[1]}
		i++
		c.OldPath, c.NewPath = fields[i], fields[i]
		if c.Status == 'R' || c.Status == 'C' {
			if i+1 >= len(fields) {
				return nil, fmt.Errorf("git diff --raw: rename without target %q", meta)
			}
			i++
			c.NewPath = fields[i]
		}
		switch c.Status {
		case 'A':
			c.OldPath = ""
		case 'D':
			c.NewPath = ""
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// gitUntrackedPython lists the untracked, not ignored .py files of the work tree.
func gitUntrackedPython(ctx context.Context, root string) ([]string, error) {
	out, err := runGit(ctx, root, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, nfi.SourceGlobs...)...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// gitIgnored returns the ignored files and directories under dir (paths
// relative to dir, slash-separated; directories without their final
// "/"), from .gitignore files and .git/info/exclude (no global excludes
// file). ok is false when dir is not in a git work tree or git fails.
func gitIgnored(ctx context.Context, dir string) (ignored map[string]bool, ok bool) {
	root, err := gitRoot(ctx, dir)
	if err != nil {
		return nil, false
	}
	abs, _ := filepath.Abs(dir)
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, false
	}
	rel = filepath.ToSlash(rel)
	out, err := runGit(ctx, root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", rel)
	if err != nil {
		return nil, false
	}
	prefix := rel + "/"
	if rel == "." {
		prefix = ""
	}
	ignored = map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		p = strings.TrimSuffix(p, "/")
		ignored[strings.TrimPrefix(p, prefix)] = true
	}
	return ignored, true
}

// blobReader reads blobs with one `git cat-file --batch` process
// (gitexec.Batch). Not safe for concurrent use; Close it.
type blobReader struct {
	closed bool
	err    error
	batch  *gitexec.Batch
}

func newBlobReader(ctx context.Context, root string) (*blobReader, error) {
	b, err := gitexec.NewBatch(ctx, root)
	if err != nil {
		return nil, err
	}
	return &blobReader{batch: b}, nil
}

// object asks git for the object named name and returns its ID and
// type; ok is false when git has no such object. With content, the
// object's bytes are returned, otherwise read and dropped.
func (b *blobReader) object(name string, content bool) (id, typ string, data []byte, ok bool, err error) {
	o, ok, err := b.batch.Read(name, content, 0)
	return o.ID, o.Type, o.Data, ok, err
}

// read returns the content of the blob oid; the error names it when git
// has no such blob.
func (b *blobReader) read(oid string) ([]byte, error) {
	_, typ, data, ok, err := b.object(oid, true)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("git object %s: missing", oid)
	case typ != "blob":
		return nil, fmt.Errorf("git object %s: a %s, not a blob", oid, typ)
	}
	return data, nil
}

// commit resolves a revision to a commit ID through the same process (no
// git run per revision); a revision that names no commit is a usage error.
func (b *blobReader) commit(root, rev string) (string, error) {
	if rev == "" {
		return "", usagef("empty revision")
	}
	id, _, _, ok, err := b.object(rev+"^{commit}", false)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", usagef("revision %q: no such commit in %s", rev, root)
	}
	return id, nil
}

// Close ends the git process; it may be called more than once.
func (b *blobReader) Close() error {
	if !b.closed {
		b.closed = true
		b.err = b.batch.Close()
	}
	return b.err
}

// isZeroOID reports an all-zero object ID (git's "not hashed" or "absent").
func isZeroOID(oid string) bool { return strings.Trim(oid, "0") == "" }

// repoPath joins a repository-relative slash path to root.
func repoPath(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

// gitLineMaps returns, for each file changed between base and head ("" for
// the work tree, staged for the index) that exists in both versions (by its after path), the map
// from each before line (1-based) that the change keeps to its line in the
// after version, from git's own diff (-U0 hunks; renames followed). It
// costs one git run for all files and stays fast on files of tens of
// thousands of lines, where a quadratic alignment would not. oldLines
// gives a file's number of before lines (by after path).
func gitLineMaps(ctx context.Context, root, base, head string, oldLines func(string) int) (map[string]map[int]int, error) {
	args := append([]string{"diff", "-U0", "-M", "--no-color", "--no-ext-diff", "--no-textconv", ignoreSubmodules}, diffSides(base, head)...)
	args = append(append(args, "--"), nfi.SourceGlobs...)
	out, err := runGit(ctx, root, args...)
	if err != nil {
		return nil, err
	}
	return parseLineMaps(string(out), oldLines)
}

// parseLineMaps reads `git diff -U0` output (see gitLineMaps) with the
// project's one diff parser (package diff): the files with hunks that
// exist after the change, by their after path.
func parseLineMaps(patch string, oldLines func(string) int) (map[string]map[int]int, error) {
	files, err := diff.Parse(patch)
	if err != nil {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	maps := map[string]map[int]int{}
	for _, f := range files {
		if f.IsBinary || f.IsDelete || f.NewPath == "" || len(f.Hunks) == 0 {
			continue
		}
		m := map[int]int{}
		o, n := 1, 1
		for _, h := range f.Hunks {
			end := h.OldStart - 1
			if h.OldCount == 0 {
				end = h.OldStart
			}
			for ; o <= end; o, n = o+1, n+1 {
				m[o] = n
			}
			if h.OldCount == 0 {
				o = h.OldStart + 1
			} else {
				o = h.OldStart + h.OldCount
			}
			if h.NewCount == 0 {
				n = h.NewStart + 1
			} else {
				n = h.NewStart + h.NewCount
			}
		}
		for last := oldLines(f.NewPath); o <= last; o, n = o+1, n+1 {
			m[o] = n
		}
		maps[f.NewPath] = m
	}
	return maps, nil
}
