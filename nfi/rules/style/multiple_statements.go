package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MultipleStatements reports several statements on one line: a compound
// statement's body on its header line, or statements joined by `;`.
//
// Source: PEP 8 "Other Recommendations"; Ruff E701, E702, E703 (pycodestyle).
var MultipleStatements = &nfi.Rule{
	ID: "STY-P03", Name: "multiple-statements-on-one-line", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "one statement per line",
		What: "E701: the body of a class, if/elif/else, for, while, with, try/except/finally or " +
			"case clause starts on the header's logical line (`if x: y`). E702: a `;` followed " +
			"by another statement on the same logical line. E703: a `;` ending a statement.",
		Why:    "PEP 8: compound statements on one line are discouraged; one statement per line keeps control flow and coverage visible.",
		Bad:    "if ready: start()\n",
		Good:   "if ready:\n    start()\n",
		Exempt: "a body that is exactly `...` (`class Stub: ...`); a def's body on its line (`def f(): pass`, pycodestyle E704, not part of the rule).",
		Source: "PEP 8 (\"Compound statements (multiple statements on the same line) are generally discouraged\"); Ruff E701-E703",
		Oracle: "Ruff E701, E702, E703, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E701", "E702", "E703"}, Exact: true},
	Kinds: []string{"class_definition", "if_statement", "elif_clause", "else_clause", "while_statement",
		"for_statement", "with_statement", "try_statement", "except_clause", "except_group_clause",
		"finally_clause", "case_clause", ";"},
	Visit: checkMultipleStatements,
}

func checkMultipleStatements(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	src := t.Source
	if t.Nodes[n].Kind() == ";" {
		// The statement after `;` is on this logical line (E702), or the
		// line ends (E703).
		i := t.Nodes[n].EndByte
		for int(i) < len(src) {
			switch src[i] {
			case ' ', '\t', '\f':
				i++
				continue
			case '\\':
				if j := skipContinuation(src, i); j > i {
					i = j
					continue
				}
			}
			break
		}
		if int(i) >= len(src) || src[i] == '\n' || src[i] == '\r' || src[i] == '#' {
			p.Reportf(n, "statement ends with an unnecessary semicolon")
		} else {
			p.Reportf(n, "multiple statements on one line (semicolon)")
		}
		return
	}
	colon, body := syntax.NoNode, syntax.NoNode
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Nodes[c].Kind() {
		case ":":
			colon = c
		case "block":
			body = c
		}
		if body != syntax.NoNode {
			break
		}
	}
	if colon == syntax.NoNode || body == syntax.NoNode {
		return
	}
	first := t.FirstNamedChild(body)
	if first == syntax.NoNode || !sameLogicalLine(src, t.Nodes[colon].EndByte, t.Nodes[first].StartByte) {
		return
	}
	if isEllipsisBody(t, body) {
		return
	}
	p.Reportf(colon, "multiple statements on one line (colon)")
}

// skipContinuation returns the offset after a backslash-newline at i, or i.
func skipContinuation(src []byte, i uint32) uint32 {
	j := i + 1
	if int(j) < len(src) && src[j] == '\r' {
		j++
	}
	if int(j) < len(src) && src[j] == '\n' {
		return j + 1
	}
	return i
}

// isEllipsisBody reports a block that is exactly one `...` statement.
func isEllipsisBody(t *syntax.Tree, body syntax.NodeID) bool {
	var buf [2]syntax.NodeID
	stmts := namedChildren(t, body, buf[:0])
	if len(stmts) != 1 || t.Nodes[stmts[0]].Kind() != "expression_statement" {
		return false
	}
	e := namedChildren(t, stmts[0], buf[:0])
	if len(e) != 1 || t.Nodes[e[0]].Kind() != "ellipsis" {
		return false
	}
	// `...;` is not a lone ellipsis body.
	for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind() == ";" {
			return false
		}
	}
	return true
}
