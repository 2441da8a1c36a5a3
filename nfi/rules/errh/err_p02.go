package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// BlindExcept reports handlers that catch Exception or BaseException and
// neither re-raise nor log the traceback.
//
// Source: PEP 8 ("mention specific exceptions whenever possible"); Ruff BLE001.
var BlindExcept = &nfi.Rule{
	ID: "ERR-P02", Name: "blind-except", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "handler catches Exception or BaseException without re-raising or logging it",
		What: "An `except` or `except*` whose type (alone or inside a tuple) resolves to the builtin `Exception` or " +
			"`BaseException`, unless its body (outside nested defs and classes) re-raises — a bare " +
			"`raise`, `raise e` of the bound name, or `raise X from e` — or logs the traceback: a call " +
			"to `logging.exception(...)`, to any `<obj>.exception(...)`, or any call passing " +
			"`exc_info=` with a value other than `False`/`None`.",
		Why: "A blind handler also catches the bugs the code was not written to expect (NameError, " +
			"TypeError) and, without a traceback, makes them invisible.",
		Bad:    "def load(path):\n    try:\n        return parse(path)\n    except Exception:\n        return None\n",
		Good:   "def load(path):\n    try:\n        return parse(path)\n    except (OSError, ValueError):\n        return None\n",
		Exempt: "Handlers that re-raise or log with a traceback, as described above.",
		Source: "PEP 8 (\"Programming Recommendations\": catch specific exceptions)",
		Oracle: "Ruff BLE001 (not exact): Ruff accepts only logger-like receivers for `.exception()` " +
			"and `.error(exc_info=True)`; the catalog accepts any " +
			"`.exception()` call or `exc_info=` argument, e.g. `except Exception: self.fail_with(exc_info=True)` passes here.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"BLE001"}},
	Kinds:  handlerKinds,
	Visit:  checkBlindExcept,
}

func checkBlindExcept(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	h := parseHandler(t, n)
	var blind syntax.NodeID = syntax.NoNode
	for _, c := range caughtTypes(t, h.typ) {
		if resolvesTo(p.Module, c, "builtins.Exception", "builtins.BaseException") {
			blind = c
			break
		}
	}
	if blind == syntax.NoNode || h.body == syntax.NoNode || reraisesOrLogs(t, h) {
		return
	}
	p.Reportf(blind, "blind except %s: catch specific exceptions, or re-raise or log the traceback", t.Text(blind))
}

// reraisesOrLogs reports whether the handler body re-raises or logs the
// traceback (see BlindExcept's doc).
func reraisesOrLogs(t *syntax.Tree, h handler) bool {
	end := t.Nodes[h.body].End
	for i := h.body + 1; i < end; i++ {
		nd := &t.Nodes[i]
		switch nd.Kind() {
		case "function_definition", "class_definition", "lambda":
			i = nd.End - 1
		case "raise_statement":
			exc, cause := raiseParts(t, i)
			if exc == syntax.NoNode || sameName(t, exc, h.alias) || sameName(t, cause, h.alias) {
				return true
			}
		case "call":
			if f := t.ChildByField(i, "function"); f != syntax.NoNode && t.Nodes[f].Kind() == "attribute" {
				if a := t.ChildByField(f, "attribute"); a != syntax.NoNode && string(t.Text(a)) == "exception" {
					return true
				}
			}
		case "keyword_argument":
			name, val := t.ChildByField(i, "name"), t.ChildByField(i, "value")
			if name != syntax.NoNode && string(t.Text(name)) == "exc_info" && val != syntax.NoNode {
				if k := t.Nodes[val].Kind(); k != "false" && k != "none" {
					return true
				}
			}
		}
	}
	return false
}
