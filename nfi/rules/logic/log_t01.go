package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/metrics"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// CyclomaticComplexity reports functions whose cyclomatic complexity,
// counted exactly as radon counts it, exceeds the limit.
//
// Source: McCabe, "A Complexity Measure" (1976); radon 6.0.1 (radon cc).
var CyclomaticComplexity = &nfi.Rule{
	ID: "LOG-T01", Name: "cyclomatic-complexity", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 10, Cmp: nfi.AtMost, Unit: "complexity"},
	Doc: nfi.Doc{
		Summary: "function cyclomatic complexity above the limit",
		What: "Every function, method and nested function is measured with radon's counting " +
			"(nfi/metrics.CyclomaticComplexity): 1, plus 1 per `if`/`elif`, conditional expression, " +
			"`for`/`while` and loop `else`, `except` handler, `try … else`, comprehension `for` and " +
			"`if` clause, `and`/`or` operand beyond the first, and `assert`; `match` adds its cases " +
			"minus one for a `_`/capture case. Nested def and class bodies, decorators and defaults " +
			"are not counted. The file value is the largest function complexity; a function above " +
			"the limit (default 10, radon rank B's upper bound) fails the file.",
		Why:    "Each decision point is another path to understand and test; past about 10 the paths outgrow what a reader can hold.",
		Bad:    "def grade(s):\n    if s > 90:\n        return 'A'\n    elif s > 80:\n        return 'B'\n    elif s > 70:\n        return 'C'\n    elif s > 60:\n        return 'D'\n    elif s > 50 and s % 2 or s == 42:\n        return 'E'\n    for x in range(s):\n        if x:\n            break\n    else:\n        return 'F'\n    return 'G' if s else 'H'\n",
		Good:   "BANDS = [(90, 'A'), (80, 'B'), (70, 'C'), (60, 'D')]\n\ndef grade(s):\n    for low, letter in BANDS:\n        if s > low:\n            return letter\n    return 'F'\n",
		Exempt: "Classes themselves (radon's class rank averages its methods); module-level code.",
		Source: "McCabe 1976; radon 6.0.1 radon/visitors.py ComplexityVisitor (radon cc ranks A 1-5, B 6-10)",
		Oracle: "`radon cc` (not Ruff: C901 counts differently, e.g. no boolean operators). On 318 " +
			"evenly spread standard-library files (11,768 radon blocks, Python 3.11) every function, " +
			"method and closure has radon's complexity, rank, line, end line and column " +
			"(nfi/metrics/radon_test.go). Deliberate difference: radon does not report methods of " +
			"classes nested in a class or defined inside a def (`def f():\\n    class A:\\n        def m(self): ...`); " +
			"this rule measures them too. Files radon cannot parse (Python 2 syntax) are not compared. " +
			"Known divergences: radon's count follows the CPython running it, so `try … except*` adds 0 " +
			"(radon ignores ast.TryStar) and is counted 0 here as well.",
	},
	Oracle: nfi.Oracle{Radon: &nfi.RadonRun{Command: "cc",
		Verdict: "the rule fails a file exactly when a function, method or closure block of radon cc has complexity above the limit (methods of classes nested in a class or a def are measured here only)"}},
	// every node the complexity count needs (see summaryState), not only defs
	Kinds:  summaryKinds,
	Visit:  visitComplexity,
	Finish: checkComplexity,
}

// visitComplexity shows node n to the file's Summarizer and notes the defs.
func visitComplexity(p *nfi.Pass, n syntax.NodeID) {
	st, _ := p.State.(*summaryState)
	if st == nil {
		st = &summaryState{s: pyast.Memo(p.Module, summarizerKey, func() *metrics.Summarizer {
			return metrics.NewSummarizer(p.Tree)
		})}
		st.defs = st.defBuf[:0]
		p.State = st
	}
	st.s.Visit(n)
	if functionKinds.Has(&p.Tree.Nodes[n]) {
		st.defs = append(st.defs, n)
	}
}

func checkComplexity(p *nfi.Pass) {
	st, _ := p.State.(*summaryState)
	if st == nil {
		return // no def
	}
	byDef := st.s.Summary().Complexity.ByDef
	for _, n := range st.defs {
		cc := byDef[n]
		p.Measure(float64(cc))
		if p.Exceeds(float64(cc)) {
			p.Reportf(p.Tree.ChildByField(n, "name"), "function %s has cyclomatic complexity %d (> %g)", funcName(p.Tree, n), cc, p.Limit())
		}
	}
}

// summaryKinds are the node kinds a metrics.Summarizer is shown (also as a
// KindSet), and functionKinds the defs among them.
var (
	summaryKinds   = metrics.SummaryKinds()
	summaryKindSet = pyast.NewKindSet(summaryKinds...)
	functionKinds  = pyast.NewKindSet("function_definition")
)

// summaryState is the Pass.State of LOG-T01: the file's Summarizer, shown
// every node of summaryKinds, and the defs met. LOG-T06 shares the
// Summarizer (stored in the module under summarizerKey) rather than
// showing it the same nodes again.
type summaryState struct {
	s      *metrics.Summarizer
	defs   []syntax.NodeID
	defBuf [32]syntax.NodeID // first storage of defs
}

// summarizerKey is the pyast.Memo key of the file's Summarizer.
const summarizerKey = "logic.summarizer"

// fileSummary returns the file's cyclomatic-complexity totals and Halstead
// counts once every visit is done (in a rule's Finish): those of the
// Summarizer LOG-T01's visits fed, or, when LOG-T01 does not run or met no
// node to show it, of a Summarizer shown here the nodes of summaryKinds
// (for a file without them: a pass over the node kinds, no walk).
func fileSummary(p *nfi.Pass) metrics.Summary {
	return pyast.Memo(p.Module, summarizerKey, func() *metrics.Summarizer {
		t := p.Tree
		s := metrics.NewSummarizer(t)
		for i := range t.Nodes {
			if summaryKindSet.Has(&t.Nodes[i]) {
				s.Visit(syntax.NodeID(i))
			}
		}
		return s
	}).Summary()
}
