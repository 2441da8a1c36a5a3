package pyparse_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/pyparse"
)

// compareTrees returns "" when mine equals tree-sitter's tree node for
// node (kind, field, named, extra, byte span, parent; the points follow
// from the byte span and the line starts, compared once), else a
// description of the first difference.
func compareTrees(ts *syntax.Tree, mine *pyparse.Tree) string {
	n := len(ts.Nodes)
	if len(mine.Nodes) < n {
		n = len(mine.Nodes)
	}
	for i := 0; i < n; i++ {
		a, b := &ts.Nodes[i], &mine.Nodes[i]
		ak, bk := a.Kind(), pyparse.KindName(b.Kind)
		if ak != bk || a.Field() != pyparse.FieldName(b.Field) || a.Named != b.Named || a.Extra != b.Extra ||
			a.StartByte != b.StartByte || a.EndByte != b.EndByte || int32(a.Parent) != b.Parent {
			return fmt.Sprintf("node %d: tree-sitter %s:%s %d-%d parent %d; pyparse %s:%s %d-%d parent %d",
				i, a.Field(), ak, a.StartByte, a.EndByte, a.Parent,
				pyparse.FieldName(b.Field), bk, b.StartByte, b.EndByte, b.Parent)
		}
	}
	if !slices.Equal(ts.LineStarts(), mine.LineStarts) {
		return fmt.Sprintf("line starts differ: tree-sitter %d lines, pyparse %d", len(ts.LineStarts()), len(mine.LineStarts))
	}
	if len(ts.Nodes) != len(mine.Nodes) {
		return fmt.Sprintf("tree-sitter %d nodes, pyparse %d", len(ts.Nodes), len(mine.Nodes))
	}
	return ""
}

func lookPython() (string, error) { return exec.LookPath("python3") }

// cpythonVerdicts runs the machine's python3 ast.parse on every file and
// returns "" (valid) or "line:col: msg" per file, and python3's minor
// version.
func cpythonVerdicts(t testing.TB, files []string) ([]string, int) {
	t.Helper()
	script := `
import ast, sys, json, warnings
warnings.simplefilter("ignore")
print(sys.version_info[1], flush=True)
for line in sys.stdin:
    p = line.rstrip("\n")
    try:
        src = open(p, "rb").read()
        ast.parse(src, p)
        print(json.dumps(""))
    except SyntaxError as e:
        print(json.dumps("%s:%s: %s" % (e.lineno, e.offset, e.msg)))
    except (ValueError, UnicodeError) as e:
        print(json.dumps("0:0: %s" % e))
    sys.stdout.flush()
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 oracle: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sc.Scan()
	var minor int
	fmt.Sscan(sc.Text(), &minor)
	var res []string
	for sc.Scan() {
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		res = append(res, s)
	}
	if len(res) != len(files) {
		t.Fatalf("python3 oracle answered %d of %d files", len(res), len(files))
	}
	return res, minor
}

// corpusFiles is the sample the differential test runs on: an even spread
// of n standard-library files, or, under CI=true or with
// PYPARSE_CORPUS=all, every .py file of the standard library and
// site-packages; PYPARSE_FILES names a file listing the files to use
// instead. Without python3 the test fails under CI=true (skips elsewhere).
func corpusFiles(t testing.TB, n int) []string {
	if list := os.Getenv("PYPARSE_FILES"); list != "" {
		b, err := os.ReadFile(list)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(string(b))
	}
	if _, err := lookPython(); err != nil {
		citest.Missing(t, "python3 is required for the differential test")
	}
	if corpus.WholeCorpus() {
		return corpus.All(t)
	}
	return corpus.StdlibSample(t, n)
}

type diffStats struct {
	files, tsClean, identical int
	bothValid, bothIdentical  int // files tree-sitter and CPython both accept
	validityAgree, lineAgree  int
	falseReject, falseAccept  int
	firstDiffs, validityDiffs []string
}

func runDifferential(t *testing.T, files []string) diffStats {
	verdicts, minor := cpythonVerdicts(t, files)
	p := syntax.NewParser()
	defer p.Close()
	var st diffStats
	for i, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		st.files++
		mine, perr := pyparse.Parse(src, pyparse.Options{Minor: minor})
		if perr != nil && strings.HasPrefix(perr.Msg, pyparse.InternalError) {
			t.Errorf("%s: %v", f, perr)
		}
		want := verdicts[i]
		if (perr == nil) == (want == "") {
			st.validityAgree++
			if perr != nil && strings.HasPrefix(want, fmt.Sprintf("%d:", perr.Line)) {
				st.lineAgree++
			}
		} else {
			got := ""
			if perr != nil {
				got = perr.Error()
				st.falseReject++
			} else {
				st.falseAccept++
			}
			st.validityDiffs = append(st.validityDiffs, fmt.Sprintf("%s: python3 %q, pyparse %q", f, want, got))
		}
		ts, err := p.Parse(syntax.Python, src)
		if err != nil {
			t.Fatal(err)
		}
		if ts.HasError() {
			continue
		}
		st.tsClean++
		if want == "" {
			st.bothValid++
		}
		if mine == nil {
			st.firstDiffs = append(st.firstDiffs, fmt.Sprintf("%s: pyparse rejects: %v", f, perr))
			continue
		}
		if d := compareTrees(ts, mine); d != "" {
			st.firstDiffs = append(st.firstDiffs, f+": "+d)
			continue
		}
		st.identical++
		if want == "" {
			st.bothIdentical++
		}
	}
	return st
}

// TestDifferential compares pyparse with tree-sitter (trees) and with the
// machine's CPython (validity) on a standard-library sample, or on the
// whole standard library and site-packages with PYPARSE_CORPUS=all.
func TestDifferential(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	files := corpusFiles(t, n)
	st := runDifferential(t, files)
	if out := os.Getenv("PYPARSE_DIFFS"); out != "" {
		all := append(append([]string{}, st.firstDiffs...), st.validityDiffs...)
		if err := os.WriteFile(out, []byte(strings.Join(all, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, d := range st.firstDiffs {
		if i >= 15 {
			break
		}
		t.Log("tree:", d)
	}
	for i, d := range st.validityDiffs {
		if i >= 15 {
			break
		}
		t.Log("validity:", d)
	}
	t.Logf("%d files; trees identical on %d of %d files tree-sitter parses without error (%.1f%%); validity agrees with CPython on %d (%.2f%%: %d valid files rejected, %d invalid accepted); first-error line agrees on %d",
		st.files, st.identical, st.tsClean, 100*float64(st.identical)/float64(max(st.tsClean, 1)),
		st.validityAgree, 100*float64(st.validityAgree)/float64(max(st.files, 1)), st.falseReject, st.falseAccept, st.lineAgree)
	t.Logf("files both tree-sitter and CPython accept: %d, identical trees on %d", st.bothValid, st.bothIdentical)
	// Whole corpus (11,827 files here): validity agrees on every file and
	// the trees are identical on every file tree-sitter and CPython both
	// accept. The only files tree-sitter parses without error that get no
	// identical tree are files CPython rejects (no tree is built).
	if st.files == 0 || st.bothValid == 0 {
		t.Fatal("no file compared")
	}
	if st.bothIdentical != st.bothValid {
		t.Errorf("identical trees on %d of the %d files tree-sitter and CPython both accept", st.bothIdentical, st.bothValid)
	}
	if st.validityAgree != st.files {
		t.Errorf("validity agrees with CPython on %d of %d files", st.validityAgree, st.files)
	}
}
