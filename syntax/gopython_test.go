package syntax

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
)

// TestParsePythonGoNodes checks that ParsePythonGo's trees are Parse's,
// node for node (every field of Node: symbols, fields, spans, points,
// links), on a standard-library sample wherever tree-sitter has no error
// and CPython's grammar (3.11 here, the oracle's) accepts the file.
func TestParsePythonGoNodes(t *testing.T) {
	p := NewParser()
	defer p.Close()
	same, compared := 0, 0
	for _, f := range corpus.StdlibSample(t, 120) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := p.Parse(Python, src)
		if err != nil {
			t.Fatal(err)
		}
		gt, perr := ParsePythonGo(src, 11)
		if ts.HasError() || perr != nil {
			continue
		}
		compared++
		if len(gt.Nodes) != len(ts.Nodes) {
			t.Errorf("%s: %d nodes, tree-sitter %d", f, len(gt.Nodes), len(ts.Nodes))
			continue
		}
		ok := true
		for i := range ts.Nodes {
			if ts.Nodes[i] != gt.Nodes[i] {
				t.Errorf("%s: node %d (%s): %+v, tree-sitter %+v", f, i, ts.Nodes[i].Kind(), gt.Nodes[i], ts.Nodes[i])
				ok = false
				break
			}
		}
		if ok {
			same++
		}
	}
	if compared < 100 {
		t.Fatalf("only %d files compared", compared)
	}
	t.Logf("identical Node arrays on %d of %d files", same, compared)
}

// TestValidPython checks ValidPython against CPython's verdicts on texts
// that tree-sitter reads differently (a Python 2 print statement, mixed
// bytes and str literals, a keyword as a name), and that one Parser gives
// the same answers when its released storage is reused.
func TestValidPython(t *testing.T) {
	p := NewParser()
	defer p.Close()
	cases := map[string]bool{
		"x = 1":                   true,
		"print >> sys.stderr, x":  true, // a tuple expression in Python 3
		"print x":                 false,
		"x = b'a' 'b'":            false, // cannot mix bytes and nonbytes literals
		"x: int, str":             false,
		"def f(x=1, y): pass":     false,
		"class = 1":               false,
		"\tx = 1":                 false, // unexpected indent
		"match x:\n case 1: pass": true,
		"":                        true,
	}
	for range 2 {
		for src, want := range cases {
			if got := p.ValidPython([]byte(src)); got != want {
				t.Errorf("ValidPython(%q) = %v, want %v", src, got, want)
			}
		}
	}
}
