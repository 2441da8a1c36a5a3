package driver

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/nfi"
)

// PythonFiles is Discover with the default settings.
func PythonFiles(args []string) (files, missing []string, err error) {
	return Discover(args, nfi.Settings{})
}

// Discover expands files and directories into the Python files to score.
// A file named on the command line is taken as given (even when a pattern
// excludes it, as Ruff does without --force-exclude). A directory is
// searched recursively for the files nfi.IsSource accepts (*.py, and the
// JavaScript and TypeScript extensions), skipping:
//   - hidden directories and what the settings exclude (exclude, or the
//     default list of environment, cache and build directories such as
//     venv, .venv, site-packages, build, dist, node_modules, __pycache__;
//     plus extend-exclude), patterns matched relative to the settings
//     file's directory (or to the directory searched, for one outside it);
//   - files and directories git ignores (.gitignore files and
//     .git/info/exclude) when the directory is in a git work tree, unless
//     respect-gitignore is false.
//
// The result is sorted per argument. A path that does not exist is not a
// file to score: it is left out of files and named in missing (the
// command reports it as an error after scoring the others, so that one bad
// argument does not stop the run). err is an invalid pattern or a
// directory that cannot be walked.
func Discover(args []string, s nfi.Settings) (files, missing []string, err error) {
	return DiscoverWarn(args, s, nil)
}

// DiscoverWarn is Discover that names on warn (when not nil) each *.py
// entry of a searched directory skipped because it is not a regular file
// (a named pipe, socket or device would block or never end; symbolic links
// are not followed).
func DiscoverWarn(args []string, s nfi.Settings, warn io.Writer) (files, missing []string, err error) {
	excludes, err := s.Excludes()
	if err != nil {
		return nil, nil, usageError{err}
	}
	base := s.BaseDir()
	gitignore := s.RespectGitignore == nil || *s.RespectGitignore
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			missing = append(missing, a)
			continue
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var ignored map[string]bool
		if gitignore {
			ignored, _ = gitIgnored(context.Background(), a)
		}
		rootAbs, _ := filepath.Abs(a)
		rel := func(p string) string {
			abs, _ := filepath.Abs(p)
			if r, err := filepath.Rel(base, abs); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
				return filepath.ToSlash(r)
			}
			r, _ := filepath.Rel(rootAbs, abs)
			return filepath.ToSlash(r)
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p == a {
				return nil
			}
			if ignored != nil {
				if r, err := filepath.Rel(a, p); err == nil && ignored[filepath.ToSlash(r)] {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
			}
			if d.IsDir() {
				name := d.Name()
				if strings.HasPrefix(name, ".") || excluded(excludes, rel(p)) {
					return filepath.SkipDir
				}
				return nil
			}
			if nfi.IsSource(p) && !excluded(excludes, rel(p)) {
				if d.Type().IsRegular() {
					found = append(found, p)
				} else if warn != nil && d.Type()&fs.ModeSymlink == 0 {
					fmt.Fprintf(warn, "polynfi: skipping %s: not a regular file (%s)\n", p, nfi.FileKind(d.Type()))
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, missing, nil
}

func excluded(globs []nfi.Glob, rel string) bool {
	for _, g := range globs {
		if g.Match(rel) {
			return true
		}
	}
	return false
}
