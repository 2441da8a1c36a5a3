package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyStatements reports functions with more statements than the limit,
// counted the way pylint and Ruff PLR0915 count them.
//
// Source: pylint R0915 too-many-statements (max-statements=50); Ruff PLR0915.
var TooManyStatements = &nfi.Rule{
	ID: "STY-T03", Name: "too-many-statements", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 50, Cmp: nfi.AtMost, Unit: "statements"},
	Doc: nfi.Doc{
		Summary: "functions have at most 50 statements",
		What: "For every def (nested defs and methods too), the statements of its body counted " +
			"as Ruff's num_statements (which copies pylint): each simple statement +1, return " +
			"+0; if +1 plus +1 per elif/else; for +0 (body and else counted); while +1; with " +
			"+1; nested def +1 plus its body; class +1 (body not counted); match +1 plus +1 " +
			"per case; try +1, else +1, finally +2, +1 per handler and +1 more with several " +
			"handlers. Block bodies are counted recursively. The measured value is the largest count.",
		Why:    "Long functions do too many things; the limit pushes towards small, named steps.",
		Bad:    "def f():\n" + repeatLines("    x = 1\n", 51),
		Good:   "def f():\n" + repeatLines("    x = 1\n", 50),
		Exempt: "nothing; a file without functions passes.",
		Source: "pylint too-many-statements (default 50); Ruff PLR0915 (crates/ruff_linter/src/rules/pylint/rules/too_many_statements.rs)",
		Oracle: "Ruff PLR0915, same counting.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0915"}, RuffLimit: "lint.pylint.max-statements", Exact: true},
	Kinds:  []string{"function_definition"},
	Visit:  checkTooManyStatements,
}

func repeatLines(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return string(out)
}

func checkTooManyStatements(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	body := t.ChildByField(n, "body")
	if body == syntax.NoNode {
		return
	}
	count := numStatements(t, body)
	p.Measure(float64(count))
	if p.Exceeds(float64(count)) {
		id, name := defName(t, n)
		if id == syntax.NoNode {
			id = n
		}
		p.Reportf(id, "function %s has %d statements (> %d)", name, count, int(p.Limit()))
	}
}

// numStatements counts the statements of a block (or of a clause holding a
// block) with Ruff's num_statements rules.
func numStatements(t *syntax.Tree, block syntax.NodeID) int {
	count := 0
	for s := t.Nodes[block].FirstChild; s != syntax.NoNode; s = t.Nodes[s].NextSibling {
		nd := &t.Nodes[s]
		if !nd.Named || nd.Extra {
			continue
		}
		count += stmtCount(t, s)
	}
	return count
}

// blockOf returns the block child of a clause (else_clause, except_clause, ...).
func blockOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	return t.FirstChildOfKind(n, "block")
}

func countBlock(t *syntax.Tree, n syntax.NodeID) int {
	if b := blockOf(t, n); b != syntax.NoNode {
		return numStatements(t, b)
	}
	return 0
}

func stmtCount(t *syntax.Tree, s syntax.NodeID) int {
	switch t.Nodes[s].Kind() {
	case "return_statement":
		return 0
	case "decorated_definition":
		if d := t.ChildByField(s, "definition"); d != syntax.NoNode {
			return stmtCount(t, d)
		}
		return 1
	case "function_definition", "with_statement":
		return 1 + countBlock(t, s)
	case "if_statement":
		c := 1 + countBlock(t, s)
		for a := t.Nodes[s].FirstChild; a != syntax.NoNode; a = t.Nodes[a].NextSibling {
			if k := t.Nodes[a].Kind(); k == "elif_clause" || k == "else_clause" {
				c += 1 + countBlock(t, a)
			}
		}
		return c
	case "for_statement", "while_statement":
		c := countBlock(t, s)
		if t.Nodes[s].Kind() == "while_statement" {
			c++
		}
		if e := t.FirstChildOfKind(s, "else_clause"); e != syntax.NoNode {
			c += countBlock(t, e)
		}
		return c
	case "match_statement":
		c := 1
		if b := t.ChildByField(s, "body"); b != syntax.NoNode {
			for cs := t.Nodes[b].FirstChild; cs != syntax.NoNode; cs = t.Nodes[cs].NextSibling {
				if t.Nodes[cs].Kind() == "case_clause" {
					c += 1 + countBlock(t, cs)
				}
			}
		}
		return c
	case "try_statement":
		c := 1 + countBlock(t, s)
		handlers := 0
		for a := t.Nodes[s].FirstChild; a != syntax.NoNode; a = t.Nodes[a].NextSibling {
			switch t.Nodes[a].Kind() {
			case "else_clause":
				c += 1 + countBlock(t, a)
			case "finally_clause":
				c += 2 + countBlock(t, a)
			case "except_clause", "except_group_clause":
				handlers++
				c += 1 + countBlock(t, a)
			}
		}
		if handlers > 1 {
			c++
		}
		return c
	}
	return 1
}
