package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"

	"golang.org/x/sync/errgroup"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// GitComparison scores the .py files that differ between base (or its
// merge base with head, when mergeBase) and head (a revision, "" for
// the work tree, or staged for the index)
// in the git repository holding the working directory. Files are read
// from git objects with one `git cat-file --batch`; the work tree's are
// read from disk (untracked, not ignored files count as added). Files the
// settings exclude are left out.
func GitComparison(ctx context.Context, eng *nfi.Engine, ef *EngineOptions, base, head string, mergeBase bool) (*Comparison, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root, err := gitRoot(ctx, wd)
	if err != nil {
		return nil, err
	}
	// One cat-file process resolves the revisions and reads every blob.
	blobs, err := newBlobReader(ctx, root)
	if err != nil {
		return nil, err
	}
	defer blobs.Close()
	baseID, err := blobs.commit(root, base)
	if err != nil {
		return nil, err
	}
	rng := &GitRange{Root: root, Base: base, MergeBase: baseID, Head: Worktree}
	headID := ""
	if head == Staged {
		rng.Head = Staged
		if id, err := blobs.commit(root, "HEAD"); err == nil {
			headID = id // the index's commit, for the merge base
		}
	} else if head != "" {
		if headID, err = blobs.commit(root, head); err != nil {
			return nil, err
		}
		rng.Head = headID
	} else if id, err := blobs.commit(root, "HEAD"); err == nil {
		headID = id // the work tree's commit, for the merge base
	}
	if mergeBase && headID != "" && headID != baseID {
		if mb, ok, err := gitMergeBase(ctx, root, baseID, headID); err != nil {
			return nil, err
		} else if ok {
			rng.MergeBase = mb
		}
	}
	headArg := rng.Head // a commit, staged, or "" for the work tree
	if rng.Head == Worktree {
		headArg = ""
	}
	changes, changed, err := gitChangedPython(ctx, root, rng.MergeBase, headArg)
	if err != nil {
		return nil, err
	}
	// The trees symbolic links are resolved in, listed on the first link.
	trees := map[nfi.Version]gitTree{}
	treeOf := func(v nfi.Version) (gitTree, error) {
		if t, ok := trees[v]; ok {
			return t, nil
		}
		var t gitTree
		var err error
		switch {
		case v == nfi.VersionBefore:
			t, err = loadCommitTree(ctx, root, rng.MergeBase)
		case rng.Head == Staged || rng.Head == Worktree:
			// The work tree's links are found in the index (and read
			// from disk).
			t, err = loadIndexTree(ctx, root)
		default:
			t, err = loadCommitTree(ctx, root, rng.Head)
		}
		if err != nil {
			return nil, err
		}
		trees[v] = t
		return t, nil
	}
	// A symbolic link at a .py path that the change leaves as it is, but
	// whose target (or a link on the way) the change edits, is scored as
	// changed: the module is the target's code.
	linked, err := linkedChanges(changes, changed, treeOf, blobs.read)
	if err != nil {
		return nil, err
	}
	changes = append(changes, linked...)
	// git's line alignment of a link is that of its text: the content's
	// own alignment is used for any path that is a link on either side.
	linkPaths := map[string]bool{}
	for _, ch := range changes {
		if ch.OldMode == modeSymlink || ch.NewMode == modeSymlink {
			linkPaths[changePath(ch)] = true
		}
	}
	if rng.Head == Worktree {
		untracked, err := gitUntrackedPython(ctx, root)
		if err != nil {
			return nil, err
		}
		for _, p := range untracked {
			changes = append(changes, gitChange{Status: 'A', NewPath: p})
		}
	}
	// A submodule at a .py path is another repository, not a file: it is
	// named as skipped, and the side that is one counts as absent.
	var skipped []SkippedFile
	{
		keep := changes[:0]
		for _, ch := range changes {
			if ch.OldMode == modeGitlink && ch.OldPath != "" {
				skipped = append(skipped, SkippedFile{Path: ch.OldPath, Version: string(nfi.VersionBefore), Reason: "a submodule (another repository), not a file"})
				ch.OldPath, ch.OldOID, ch.OldMode = "", "", ""
			}
			if ch.NewMode == modeGitlink && ch.NewPath != "" {
				skipped = append(skipped, SkippedFile{Path: ch.NewPath, Version: string(nfi.VersionAfter), Reason: "a submodule (another repository), not a file"})
				ch.NewPath, ch.NewOID, ch.NewMode = "", "", ""
			}
			if ch.OldPath != "" || ch.NewPath != "" {
				keep = append(keep, ch)
			}
		}
		changes = keep
	}
	excludes, err := eng.Settings.Excludes()
	if err != nil {
		return nil, usageError{err}
	}
	isExcluded := func(p string) bool {
		return p != "" && excluded(excludes, nfi.RelativeTo(eng.Settings.BaseDir(), repoPath(root, p)))
	}
	// A file the settings exclude is left out, unless it is the other side
	// of a rename of a file that is scored (moving a file into, or out of,
	// an excluded directory keeps it paired and scored). Added excluded
	// files are kept apart: one whose code comes from a file of the change
	// is scored as a split of it (see splitIndex); the others are listed
	// as not scored.
	keep := changes[:0]
	var excludedAdded []gitChange
	for _, ch := range changes {
		oldEx, newEx := isExcluded(ch.OldPath), isExcluded(ch.NewPath)
		switch {
		case ch.OldPath != "" && ch.NewPath != "" && ch.OldPath != ch.NewPath && (!oldEx || !newEx):
			keep = append(keep, ch)
		case ch.OldPath == "" && newEx:
			excludedAdded = append(excludedAdded, ch)
		case !oldEx && !newEx:
			keep = append(keep, ch)
		}
	}
	changes = keep
	sort.Slice(changes, func(i, j int) bool { return changePath(changes[i]) < changePath(changes[j]) })

	texts := map[nfi.Version]map[string][]byte{nfi.VersionBefore: {}, nfi.VersionAfter: {}}
	c := &Comparison{Out: DiffOutput{Run: SummarizeSettings(eng), Git: rng, Skipped: skipped}}
	// The work tree is read through the repository's root: a symbolic
	// link is followed only inside it (see gitsymlink.go).
	var workTree *os.Root
	if rng.Head == Worktree {
		if workTree, err = os.OpenRoot(root); err != nil {
			return nil, err
		}
		defer workTree.Close()
	}
	// Read every version first (one cat-file process, in order), then
	// score them on all cores, a parser per worker.
	type job struct {
		v             nfi.Version
		repoRel, path string
		src           []byte
		fs            nfi.FileScore
		done          bool // a read error already in fs
	}
	var jobs []*job
	read := func(v nfi.Version, repoRel, oid, mode, path string) error {
		j := &job{v: v, repoRel: repoRel, path: path}
		jobs = append(jobs, j)
		unreadable := func(err error) {
			j.fs, j.done = nfi.FileScore{Path: path, Status: nfi.StatusReadError, Error: &nfi.FileError{Message: err.Error()}}, true
		}
		if v == nfi.VersionAfter && rng.Head == Worktree {
			src, err := readWorkTreeFile(workTree, repoRel)
			if err != nil {
				unreadable(err)
				return nil
			}
			j.src = src
		} else if mode == modeSymlink {
			// Scored as the file the link reaches in the same tree,
			// never as the link's text.
			t, err := treeOf(v)
			if err != nil {
				return err
			}
			_, e, err := resolveLink(t, repoRel, blobs.read)
			if err != nil {
				unreadable(err)
				return nil
			}
			if j.src, err = blobs.read(e.oid); err != nil {
				return fmt.Errorf("%s at %s: %w", repoRel, v, err)
			}
		} else {
			src, err := blobs.read(oid)
			if err != nil {
				return fmt.Errorf("%s at %s: %w", repoRel, v, err)
			}
			j.src = src
		}
		texts[v][path] = j.src
		return nil
	}
	for _, ch := range changes {
		path := changePath(ch)
		if ch.OldPath != "" {
			if err := read(nfi.VersionBefore, ch.OldPath, ch.OldOID, ch.OldMode, path); err != nil {
				return nil, err
			}
		}
		if ch.NewPath != "" {
			if err := read(nfi.VersionAfter, ch.NewPath, ch.NewOID, ch.NewMode, path); err != nil {
				return nil, err
			}
		}
		switch {
		case ch.OldPath == "":
			c.Out.Added = append(c.Out.Added, path)
		case ch.NewPath == "":
			c.Out.Removed = append(c.Out.Removed, path)
		case ch.OldPath != ch.NewPath:
			if c.Out.Renamed == nil {
				c.Out.Renamed = map[string]string{}
			}
			c.Out.Renamed[path] = ch.OldPath
		}
	}
	// Excluded added files whose code comes from a file of the change are
	// scored as splits of it; the others are only named.
	if len(excludedAdded) > 0 {
		origins := map[string][]byte{}
		for _, j := range jobs {
			if j.v == nfi.VersionBefore {
				origins[j.path] = j.src
			}
		}
		splits := newSplitIndex(origins)
		for _, ch := range excludedAdded {
			n := len(jobs)
			if err := read(nfi.VersionAfter, ch.NewPath, ch.NewOID, ch.NewMode, ch.NewPath); err != nil {
				return nil, err
			}
			j := jobs[n]
			if _, ok := splits.origin(j.src); ok && !j.done {
				c.Out.Added = append(c.Out.Added, ch.NewPath)
				c.Out.ExcludedSplits = append(c.Out.ExcludedSplits, ch.NewPath)
				continue
			}
			jobs = jobs[:n]
			delete(texts[nfi.VersionAfter], ch.NewPath)
			c.Out.Unscored = append(c.Out.Unscored, ch.NewPath)
		}
	}
	next := make(chan *job)
	var g errgroup.Group
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(jobs)); w++ {
		g.Go(func() error {
			parser := syntax.NewParser()
			defer parser.Close()
			for j := range next {
				j.fs = eng.Score(parser, repoPath(root, j.repoRel), j.src)
				j.fs.Path = j.path
			}
			return nil
		})
	}
	for _, j := range jobs {
		if !j.done {
			next <- j
		}
	}
	close(next)
	g.Wait()
	for _, j := range jobs {
		if j.v == nfi.VersionBefore {
			c.Out.Before = append(c.Out.Before, j.fs)
		} else {
			c.Out.After = append(c.Out.After, j.fs)
		}
	}
	if err := blobs.Close(); err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	c.Out.Delta = nfi.Compare(c.Out.Before, c.Out.After)
	if len(c.Out.Before) > 0 && len(c.Out.After) > 0 {
		maps, err := gitLineMaps(ctx, root, rng.MergeBase, headArg, func(path string) int {
			return bytes.Count(texts[nfi.VersionBefore][path], []byte("\n")) + 1
		})
		if err != nil {
			return nil, err
		}
		c.align = func(path string) (map[int]int, bool) {
			if linkPaths[path] {
				return nil, false
			}
			m, ok := maps[path]
			return m, ok
		}
	}
	c.content = func(v nfi.Version, path string) ([]byte, bool) {
		b, ok := texts[v][path]
		return b, ok
	}
	c.afterPath = func(p string) string { return repoPath(root, p) }
	headLabel := head
	switch rng.Head {
	case Worktree:
		headLabel = "work tree"
	case Staged:
		headLabel = "index (staged)"
	}
	c.Labels = [2]string{base, headLabel}
	return c, nil
}

// changePath is the path a change is reported under: the after path, or
// the before path of a deleted file.
func changePath(c gitChange) string {
	if c.NewPath != "" {
		return c.NewPath
	}
	return c.OldPath
}
