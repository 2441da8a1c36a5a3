package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestOneGitLayer: polynfi has one git layer (docs/architecture.md): the
// one `cat-file --batch` reader is internal/gitexec's, the one reader of
// unified diff hunks is package diff's, and the one place that clones
// repositories (bundles into the cache, a shared clone per workspace) is
// package clones; harness and the other packages ask clones for a
// workspace. The test reads every non-test Go file of the module.
func TestOneGitLayer(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	rules := []struct {
		what  string
		re    *regexp.Regexp
		owner string // the one directory allowed (relative to the root)
	}{
		{"runs git clone", regexp.MustCompile(`"clone"`), "clones"},
		{"starts a cat-file --batch reader", regexp.MustCompile(`"cat-file",\s*"--batch`), "internal/gitexec"},
		{"parses hunk headers", regexp.MustCompile(`(HasPrefix|Cut|Index|Contains)\([^)]*"@@|MustCompile\([^)]*\^@@`), "diff"},
	}
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "out" || rel == "bin" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, r := range rules {
			if !r.re.Match(b) {
				continue
			}
			if dir == r.owner {
				found[r.what] = true
				continue
			}
			t.Errorf("%s %s: only %s may", rel, r.what, r.owner)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if !found[r.what] {
			t.Errorf("no file of %s %s: the rule no longer matches the code", r.owner, r.what)
		}
	}
}
