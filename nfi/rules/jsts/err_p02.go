package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoUselessCatch reports a catch clause that only rethrows what it caught.
//
// Source: ESLint no-useless-catch.
var NoUselessCatch = &nfi.Rule{
	ID: "JS-ERR-P02", Name: "no-useless-catch", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "catch clause only rethrows",
		What: "A catch clause whose parameter is an identifier and whose body is only `throw` of that identifier " +
			"(reported on the try statement when it has no finally clause, on the catch clause otherwise).",
		Why:    "Catching to rethrow unchanged adds nothing but indentation and a misleading hint of handling.",
		Bad:    "try {\n  f();\n} catch (e) {\n  throw e;\n}\n",
		Good:   "try {\n  f();\n} catch (e) {\n  log(e);\n  throw e;\n}\n",
		Source: "ESLint no-useless-catch",
		Oracle: "ESLint 10.15.0 no-useless-catch: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-useless-catch"}, Exact: true},
	Kinds:  []string{"catch_clause"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		param, body := t.ChildByField(n, "parameter"), t.ChildByField(n, "body")
		if param == syntax.NoNode || t.Kind(param) != "identifier" || body == syntax.NoNode {
			return
		}
		var stmts []syntax.NodeID
		for _, c := range t.NamedChildren(body) {
			if !t.Node(c).Extra {
				stmts = append(stmts, c)
			}
		}
		if len(stmts) != 1 || t.Kind(stmts[0]) != "throw_statement" {
			return
		}
		a := t.FirstNamedChild(stmts[0])
		for a != syntax.NoNode && t.Node(a).Extra {
			a = t.Node(a).NextSibling
		}
		if a == syntax.NoNode || !identText(t, a, t.TextString(param)) {
			return
		}
		try := t.Parent(n)
		if t.ChildByField(try, "finalizer") != syntax.NoNode {
			p.Reportf(n, "unnecessary catch clause")
		} else {
			p.Reportf(try, "unnecessary try/catch wrapper")
		}
	},
}
