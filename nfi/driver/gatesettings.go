package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/nfi"
)

// The settings a change is judged by. In a git comparison (diff --base,
// score --diff-base) the settings file is part of the change: a pull
// request could add `ignore = ["DOC"]`, a per-file-ignores entry, an
// exclude pattern, a looser threshold or drop `[gate] fail-on`, and be
// judged by the rules it wrote itself. So when the change edits, adds or
// deletes the settings that apply (polynfi.toml, or pyproject.toml with
// [tool.polynfi], found from the working directory upwards inside the
// repository, or the file --config names there), both versions are scored
// with the settings as of the before version (the merge base), and the
// report says so; the change's own settings apply once it is merged.
// Command-line flags still add to or override them.

// BaseSettings returns the engine to score a git comparison with and, when
// the change edits the settings, the repository path of the settings
// file the before version had ("(defaults)" when it had none in the
// repository). ef built eng from the settings found at start ("." for git
// comparisons); head is "" (work tree), staged, or a revision.
func (ef *EngineOptions) BaseSettings(ctx context.Context, eng *nfi.Engine, base, head string, mergeBase bool) (*nfi.Engine, string, error) {
	if ef.Isolated {
		return eng, "", nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, "", err
	}
	root, err := gitRoot(ctx, wd)
	if err != nil {
		return eng, "", nil // GitComparison reports it
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if w, err := filepath.EvalSymlinks(wd); err == nil {
		wd = w
	}
	rev := base
	if mergeBase {
		h := head
		if h == "" || h == Staged {
			h = "HEAD"
		}
		if mb, ok, err := gitMergeBase(ctx, root, base, h); err != nil {
			return nil, "", err
		} else if ok {
			rev = mb
		}
	}
	show := func(rel string) ([]byte, bool) {
		out, err := runGit(ctx, root, "cat-file", "blob", rev+":"+rel)
		return out, err == nil
	}
	inRepo := func(p string) (string, bool) {
		if p == "" {
			return "", false
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", false
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	headRel, headInRepo := inRepo(eng.Settings.Origin)
	// The before version's settings file: the one --config names, or the
	// first found from the working directory up to the repository's top.
	baseRel, found := "", false
	var baseSrc []byte
	if ef.Config != "" {
		if !headInRepo {
			return eng, "", nil // a file outside the repository is not the change's
		}
		baseSrc, found = show(headRel)
		baseRel = headRel
		if !found {
			return eng, "", nil // new with the change and named by the command line
		}
	} else {
		dirRel, _ := inRepo(wd)
		for d := dirRel; ; d = path.Dir(d) {
			for _, name := range []string{"polynfi.toml", "pyproject.toml"} {
				rel := path.Join(d, name)
				if src, ok := show(rel); ok && (name == "polynfi.toml" || nfi.HasSettings(src)) {
					baseRel, baseSrc, found = rel, src, true
					break
				}
			}
			if found || d == "." || d == "/" || d == "" {
				break
			}
		}
	}
	if found && headInRepo && baseRel == headRel {
		now, err := os.ReadFile(eng.Settings.Origin)
		if err == nil && bytes.Equal(now, baseSrc) {
			return eng, "", nil // unchanged
		}
	}
	if !found && !headInRepo {
		return eng, "", nil // no settings in the repository on either side
	}
	// The change edits the settings: load the before version's.
	var s nfi.Settings
	note := "(defaults)"
	if found {
		tmp, err := os.MkdirTemp("", "polynfi-settings-")
		if err != nil {
			return nil, "", err
		}
		defer os.RemoveAll(tmp)
		p := filepath.Join(tmp, path.Base(baseRel))
		if err := os.WriteFile(p, baseSrc, 0o600); err != nil {
			return nil, "", err
		}
		if s, err = nfi.LoadSettings(p); err != nil {
			return nil, "", fmt.Errorf("load settings of the before version (%s at %s): %w", baseRel, ShortID(rev), err)
		}
		s.Origin = repoPath(root, baseRel)
		note = baseRel
	} else if p, ok := nfi.FindSettings(filepath.Dir(root)); ok {
		// none in the repository at the base: what applies from above it
		if s, err = nfi.LoadSettings(p); err != nil {
			return nil, "", fmt.Errorf("load settings: %w", err)
		}
		note = p
	}
	minor := eng.PythonMinor
	out, err := ef.EngineWith(eng.Catalog, minor, s)
	if err != nil {
		return nil, "", fmt.Errorf("settings of the before version (%s): %w", note, err)
	}
	return out, note, nil
}
