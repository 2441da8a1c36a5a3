// Package corpus finds real Python code on the machine (the standard library
// of the python3 on PATH, and its site-packages) for tests and benchmarks.
// It never writes anything.
package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
)

var (
	pathsOnce sync.Once
	stdlibDir string
	siteDir   string
)

func load() {
	pathsOnce.Do(func() {
		if d := os.Getenv("POLYNFI_STDLIB"); d != "" {
			stdlibDir = d
			return
		}
		out, err := exec.Command("python3", "-c",
			"import sysconfig; p=sysconfig.get_paths(); print(p['stdlib']); print(p['purelib'])").Output()
		if err != nil {
			return
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) == 2 {
			stdlibDir, siteDir = lines[0], lines[1]
		}
	})
}

// StdlibDir returns the standard-library directory of the python3 on PATH
// (sysconfig "stdlib"), or "" when python3 is absent. POLYNFI_STDLIB overrides it.
func StdlibDir() string { load(); return stdlibDir }

// SitePackagesDir returns python3's site-packages (sysconfig "purelib"), or "".
func SitePackagesDir() string { load(); return siteDir }

// All returns every .py file of the standard library (site-packages
// skipped) and of site-packages, the corpus of the whole-corpus tests, or
// skips tb when there is no python3 (fails it when CI=true).
func All(tb testing.TB) []string {
	tb.Helper()
	d := StdlibDir()
	if d == "" {
		citest.Missing(tb, "no python3 standard library on this machine")
	}
	files := PythonFiles(d, 0, "site-packages")
	if sp := SitePackagesDir(); sp != "" {
		files = append(files, PythonFiles(sp, 0)...)
	}
	return files
}

// WholeCorpus reports whether the whole-corpus tests run on All rather
// than a sample: under CI=true, or with PYPARSE_CORPUS=all.
func WholeCorpus() bool { return citest.InCI() || os.Getenv("PYPARSE_CORPUS") == "all" }

// PythonFiles returns the .py files under root in lexical order, skipping
// directories named in skip. limit ≤ 0 means all.
func PythonFiles(root string, limit int, skip ...string) []string {
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			for _, s := range skip {
				if d.Name() == s && p != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if strings.HasSuffix(p, ".py") && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if limit > 0 && len(files) > limit {
		// an even spread over the whole library, not its first directory
		step := float64(len(files)) / float64(limit)
		picked := make([]string, 0, limit)
		for i := 0; i < limit; i++ {
			picked = append(picked, files[int(float64(i)*step)])
		}
		files = picked
	}
	return files
}

// StdlibSample returns up to n standard-library .py files spread evenly over
// the library (site-packages excluded), or skips tb when there is no python3
// (fails it when CI=true).
func StdlibSample(tb testing.TB, n int) []string {
	tb.Helper()
	d := StdlibDir()
	if d == "" {
		citest.Missing(tb, "no python3 standard library on this machine")
	}
	return PythonFiles(d, n, "site-packages")
}
