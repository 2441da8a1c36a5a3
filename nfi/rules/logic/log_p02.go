package logic

import (
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// WhileTrue reports loops whose condition is a constant true value.
//
// Source: Tufts CS 40 coding standards (explicit loop conditions).
var WhileTrue = &nfi.Rule{
	ID: "LOG-P02", Name: "while-true", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "loop condition is a constant true value",
		What: "A `while` statement whose condition (parentheses stripped) is `True`, a non-zero " +
			"integer or float literal, or a non-empty string or bytes literal. A `while True:` that " +
			"contains a `break` still counts.",
		Why:    "An always-true condition hides the loop's real exit condition in its body, where readers and tools have to search for it.",
		Bad:    "while True:\n    line = read()\n    if not line:\n        break\n",
		Good:   "line = read()\nwhile line:\n    line = read()\n",
		Exempt: "Conditions that are names or expressions, even if constant at run time (`while RUNNING:`).",
		Source: "Tufts CS 40 coding standards (explicit loop conditions)",
		Oracle: "No Ruff equivalent (UP048 only rewrites `while 1` to `while True`).",
	},
	Kinds: []string{"while_statement"},
	Visit: checkWhileTrue,
}

func checkWhileTrue(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	c := unparen(t, conditionField.Child(t, n))
	if c == syntax.NoNode || !constantTrue(t, c) {
		return
	}
	p.Reportf(n, "while loop condition %s is always true", t.TextString(c))
}

func constantTrue(t *syntax.Tree, c syntax.NodeID) bool {
	switch t.Kind(c) {
	case "true":
		return true
	case "integer", "float":
		s := strings.ToLower(strings.ReplaceAll(t.TextString(c), "_", ""))
		s = strings.TrimSuffix(s, "j")
		if v, err := strconv.ParseInt(s, 0, 64); err == nil {
			return v != 0
		}
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			return v != 0
		}
		return true // too large for int64: not zero
	case "string":
		if t.FirstChildOfKind(c, "interpolation") != syntax.NoNode {
			return false
		}
		return t.FirstChildOfKind(c, "string_content") != syntax.NoNode || t.FirstChildOfKind(c, "escape_sequence") != syntax.NoNode
	case "concatenated_string":
		for k := t.Nodes[c].FirstChild; k != syntax.NoNode; k = t.Nodes[k].NextSibling {
			if t.Kind(k) == "string" && constantTrue(t, k) {
				return true
			}
		}
	}
	return false
}
