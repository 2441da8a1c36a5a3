package style

import (
	"github.com/polynfi/polynfi/nfi"
)

// LineBreakBeforeOperator reports line breaks placed before a binary
// operator inside brackets (pycodestyle W503).
//
// Source: SWE-NFI paper example ("break lines after binary operators"); pycodestyle W503.
var LineBreakBeforeOperator = &nfi.Rule{
	ID: "STY-R06", Name: "break-after-binary-operator", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "break lines after binary operators, not before",
		What: "Inside a logical line, a binary operator token (any operator except " +
			"`()[]{},:.;@=%~` and `...`, plus `and`/`or`) that is the first token after a line " +
			"break (a line break inside brackets; backslash continuations are not line " +
			"breaks), is not in unary context (the previous token is not `(`, `[`, `{`, `,` " +
			"or `;`), and does not follow another binary operator. Comments are skipped.",
		Why: "SWE-NFI's style rule keeps the operator at the end of the line so that a line " +
			"visibly continues. Note that PEP 8 itself recommends breaking before operators " +
			"for new code and permits either style.",
		Bad:    "total = (first\n         + second)\n",
		Good:   "total = (first +\n         second)\n",
		Exempt: "unary operators after an opening bracket or comma (`f(a,\\n  -b)`); `%`, `@`, `~` and `=`.",
		Source: "SWE-NFI (arXiv 2607.27409) Table 2; PEP 8 \"Should a Line Break Before or After a Binary Operator?\"; pycodestyle W503",
		Oracle: "No Ruff rule (Ruff implements neither W503 nor W504). pycodestyle W503 " +
			"(off by default), same semantics with tokens taken from the syntax tree; " +
			"difference: f-strings are single tokens, as in Python before 3.12.",
	},
	Finish: checkLineBreakBeforeOperator,
}

// isBinaryOperator reports pycodestyle's _is_binary_operator for a token
// kind: an operator other than `()[]{},:.;@=%~` and `...`, or and/or.
func isBinaryOperator(k string, named bool) bool {
	if named {
		return false
	}
	switch k {
	case "+", "-", "*", "/", "//", "**", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=",
		"<>", "->", ":=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=",
		"@=", "and", "or":
		return true
	}
	return false
}

func checkLineBreakBeforeOperator(p *nfi.Pass) {
	t := p.Tree
	toks := p.Module.Tokens()
	prev := -1 // index of the previous non-comment token
	for i := range toks {
		tk := &toks[i]
		if tk.Comment {
			continue
		}
		if prev >= 0 && tk.Depth > 0 && tk.Newline {
			k := tk.Kind(t)
			if isBinaryOperator(k, tk.Named(t)) {
				pt := &toks[prev]
				pk := pt.Kind(t)
				unary := !pt.Named(t) && (pk == "(" || pk == "[" || pk == "{" || pk == "," || pk == ";")
				if !unary && !isBinaryOperator(pk, pt.Named(t)) {
					p.ReportAtf(int(tk.Row)+1, t.Column(tk.Node), "line break before binary operator %s", k)
				}
			}
		}
		prev = i
	}
}
