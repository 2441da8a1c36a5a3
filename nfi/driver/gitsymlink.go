package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/polynfi/polynfi/nfi"
)

// Symbolic links and submodules at .py paths (git comparisons).
//
// A git tree records a symbolic link as a blob holding the link's text
// (mode 120000) and a submodule as the ID of a commit of another
// repository (a gitlink, mode 160000). Neither is the module's code, so
// neither is scored as it is:
//
//   - a symbolic link is resolved inside the same tree (a commit's, the
//     index's, or, for the work tree, the directory on disk confined to the
//     repository with os.Root), following further links (at most
//     maxLinkHops) and links among its directories, the way Python would
//     open the module in a checkout; the regular file it reaches is scored
//     under the link's path. A link that leaves the repository (an
//     absolute path, or ".." above the top), dangles, loops, or reaches a
//     directory or a submodule makes the file unreadable (status
//     read_error, which the invalid gate counts): it is never scored as
//     its link text, and never read from outside the repository.
//   - a submodule is another repository: it is skipped with a note
//     (DiffOutput.Skipped), and a file replaced by one counts as removed.

// Git's file modes, as `git diff --raw`, `ls-tree` and `ls-files -s` print them.
const (
	modeSymlink = "120000"
	modeGitlink = "160000"
	modeTree    = "040000"
)

// maxLinkHops bounds the links followed to resolve one path (Linux's
// MAXSYMLINKS is 40).
const maxLinkHops = 40

// SkippedFile is a .py path of a change that is not a file (DiffOutput.Skipped).
type SkippedFile struct {
	Path    string `json:"path"`
	Version string `json:"version"` // "before" or "after"
	Reason  string `json:"reason"`
}

// treeEntry is one entry of a git tree or of the index: its mode (git's
// octal digits, e.g. "100644", "120000", "040000", "160000") and object ID.
type treeEntry struct{ mode, oid string }

// gitTree maps every path of a tree (directories included, slash
// separated, relative to the top) to its entry.
type gitTree map[string]treeEntry

