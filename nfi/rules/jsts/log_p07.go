package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// validTypes are the results typeof can give. Source: ECMA-262 §13.5.3.
var validTypes = map[string]bool{"symbol": true, "undefined": true, "object": true, "boolean": true,
	"number": true, "string": true, "function": true, "bigint": true}

// ValidTypeof reports typeof compared with a value typeof never gives.
//
// Source: ESLint valid-typeof (requireStringLiterals false).
var ValidTypeof = &nfi.Rule{
	ID: "JS-LOG-P07", Name: "valid-typeof", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "typeof compared with an impossible value",
		What: "`typeof x` compared (`==`, `===`, `!=`, `!==`) with a literal or a template without " +
			"substitutions that is not one of symbol, undefined, object, boolean, number, string, function, " +
			"bigint; or with the global `undefined`.",
		Why:    "`typeof x === \"strng\"` is always false: a typo that silently disables a branch.",
		Bad:    "if (typeof x === \"strng\") {\n  f();\n}\n",
		Good:   "if (typeof x === \"string\") {\n  f();\n}\n",
		Source: "ESLint valid-typeof",
		Oracle: "ESLint 10.15.0 valid-typeof with its defaults: same semantics for literals written without escapes.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"valid-typeof"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		switch operator(t, n) {
		case "==", "===", "!=", "!==":
		default:
			return
		}
		l, r := unparen(t, t.ChildByField(n, "left")), unparen(t, t.ChildByField(n, "right"))
		for _, pair := range [][2]syntax.NodeID{{l, r}, {r, l}} {
			if !isTypeof(t, pair[0]) || pair[1] == syntax.NoNode {
				continue
			}
			s := pair[1]
			switch t.Kind(s) {
			case "string":
				v := t.TextString(s)
				if len(v) >= 2 && !validTypes[v[1:len(v)-1]] {
					p.Reportf(s, "invalid typeof comparison value")
				}
			case "template_string":
				if t.FirstChildOfKind(s, "template_substitution") == syntax.NoNode {
					v := t.TextString(s)
					if !validTypes[v[1:len(v)-1]] {
						p.Reportf(s, "invalid typeof comparison value")
					}
				}
			case "number", "true", "false", "null", "regex":
				p.Reportf(s, "invalid typeof comparison value")
			case "undefined":
				if !declared(p)["undefined"] {
					p.Reportf(s, "typeof comparison with undefined")
				}
			case "identifier":
				if t.TextString(s) == "undefined" && !declared(p)["undefined"] {
					p.Reportf(s, "typeof comparison with undefined")
				}
			}
		}
	},
}

func isTypeof(t *syntax.Tree, n syntax.NodeID) bool {
	return n != syntax.NoNode && t.Kind(n) == "unary_expression" && operator(t, n) == "typeof"
}
