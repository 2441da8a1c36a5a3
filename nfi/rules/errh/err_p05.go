package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// VerboseRaise reports `raise e` of the handler's own exception.
//
// Source: tryceratops TRY201 ("Use raise without specifying exception name").
var VerboseRaise = &nfi.Rule{
	ID: "ERR-P05", Name: "verbose-raise", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "re-raises the caught exception by name instead of with a bare raise",
		What: "Inside `except ... as e` (or `except* ... as e`), a `raise e` without `from`. The " +
			"search covers the whole handler body, nested defs and classes included; of a nested `try` " +
			"it covers only the statements nested inside compound statements of its body and " +
			"`finally` (exactly Ruff's walk).",
		Why: "A bare `raise` re-raises the active exception unchanged; naming it is noise and " +
			"invites mistakes when the name is rebound.",
		Bad:    "try:\n    run()\nexcept ValueError as err:\n    log(err)\n    raise err\n",
		Good:   "try:\n    run()\nexcept ValueError as err:\n    log(err)\n    raise\n",
		Exempt: "`raise e from x`, and raising a different name.",
		Source: "tryceratops TRY201",
		Oracle: "Ruff TRY201, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"TRY201"}, Exact: true},
	Kinds:  handlerKinds,
	Visit:  checkVerboseRaise,
}

func checkVerboseRaise(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	h := parseHandler(t, n)
	if h.alias == syntax.NoNode || h.body == syntax.NoNode {
		return
	}
	// The walk mirrors Ruff's tryceratops RaiseStatementVisitor: a nested
	// try contributes the statements nested in its body and finally
	// statements, but not raises sitting directly in them, nor anything in
	// its handlers or else.
	var visit, walk func(s syntax.NodeID)
	visit = func(s syntax.NodeID) {
		switch t.Nodes[s].Kind() {
		case "raise_statement":
			if exc, cause := raiseParts(t, s); cause == syntax.NoNode && sameName(t, exc, h.alias) {
				p.Reportf(s, "raise %s re-raises the caught exception: use a bare raise", t.Text(exc))
			}
		case "try_statement":
			for _, c := range statements(t, t.ChildByField(s, "body")) {
				walk(c)
			}
			if f := t.FirstChildOfKind(s, "finally_clause"); f != syntax.NoNode {
				for _, c := range statements(t, t.FirstChildOfKind(f, "block")) {
					walk(c)
				}
			}
		default:
			walk(s)
		}
	}
	walk = func(s syntax.NodeID) { forEachChildStatement(t, s, visit) }
	for _, s := range statements(t, h.body) {
		visit(s)
	}
}
