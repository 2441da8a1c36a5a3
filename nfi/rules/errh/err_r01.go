package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// RaiseWithoutFrom reports `raise X` inside an except handler that does not
// chain the new exception with `from`.
//
// Source: PEP 3134; PEP 8 ("Use exception chaining appropriately"); Ruff B904.
var RaiseWithoutFrom = &nfi.Rule{
	ID: "ERR-R01", Name: "raise-without-from-inside-except", Aspect: nfi.ErrorHandling, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "exception raised inside an except handler is not chained with from",
		What: "Every `raise <expr>` lexically inside an `except` or `except*` body must carry " +
			"`from <cause>` (`from None` is fine). A bare `raise` and `raise e`, where `e` is the " +
			"handler's own `as` name, are fine (re-raises). Like Ruff, the search does not descend " +
			"into nested `try` statements, defs or classes, nor into the `else` of a `for`/`while` " +
			"in the handler; it does descend into `if`/`elif`/`else`, loop bodies, `with` and `match` cases.",
		Why: "Without `from`, the traceback reads \"During handling of the above exception, another " +
			"exception occurred\", which suggests a bug in the handler rather than a deliberate " +
			"translation; `from err` records the cause, `from None` hides it on purpose.",
		Bad:    "def load(path):\n    try:\n        return open(path).read()\n    except OSError:\n        raise ValueError(path)\n",
		Good:   "def load(path):\n    try:\n        return open(path).read()\n    except OSError as err:\n        raise ValueError(path) from err\n",
		Exempt: "Files without a raise in any handler pass.",
		Source: "PEP 3134; PEP 8 (\"Use exception chaining appropriately. `raise X from Y`\"); SWE-IF error_1",
		Oracle: "Ruff B904, same semantics (the handler-body walk follows Ruff's RaiseStatementVisitor).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"B904"}, Exact: true},
	Kinds:  handlerKinds,
	Visit:  checkRaiseWithoutFrom,
}

func checkRaiseWithoutFrom(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	h := parseHandler(t, n)
	var walk func(block syntax.NodeID)
	walk = func(block syntax.NodeID) {
		for _, s := range statements(t, block) {
			switch t.Nodes[s].Kind() {
			case "raise_statement":
				exc, cause := raiseParts(t, s)
				if exc == syntax.NoNode || cause != syntax.NoNode || sameName(t, exc, h.alias) {
					continue
				}
				p.Reportf(s, "raise inside an except handler without from: chain it with `from err` or `from None`")
			case "if_statement":
				walk(t.ChildByField(s, "consequence"))
				for _, alt := range t.ChildrenByField(s, "alternative") {
					if t.Nodes[alt].Kind() == "elif_clause" {
						walk(t.ChildByField(alt, "consequence"))
					} else {
						walk(t.ChildByField(alt, "body"))
					}
				}
			case "for_statement", "while_statement", "with_statement":
				walk(t.ChildByField(s, "body"))
			case "match_statement":
				for _, c := range statements(t, t.ChildByField(s, "body")) {
					if t.Nodes[c].Kind() == "case_clause" {
						walk(t.ChildByField(c, "consequence"))
					}
				}
			}
		}
	}
	walk(h.body)
}
