package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// BareExcept reports `except:` clauses without an exception type.
//
// Source: PEP 8 ("A bare except: clause will catch SystemExit and KeyboardInterrupt"); Ruff E722.
var BareExcept = &nfi.Rule{
	ID: "ERR-P01", Name: "bare-except", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "bare except clause",
		What: "An `except:` clause with no exception type, unless one of the handler body's " +
			"top-level statements is a bare `raise` (PEP 8's second tolerated case: clean up, then " +
			"let the exception propagate). The exemption is Ruff's; the catalog text names only the " +
			"missing type, but agreement with Ruff E722 decides.",
		Why: "A bare except catches SystemExit and KeyboardInterrupt too, so Ctrl-C and sys.exit() " +
			"stop working inside it, and it hides programming errors.",
		Bad:    "try:\n    run()\nexcept:\n    print('failed')\n",
		Good:   "try:\n    run()\nexcept Exception:\n    print('failed')\n",
		Exempt: "`except:` whose body has a bare `raise` at its top level (`except:\n    cleanup()\n    raise`). A bare `raise` nested in an `if` does not exempt.",
		Source: "PEP 8 (\"Programming Recommendations\": bare except clauses); pylint W0702",
		Oracle: "Ruff E722, same semantics (including its bare-raise exemption). Measured without " +
			"the exemption, 17 of 598 standard-library files differed from Ruff (97.2% agreement).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E722"}, Exact: true},
	Kinds:  []string{"except_clause"},
	Visit:  checkBareExcept,
}

func checkBareExcept(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	h := parseHandler(t, n)
	if h.typ != syntax.NoNode {
		return
	}
	for _, s := range statements(t, h.body) {
		if t.Nodes[s].Kind() == "raise_statement" {
			if exc, _ := raiseParts(t, s); exc == syntax.NoNode {
				return
			}
		}
	}
	p.Reportf(n, "bare except: name the exceptions to catch (at least Exception)")
}
