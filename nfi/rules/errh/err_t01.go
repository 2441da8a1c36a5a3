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
	st, ok := p.State.(*tryLines)
	if !ok {
		st = &tryLines{lines: p.Module.Lines().List, module: -1, fn: syntax.NoNode}
		p.State = st
	}
	tryLines := st.count(t.Row(t.Nodes[body].StartByte), t.Row(t.Nodes[body].EndByte))
	where := "the module"
	var total int
	if fn := t.Ancestor(n, "function_definition"); fn != syntax.NoNode && t.ChildByField(fn, "body") != syntax.NoNode {
		if fn != st.fn {
			fb := t.ChildByField(fn, "body")
			st.fn, st.fnLines = fn, st.count(t.Row(t.Nodes[fb].StartByte), t.Row(t.Nodes[fb].EndByte))
		}
		total = st.fnLines
		where = "function " + t.TextString(t.ChildByField(fn, "name"))
	} else {
		if st.module < 0 {
			st.module = st.count(0, uint32(len(st.lines)))
		}
		total = st.module
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

// tryLines is ERR-T01's per-file state: the line table and the code line
// counts of the module and of the last function asked for (the tries of
// one function come one after another), counted on demand.
type tryLines struct {
	lines   []pyast.Line
	module  int // -1 until counted
	fn      syntax.NodeID
	fnLines int
}

// count returns the number of code lines (pyast.Code) among rows [from,
// to] (0-based, inclusive; rows past the end are ignored).
func (l *tryLines) count(from, to uint32) int {
	last := min(int(to), len(l.lines)-1)
	n := 0
	for r := int(from); r <= last; r++ {
		if l.lines[r].Flags&pyast.Code != 0 {
			n++
		}
	}
	return n
}
