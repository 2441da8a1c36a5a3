package java_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/syntax"
)

// defaultEngine is the default catalog's engine (every language).
func defaultEngine(t testing.TB, suppress bool) *nfi.Engine {
	t.Helper()
	c, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	e, err := nfi.NewEngine(c, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	e.Suppressions = suppress
	return e
}

// FuzzScoreJava: any bytes, as a .java file, are scored by the whole
// default catalog or reported invalid, never a rule panic (status
// internal_error) or a crash. The seeds (the fixtures and deeply nested,
// huge and non-UTF-8 inputs) run as a unit test; go test
// -fuzz=FuzzScoreJava explores further.
func FuzzScoreJava(f *testing.F) {
	fixtures, _ := filepath.Glob("testdata/*.java")
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	r := strings.Repeat
	for _, s := range []string{
		"class A { void f(boolean a) { " + r("if (a) { ", 5000) + r("}", 5000) + " } }",
		"class A { int x = " + r("a ? b : ", 5000) + "c; }",
		"class A { int x = " + r("(", 10000) + "1" + r(")", 10000) + "; }",
		r("class A { ", 3000) + r("}", 3000),
		"class A { " + r("List<", 5000) + "String" + r(">", 5000) + " x; }",
		"class A { void f() { " + r("{ ", 10000) + "return; x(); " + r("} ", 10000) + "} }",
		"class A { void f() { try { } finally { " + r("{ ", 5000) + "throw e; return 1;" + r("} ", 5000) + "} } }",
		"class A { Runnable r = " + r("() -> ", 5000) + "x; }",
		"class A { String s = \"" + r("a", 1<<20) + "\"; }",
		"class A { int x = 1" + r(" + 7", 100000) + "; }",
		"class A { void f() { " + r("int v; ", 20000) + "} }",
		"class A { " + r("private int f; ", 20000) + "}",
		"class \xff\xfe { }",
		"class A { String s = \"\xc3\"; }",
		r("// NOPMD\n", 1000) + "class A { }",
		r("@SuppressWarnings(\"PMD\") ", 1000) + "class A { }",
		"class A { void f() { switch (x) { " + r("case 1: ", 10000) + "} } }",
	} {
		f.Add([]byte(s))
	}
	e := defaultEngine(f, true)
	p := syntax.NewParser()
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		fs := e.Score(p, "F.java", src)
		if fs.Status == nfi.StatusInternalError {
			t.Fatalf("%s: %v", fs.Status, fs.Error)
		}
		if !fs.Valid && fs.Error == nil {
			t.Fatalf("invalid without an error: %s", fs.Status)
		}
		if fs.Valid && len(fs.Rules) < 40 {
			t.Fatalf("a valid Java file judged by %d rules", len(fs.Rules))
		}
	})
}

// TestCorpusScored: every Java file of the oracle corpus (all of it, not
// the agreement test's sample) is scored by the default catalog or
// reported invalid with a reason, and none is an internal error.
func TestCorpusScored(t *testing.T) {
	dir := citest.Oracle(t, "POLYNFI_PMD_ORACLE", "pmd-"+nfi.PMDVersion, ".ci/pmd-oracle.sh")
	e := defaultEngine(t, true)
	p := syntax.NewParser()
	defer p.Close()
	scored, invalid := 0, 0
	filepath.WalkDir(filepath.Join(dir, "corpus"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
			return nil
		}
		fs := e.ScoreFile(p, path)
		switch {
		case fs.Status == nfi.StatusInternalError:
			t.Errorf("%s: %v", path, fs.Error)
		case fs.Valid:
			scored++
			if len(fs.Rules) < 40 {
				t.Errorf("%s: judged by %d rules", path, len(fs.Rules))
			}
		case fs.Error == nil:
			t.Errorf("%s: invalid (%s) without a reason", path, fs.Status)
		default:
			invalid++
			t.Logf("invalid: %s: %s %v", path, fs.Status, fs.Error)
		}
		return nil
	})
	t.Logf("%d Java files scored, %d reported invalid", scored, invalid)
	if scored < 1000 {
		t.Errorf("only %d corpus files scored", scored)
	}
}

// TestDeepRecoveryInvalid: a .java file whose parse spends syntax's CPU
// budget (nested generics after a syntax error: quadratic in tree-sitter's
// error recovery) is reported as a syntax error at the place the parse
// had reached, not scored for a minute.
func TestDeepRecoveryInvalid(t *testing.T) {
	src := "let x: " + strings.Repeat("Array<", 20000) + "number" + strings.Repeat(">", 20000) + ";\n"
	p := syntax.NewParser()
	defer p.Close()
	p.SetBudget(200*time.Millisecond, time.Microsecond)
	fs := defaultEngine(t, true).Score(p, "F.java", []byte(src))
	if fs.Valid || fs.Status != nfi.StatusSyntaxError || fs.Error == nil {
		t.Fatalf("status %s, error %v", fs.Status, fs.Error)
	}
	if fs.Error.Line != 1 || fs.Error.Column <= 1 || !strings.Contains(fs.Error.Message, "nesting too deep") {
		t.Errorf("error %+v", *fs.Error)
	}
}
