package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
)

// BenchmarkGitDiff compares, on a repository of 300 standard-library files
// whose last commit changes 3 of them, `diff --base HEAD~1` (what a pull
// request check runs) with a full `score` of the tree. The ratio of the two
// ns/op is the saving the git-aware mode buys; on real histories see the
// README (50 merged changes of psf/requests and pypa/pip).
func BenchmarkGitDiff(b *testing.B) {
	files := corpus.StdlibSample(b, 300)
	tree := map[string]string{}
	for i, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		tree[fmt.Sprintf("pkg%02d/m%03d.py", i%20, i)] = string(src)
	}
	dir := b.TempDir()
	for p, c := range tree {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	gitB(b, dir, "init", "-q", "-b", "main")
	gitB(b, dir, "add", "-A")
	gitB(b, dir, "commit", "-q", "-m", "init")
	for _, p := range []string{"pkg00/m000.py", "pkg01/m001.py", "pkg02/m002.py"} {
		f, _ := os.OpenFile(filepath.Join(dir, p), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("\n\ndef added(x):\n    try:\n        return int(x)\n    except:\n        return 0\n")
		f.Close()
	}
	gitB(b, dir, "commit", "-q", "-am", "change")
	b.Chdir(dir)
	runB := func(b *testing.B, args ...string) {
		var o, e bytes.Buffer
		if code := Main(context.Background(), args, &o, &e); code != ExitOK {
			b.Fatalf("%v: exit %d\n%s", args, code, e.String())
		}
	}
	b.Run("diff-base", func(b *testing.B) {
		for b.Loop() {
			runB(b, "diff", "--isolated", "--base", "HEAD~1", "--format", "json")
		}
	})
	b.Run("score-tree", func(b *testing.B) {
		for b.Loop() {
			runB(b, "score", "--isolated", "--format", "json", ".")
		}
	})
}

func gitB(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := gitCmdForTest(dir, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
