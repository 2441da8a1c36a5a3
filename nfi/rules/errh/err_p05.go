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
			"search covers the whole handler body, nested defs and classes included, but not nested " +
			"`try` statements (as in Ruff).",
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
	end := t.Nodes[h.body].End
	for i := h.body + 1; i < end; i++ {
		switch t.Nodes[i].Kind {
		case "try_statement":
			i = t.Nodes[i].End - 1
		case "raise_statement":
			if exc, cause := raiseParts(t, i); cause == syntax.NoNode && sameName(t, exc, h.alias) {
				p.Reportf(i, "raise %s re-raises the caught exception: use a bare raise", t.Text(exc))
			}
		}
	}
}
