package catalog

import (
	"context"
	"github.com/polynfi/polynfi/internal/citest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

func newEngine(t testing.TB) *nfi.Engine {
	t.Helper()
	e, err := nfi.NewEngine(Polynfi92(), nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEveryInstalledPythonFile scores every .py file of the standard library
// and site-packages: each must be scored or reported invalid with a status
// and a position, and no rule may panic (status internal_error).
func TestEveryInstalledPythonFile(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-library run skipped in -short mode")
	}
	root := corpus.StdlibDir()
	if root == "" {
		citest.Missing(t, "no python3: the standard-library corpus test needs it")
	}
	files := corpus.PythonFiles(root, 0)
	if sp := corpus.SitePackagesDir(); sp != "" && !strings.HasPrefix(sp, root+string(filepath.Separator)) {
		files = append(files, corpus.PythonFiles(sp, 0)...)
	}
	e := newEngine(t)
	byStatus := map[string]int{}
	err := e.ScoreFiles(context.Background(), files, 0, func(fs nfi.FileScore) error {
		byStatus[fs.Status]++
		switch {
		case fs.Status == nfi.StatusInternalError:
			t.Errorf("%s: %v", fs.Path, fs.Error)
		case fs.Valid && (fs.Status != nfi.StatusOK || len(fs.Rules) != len(e.Rules())):
			t.Errorf("%s: valid with status %q and %d rule results", fs.Path, fs.Status, len(fs.Rules))
		case !fs.Valid && (fs.Error == nil || fs.Status == "" || fs.Status == nfi.StatusOK):
			t.Errorf("%s: invalid without a status and position: %+v", fs.Path, fs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files: %v", len(files), byStatus)
	if byStatus[nfi.StatusOK] < len(files)*9/10 {
		t.Errorf("only %d of %d files scored", byStatus[nfi.StatusOK], len(files))
	}
}

// TestEdgeFiles gives each awkward input its own clear per-file status.
func TestEdgeFiles(t *testing.T) {
	big := strings.Repeat("def f(x):\n    \"\"\"Return x.\"\"\"\n    return x + 1\n\n\n", 5<<20/40)
	cases := []struct {
		name, src, status string
		line              int
	}{
		{"empty", "", nfi.StatusOK, 0},
		{"only-comment", "# nothing here\n", nfi.StatusOK, 0},
		{"syntax-error", "x = 1\ndef f(:\n    pass\n", nfi.StatusSyntaxError, 2},
		{"missing-colon", "if x\n    pass\n", nfi.StatusSyntaxError, 1},
		{"binary", "\x7fELF\x02\x01\x00\x00", nfi.StatusBinary, 1},
		{"non-utf8", "x = 1\ns = '\xff\xfe'\n", nfi.StatusEncoding, 2},
		{"non-utf8-comment", "x = 1  # caf\xe9\n# \xff\xfe\ny = 2\n", nfi.StatusOK, 0},
		{"non-utf8-comment-declared-utf8", "# coding: utf-8\n# caf\xe9\ny = 2\n", nfi.StatusOK, 0},
		{"bom-utf-8-sig", "\xef\xbb\xbf# coding: utf-8-sig\nx = 1\n", nfi.StatusOK, 0},
		{"latin1-declared", "# -*- coding: latin-1 -*-\ns = '\xe9t\xe9'\n", nfi.StatusOK, 0},
		{"crlf", "x = 1\r\ny = 2\r\n", nfi.StatusOK, 0},
		{"5MB", big, nfi.StatusOK, 0},
	}
	e := newEngine(t)
	p := syntax.NewParser()
	defer p.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := e.Score(p, c.name+".py", []byte(c.src))
			if fs.Status != c.status {
				t.Fatalf("status: got %q, want %q (%v)", fs.Status, c.status, fs.Error)
			}
			if c.status == nfi.StatusOK {
				if !fs.Valid || len(fs.Rules) != len(e.Rules()) {
					t.Fatalf("got valid=%v with %d rules", fs.Valid, len(fs.Rules))
				}
				return
			}
			if fs.Valid || fs.Error == nil || fs.Error.Line != c.line || fs.Error.Message == "" {
				t.Fatalf("got valid=%v error=%+v, want invalid at line %d", fs.Valid, fs.Error, c.line)
			}
			if _, ok := fs.Scores.Get(nfi.Documentation); ok {
				t.Fatal("an invalid file must have no score")
			}
		})
	}
	// and through the file-reading path
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone.py")
	if fs := e.ScoreFile(p, missing); fs.Status != nfi.StatusReadError || fs.Error == nil {
		t.Fatalf("missing file: got %+v", fs)
	}
	os.WriteFile(filepath.Join(dir, "ok.py"), []byte("x = 1\n"), 0o644)
	if fs := e.ScoreFile(p, filepath.Join(dir, "ok.py")); !fs.Valid {
		t.Fatalf("ok.py: got %+v", fs)
	}
}

// FuzzScore drives arbitrary bytes through decode, parse and every rule.
func FuzzScore(f *testing.F) {
	for _, s := range []string{"", "x = 1\n", "def f(x=[]):\n    try:\n        pass\n    except:\n        pass\n",
		"class A:\n    '''d'''\n    def m(self): return 1 if x else 2\n", "import numpy as np\nnp.float_(1)\n",
		"\tif x:\n  \ty = 1;  \n", "lambda: (yield)\n", "match x:\n    case [1, *r]: pass\n    case _: pass\n",
		"async def f():\n    async with a as b:\n        await c\n", "x = f'{a!r:>{w}}'\n", "@d\nclass C(BaseException): pass\n"} {
		f.Add([]byte(s))
	}
	if files := corpus.StdlibSample(f, 20); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 20000 {
				f.Add(b)
			}
		}
	}
	e := newEngine(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p := syntax.NewParser()
		defer p.Close()
		fs := e.Score(p, "fuzz.py", src)
		if fs.Status == nfi.StatusInternalError {
			t.Fatalf("rule panicked: %v", fs.Error)
		}
		if fs.Valid == (fs.Error != nil) {
			t.Fatalf("valid=%v but error=%v", fs.Valid, fs.Error)
		}
		for _, r := range fs.Rules {
			if r.Passed != (len(r.Diagnostics) == 0) {
				t.Fatalf("%s: passed=%v with %d diagnostics", r.ID, r.Passed, len(r.Diagnostics))
			}
			for _, d := range r.Diagnostics {
				if d.Line < 1 || d.Column < 1 {
					t.Fatalf("%s: bad position %d:%d", r.ID, d.Line, d.Column)
				}
			}
		}
	})
}
