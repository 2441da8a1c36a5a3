package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// SilentExcept reports handlers whose body does nothing.
//
// Source: PEP 8; CWE-703 (improper check or handling of exceptional conditions).
var SilentExcept = &nfi.Rule{
	ID: "ERR-P03", Name: "silently-dropped-exception", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "exception is caught and silently dropped",
		What: "An `except` or `except*` body made only of `pass`, `...`, `continue` and/or string " +
			"expression statements, whatever the caught exception type.",
		Why: "A handler that does nothing turns a failure into silent wrong behaviour; if ignoring " +
			"is intended, `contextlib.suppress(E)` says so, and a comment or log line says why.",
		Bad:    "try:\n    os.remove(path)\nexcept FileNotFoundError:\n    pass\n",
		Good:   "with contextlib.suppress(FileNotFoundError):\n    os.remove(path)\n",
		Exempt: "Handlers with any other statement (an assignment, a call, a return) pass.",
		Source: "PEP 8 (\"Programming Recommendations\"); CWE-703",
		Oracle: "Ruff S110/S112 (not exact): by default Ruff only flags `pass`/`continue` bodies of " +
			"untyped, `Exception` or `BaseException` handlers (check-typed-exception = false); the " +
			"catalog is stricter and also flags `except KeyError: pass`, `...` and docstring-only bodies.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"S110", "S112"}},
	Kinds:  handlerKinds,
	Visit:  checkSilentExcept,
}

func checkSilentExcept(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	h := parseHandler(t, n)
	stmts := statements(t, h.body)
	if len(stmts) == 0 {
		return
	}
	for _, s := range stmts {
		switch t.Nodes[s].Kind() {
		case "pass_statement", "continue_statement":
		case "expression_statement":
			e := statements(t, s)
			if len(e) != 1 {
				return
			}
			switch t.Nodes[e[0]].Kind() {
			case "ellipsis", "string", "concatenated_string":
			default:
				return
			}
		default:
			return
		}
	}
	p.Reportf(n, "exception is caught and silently dropped: handle it, log it, or use contextlib.suppress")
}
