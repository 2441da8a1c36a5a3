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
		What:    "An `except:` clause with no exception type.",
		Why: "A bare except catches SystemExit and KeyboardInterrupt too, so Ctrl-C and sys.exit() " +
			"stop working inside it, and it hides programming errors.",
		Bad:    "try:\n    run()\nexcept:\n    print('failed')\n",
		Good:   "try:\n    run()\nexcept Exception:\n    print('failed')\n",
		Exempt: "None: even a handler that ends in a bare `raise` is reported.",
		Source: "PEP 8 (\"Programming Recommendations\": bare except clauses); pylint W0702",
		Oracle: "Ruff E722, except that Ruff exempts a bare except whose body has a bare `raise` " +
			"among its top-level statements (`except:\\n    cleanup()\\n    raise`), which PEP 8 " +
			"tolerates; the catalog reports it (use `except BaseException:` to say so explicitly).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E722"}, Exact: true},
	Kinds:  []string{"except_clause"},
	Visit:  checkBareExcept,
}

func checkBareExcept(p *nfi.Pass, n syntax.NodeID) {
	if parseHandler(p.Tree, n).typ == syntax.NoNode {
		p.Reportf(n, "bare except: name the exceptions to catch (at least Exception)")
	}
}
