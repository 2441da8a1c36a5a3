package cli

import (
	"fmt"
	"os"
	"sort"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// gitComparison scores the .py files that differ between base (or its
// merge base with head, when mergeBase) and head (a revision, or "" for
// the work tree)
// in the git repository holding the working directory. Files are read
// from git objects with one `git cat-file --batch`; the work tree's are
// read from disk (untracked, not ignored files count as added). Files the
// settings exclude are left out.
func gitComparison(e *env, eng *nfi.Engine, ef *engineFlags, base, head string, mergeBase bool) (*comparison, error) {
	ctx := e.ctx
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root, err := gitRoot(ctx, wd)
	if err != nil {
		return nil, err
	}
	baseID, err := gitCommit(ctx, root, base)
	if err != nil {
		return nil, err
	}
	rng := &gitRange{Root: root, Base: base, MergeBase: baseID, Head: worktree}
	headID := ""
	if head != "" {
		if headID, err = gitCommit(ctx, root, head); err != nil {
			return nil, err
		}
		rng.Head = headID
	} else if id, err := gitCommit(ctx, root, "HEAD"); err == nil {
		headID = id // the work tree's commit, for the merge base
	}
	if mergeBase && headID != "" {
		if mb, ok, err := gitMergeBase(ctx, root, baseID, headID); err != nil {
			return nil, err
		} else if ok {
			rng.MergeBase = mb
		}
	}
	changes, err := gitChangedPython(ctx, root, rng.MergeBase, map[bool]string{true: "", false: rng.Head}[rng.Head == worktree])
	if err != nil {
		return nil, err
	}
	if rng.Head == worktree {
		untracked, err := gitUntrackedPython(ctx, root)
		if err != nil {
			return nil, err
		}
		for _, p := range untracked {
			changes = append(changes, gitChange{Status: 'A', NewPath: p})
		}
	}
	excludes, err := eng.Settings.Excludes()
	if err != nil {
		return nil, usageError{err}
	}
	keep := changes[:0]
	for _, ch := range changes {
		p := ch.NewPath
		if p == "" {
			p = ch.OldPath
		}
		if !excluded(excludes, nfi.RelativeTo(eng.Settings.BaseDir(), repoPath(root, p))) {
			keep = append(keep, ch)
		}
	}
	changes = keep
	sort.Slice(changes, func(i, j int) bool { return changePath(changes[i]) < changePath(changes[j]) })

	blobs, err := newBlobReader(ctx, root)
	if err != nil {
		return nil, err
	}
	defer blobs.Close()
	parser := syntax.NewParser()
	defer parser.Close()
	texts := map[nfi.Version]map[string][]byte{nfi.VersionBefore: {}, nfi.VersionAfter: {}}
	c := &comparison{out: diffOutput{Run: summarizeSettings(eng), Git: rng}}
	// score reads and scores one version of a file, under path (the after
	// path, so that renamed files pair up).
	score := func(v nfi.Version, repoRel, oid, path string) (nfi.FileScore, error) {
		var src []byte
		var err error
		if v == nfi.VersionAfter && rng.Head == worktree {
			src, err = os.ReadFile(repoPath(root, repoRel))
			if err != nil {
				return nfi.FileScore{Path: path, Status: nfi.StatusReadError, Error: &nfi.FileError{Message: err.Error()}}, nil
			}
		} else if src, err = blobs.read(oid); err != nil {
			return nfi.FileScore{}, fmt.Errorf("%s at %s: %w", repoRel, v, err)
		}
		texts[v][path] = src
		fs := eng.Score(parser, repoPath(root, repoRel), src)
		fs.Path = path
		return fs, nil
	}
	for _, ch := range changes {
		path := changePath(ch)
		if ch.OldPath != "" {
			fs, err := score(nfi.VersionBefore, ch.OldPath, ch.OldOID, path)
			if err != nil {
				return nil, err
			}
			c.out.Before = append(c.out.Before, fs)
		}
		if ch.NewPath != "" {
			fs, err := score(nfi.VersionAfter, ch.NewPath, ch.NewOID, path)
			if err != nil {
				return nil, err
			}
			c.out.After = append(c.out.After, fs)
		}
		switch {
		case ch.OldPath == "":
			c.out.Added = append(c.out.Added, path)
		case ch.NewPath == "":
			c.out.Removed = append(c.out.Removed, path)
		case ch.OldPath != ch.NewPath:
			if c.out.Renamed == nil {
				c.out.Renamed = map[string]string{}
			}
			c.out.Renamed[path] = ch.OldPath
		}
	}
	if err := blobs.Close(); err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	c.out.Delta = nfi.Compare(c.out.Before, c.out.After)
	c.content = func(v nfi.Version, path string) ([]byte, bool) {
		b, ok := texts[v][path]
		return b, ok
	}
	c.afterPath = func(p string) string { return repoPath(root, p) }
	headLabel := head
	if rng.Head == worktree {
		headLabel = "work tree"
	}
	c.labels = [2]string{base, headLabel}
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
