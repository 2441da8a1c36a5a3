package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// TryBodyRatio reports try statements whose body is a large share of the
// enclosing function's (or module's) code.
//
// Source: PEP 8 ("limit the try clause to the absolute minimum amount of code
// necessary to avoid masking bugs"); SWE-NFI (try-block LOC ratio).
var TryBodyRatio = &nfi.Rule{
	ID: "ERR-T01", Name: "try-body-ratio", Aspect: nfi.ErrorHandling, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 0.5, Cmp: nfi.AtMost, Unit: "ratio"},
	Doc: nfi.Doc{
		Summary: "try body covers too much of the enclosing function",
		What: "For each `try` statement, r = SLOC(try body) ÷ SLOC(body of the nearest enclosing " +
			"def, or of the whole module when the try is not inside a def; a try in a class body " +
			"counts against the module). SLOC counts lines that carry code: not blank, not " +
			"comment-only (lines inside multi-line strings count). The try body is the suite after " +
			"`try:` only, without handlers, else and finally; a nested try counts inside its outer " +
			"one, and is also measured itself. The file passes when the maximum r is at most the " +
			"limit (default 0.5). The measured value is that maximum.",
		Why: "A try that wraps most of a function catches exceptions from statements it was not " +
			"written for, masking bugs; PEP 8 asks to keep it minimal.",
		Bad: "def load(path):\n    try:\n        f = open(path)\n        data = f.read()\n        text = data.strip()\n" +
			"        return parse(text)\n    except OSError:\n        return None\n",
		Good: "def load(path):\n    try:\n        f = open(path)\n    except OSError:\n        return None\n" +
			"    data = f.read()\n    return parse(data)\n",
		Exempt: "Files without try statements pass. The per-try reading was chosen over the " +
			"file-level alternative (Σ try-body SLOC ÷ file SLOC) of the catalog, which rewards padding a file with unrelated code.",
		Source: "PEP 8 (\"limit the try clause to the absolute minimum\"); SWE-NFI try-block LOC ratio",
		Oracle: "custom; Ruff TRY300 and PLW0717 (preview, max statements in try) are related but different measures",
	},
	Kinds: []string{"try_statement"},
	Visit: checkTryBodyRatio,
}

func checkTryBodyRatio(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	body := t.ChildByField(n, "body")
	if body == syntax.NoNode {
		return
	}
	lines := codeLines(p.Module)
	tryLines := lines.count(t.Nodes[body].StartRow, t.Nodes[body].EndRow)
	where := "the module"
	var total int
	if fn := t.Ancestor(n, "function_definition"); fn != syntax.NoNode && t.ChildByField(fn, "body") != syntax.NoNode {
		fb := t.ChildByField(fn, "body")
		total = lines.count(t.Nodes[fb].StartRow, t.Nodes[fb].EndRow)
		where = "function " + t.TextString(t.ChildByField(fn, "name"))
	} else {
		total = lines.total()
	}
	if total == 0 {
		return
	}
	r := float64(tryLines) / float64(total)
	p.Measure(r)
	if p.Exceeds(r) {
		p.Reportf(n, "try body has %d of the %d code lines of %s (ratio %.2f > %g)", tryLines, total, where, r, p.Limit())
	}
}

// lineCounts is a prefix sum over physical lines: cum[r] is the number of
// code lines among rows [0, r).
type lineCounts struct{ cum []int32 }

// count returns the number of code lines among rows [from, to] (0-based, inclusive).
func (l lineCounts) count(from, to uint32) int {
	if int(to)+1 >= len(l.cum) {
		to = uint32(len(l.cum) - 2)
	}
	if from > to {
		return 0
	}
	return int(l.cum[to+1] - l.cum[from])
}

func (l lineCounts) total() int { return int(l.cum[len(l.cum)-1]) }

// codeLines counts the rows that hold a token other than a comment (the
// Code lines of pyast.Lines), once per file.
func codeLines(m *pyast.Module) lineCounts {
	return pyast.Memo(m, "errh.codelines", func() lineCounts {
		ls := m.Lines().List
		cum := make([]int32, len(ls)+1)
		for r := range ls {
			cum[r+1] = cum[r]
			if ls[r].Flags&pyast.Code != 0 {
				cum[r+1]++
			}
		}
		return lineCounts{cum: cum}
	})
}
