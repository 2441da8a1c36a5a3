package logic

import (
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/metrics"
)

// MaintainabilityIndex reports files whose maintainability index, computed
// with radon's formula, is at or below the limit.
//
// Source: Oman & Hagemeister (1992); radon 6.0.1 (radon mi).
var MaintainabilityIndex = &nfi.Rule{
	ID: "LOG-T06", Name: "maintainability-index", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 19, Cmp: nfi.Above, Unit: "MI"},
	Doc: nfi.Doc{
		Summary: "file maintainability index at or below the limit",
		What: "radon's MI of the whole file (nfi/metrics.MaintainabilityIndex): " +
			"max(0, min(100, (171 − 5.2·ln V − 0.23·G − 16.2·ln L + 50·sin(√(2.46·rad(C))))·100/171)) " +
			"with V the Halstead volume, G radon's total cyclomatic complexity, L the logical lines " +
			"(LLOC) and C the percentage of comment plus multi-line-string lines per SLOC; 100 when " +
			"V or L is 0. The file passes when MI > 19 (radon rank A).",
		Why:    "The index combines size, decision count and operator/operand density; rank B and C files are the ones reviewers struggle to change safely.",
		Bad:    lowMISource,
		Good:   "def add(a, b):\n    return a + b\n",
		Exempt: "Empty files and files without operators (MI 100).",
		Source: "Oman & Hagemeister 1992; radon 6.0.1 radon/metrics.py mi_visit (radon mi: A > 19, B 10-19, C ≤ 9)",
		Oracle: "`radon mi` (multi-line strings counted as comments, its default). On 318 standard-library " +
			"files every MI equals radon's to within 1e-13 and every rank matches (nfi/metrics/radon_test.go).",
	},
	Oracle: nfi.Oracle{Radon: &nfi.RadonRun{Command: "mi",
		Verdict: "the rule fails a file exactly when radon mi gives it an mi at or below the limit"}},
	// no visits: the counts come from LOG-T01's Summarizer or a walk (see fileSummary)
	Finish: checkMI,
}

func checkMI(p *nfi.Pass) {
	raw, _ := metrics.RawMetricsTree(p.Tree)
	s := fileSummary(p)
	mi := metrics.MaintainabilityIndex(s.Halstead.Volume, s.Complexity.Total, raw.LLOC, metrics.CommentPercent(raw, true))
	p.Measure(mi)
	if p.Exceeds(mi) {
		p.ReportAtf(1, 1, "maintainability index %.2f (rank %s) is not above %g", mi, metrics.MIRank(mi), p.Limit())
	}
}

// lowMISource is a long, branchy function whose MI is 0 (rank C).
var lowMISource = func() string {
	var b strings.Builder
	b.WriteString("def f(a, b, c):\n    x = 0\n")
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&b, "    if a > %d and b < %d or c == %d:\n        x = x + a * %d - b // %d + c %% %d\n", i, i, i, i, i+1, i+2)
	}
	b.WriteString("    return x\n")
	return b.String()
}()