// loadCommitTree lists the whole tree of commit with one `git ls-tree`.
func loadCommitTree(ctx context.Context, root, commit string) (gitTree, error) {
	out, err := runGit(ctx, root, "ls-tree", "-r", "-t", "-z", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	t := gitTree{}
	for _, rec := range strings.Split(string(out), "\x00") {
		// MODE SP TYPE SP OID TAB PATH
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		t[p] = treeEntry{mode: f[0], oid: f[2]}
	}
	return t, nil
}

// loadIndexTree lists the index (stage 0, and the first stage of a
// conflicted path) with one `git ls-files -s`; directories are implied by
// the paths.
func loadIndexTree(ctx context.Context, root string) (gitTree, error) {
	out, err := runGit(ctx, root, "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	t := gitTree{}
	for _, rec := range strings.Split(string(out), "\x00") {
		// MODE SP OID SP STAGE TAB PATH
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		if _, dup := t[p]; !dup {
			t[p] = treeEntry{mode: f[0], oid: f[1]}
		}
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if _, ok := t[d]; ok {
				break
			}
			t[d] = treeEntry{mode: modeTree}
		}
	}
	return t, nil
}

// resolveLink follows the symbolic link at p (slash separated, relative
// to the tree's top) inside tree, reading link texts with linkText, and
// returns the regular file it reaches: its path and entry. The error says
// why it reaches none (leaves the repository, dangles, loops, is a
// directory or a submodule).
func resolveLink(tree gitTree, p string, linkText func(oid string) ([]byte, error)) (string, treeEntry, error) {
	return resolveLinkVisit(tree, p, linkText, func(string) {})
}

// resolveLinkVisit is resolveLink that calls visit with every path it
// looks up (each link on the way, each directory, the target, and a
// missing path where it stops).
func resolveLinkVisit(tree gitTree, p string, linkText func(oid string) ([]byte, error), visit func(string)) (string, treeEntry, error) {
	rest := strings.Split(p, "/")
	var cur []string // resolved directories
	hops := 0
	for len(rest) > 0 {
		el := rest[0]
		rest = rest[1:]
		switch el {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return "", treeEntry{}, fmt.Errorf("symbolic link %s leads outside the repository", p)
			}
			cur = cur[:len(cur)-1]
			continue
		}
		at := strings.Join(append(cur[:len(cur):len(cur)], el), "/")
		visit(at)
		e, ok := tree[at]
		if !ok {
			return "", treeEntry{}, fmt.Errorf("symbolic link %s dangles (%s does not exist)", p, at)
		}
		if e.mode == modeSymlink {
			if hops++; hops > maxLinkHops {
				return "", treeEntry{}, fmt.Errorf("symbolic link %s: more than %d links (a loop)", p, maxLinkHops)
			}
			text, err := linkText(e.oid)
			if err != nil {
				return "", treeEntry{}, err
			}
			if strings.HasPrefix(string(text), "/") {
				return "", treeEntry{}, fmt.Errorf("symbolic link %s leads outside the repository (%s -> %q, an absolute path)", p, at, text)
			}
			if len(text) == 0 || strings.ContainsRune(string(text), 0) {
				return "", treeEntry{}, fmt.Errorf("symbolic link %s: %s has an empty or binary link text", p, at)
			}
			rest = append(strings.Split(string(text), "/"), rest...)
			continue
		}
		if len(rest) > 0 && e.mode != modeTree {
			return "", treeEntry{}, fmt.Errorf("symbolic link %s dangles (%s is not a directory)", p, at)
		}
		cur = append(cur, el)
	}
	at := strings.Join(cur, "/")
	e := tree[at]
	switch {
	case at == "" || e.mode == modeTree:
		return "", treeEntry{}, fmt.Errorf("symbolic link %s leads to a directory (%s)", p, or(at, "the top"))
	case e.mode == modeGitlink:
		return "", treeEntry{}, fmt.Errorf("symbolic link %s leads to a submodule (%s)", p, at)
	}
	return at, e, nil
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// readWorkTreeFile reads the work tree's file at the slash path rel under
// the repository opened as r: symbolic links are followed only inside the
// repository (os.Root refuses one that leaves it), and only a regular
// file is read (never a FIFO, socket or device, which is not opened for
// reading past a non-blocking open).
func readWorkTreeFile(r *os.Root, rel string) ([]byte, error) {
	f, err := r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi, lerr := r.Lstat(rel); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("symbolic link %s dangles: %w", rel, err)
			}
			return nil, fmt.Errorf("symbolic link %s leads outside the repository: %w", rel, err)
		}
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s), not read", rel, nfi.FileKind(st.Mode()))
	}
	return io.ReadAll(f)
}

// linkedChanges returns, as modified files, the symbolic links at .py
// paths of the after tree that the change leaves as they are (not among
// changes) but whose resolution goes through a path it touches (changed):
// the link's target, or a link or directory on the way. Links are listed
// only when the after tree holds any.
func linkedChanges(changes []gitChange, changed map[string]bool, treeOf func(nfi.Version) (gitTree, error), linkText func(string) ([]byte, error)) ([]gitChange, error) {
	if len(changed) == 0 {
		return nil, nil
	}
	after, err := treeOf(nfi.VersionAfter)
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for _, ch := range changes {
		listed[ch.OldPath], listed[ch.NewPath] = true, true
	}
	var out []gitChange
	for p, e := range after {
		if e.mode != modeSymlink || !isPyPath(p) || listed[p] || changed[p] {
			continue
		}
		hit := false
		visit := func(at string) { hit = hit || changed[at] }
		if before, err := treeOf(nfi.VersionBefore); err == nil {
			resolveLinkVisit(before, p, linkText, visit)
		} else {
			return nil, err
		}
		resolveLinkVisit(after, p, linkText, visit)
		if hit {
			out = append(out, gitChange{Status: 'M', OldPath: p, NewPath: p, OldOID: e.oid, NewOID: e.oid, OldMode: modeSymlink, NewMode: modeSymlink})
		}
	}
	return out, nil
}
