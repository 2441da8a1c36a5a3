package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TypeComparison reports `==`/`!=` comparisons of types.
//
// Source: PEP 8 "Programming Recommendations"; Ruff E721 (pycodestyle).
var TypeComparison = &nfi.Rule{
	ID: "STY-P09", Name: "type-comparison", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no type comparison with == or !=",
		What: "An `==` or `!=` in a comparison chain where either operand (parentheses removed) " +
			"is known to be a type: a call of the builtin `type(...)`, or the name of a " +
			"builtin class (int, str, list, dict, ..., the builtin exceptions) not rebound in " +
			"the file (Ruff E721).",
		Why:    "PEP 8: object type comparisons should use isinstance() (or `is` for exact types); == ignores subclasses and can be overridden.",
		Bad:    "def f(x):\n    return type(x) == int\n",
		Good:   "def f(x):\n    return isinstance(x, int)\n",
		Exempt: "comparisons where either side is `numpy.dtype(...)` or an `.dtype` attribute; `is`/`is not` comparisons.",
		Source: "PEP 8 (\"Object type comparisons should always use isinstance() instead of comparing types directly\"); Ruff E721",
		Oracle: "Ruff E721, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E721"}, Exact: true},
	Kinds:  []string{"comparison_operator"},
	Visit:  checkTypeComparison,
}

// builtinTypes are the builtin names Ruff's E721 treats as types.
// Source: Ruff pycodestyle rules/type_comparison.rs is_type (verified
// against ruff 0.17 on every name of Python 3.11's builtins).
var builtinTypes = map[string]bool{}

func init() {
	for _, s := range []string{"bool", "bytearray", "bytes", "classmethod", "complex", "dict", "enumerate",
		"filter", "float", "frozenset", "int", "list", "map", "memoryview", "object", "property", "range",
		"reversed", "set", "slice", "staticmethod", "str", "super", "tuple", "type", "zip",
		"ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BlockingIOError",
		"BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError", "ConnectionAbortedError",
		"ConnectionError", "ConnectionRefusedError", "ConnectionResetError", "DeprecationWarning",
		"EOFError", "EnvironmentError", "Exception", "FileExistsError", "FileNotFoundError",
		"FloatingPointError", "FutureWarning", "GeneratorExit", "IOError", "ImportError",
		"ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
		"KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError",
		"NameError", "NotADirectoryError", "NotImplementedError", "OSError", "OverflowError",
		"PendingDeprecationWarning", "PermissionError", "ProcessLookupError", "RecursionError",
		"ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration",
		"StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError",
		"TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
		"UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError",
		"Warning", "ZeroDivisionError"} {
		builtinTypes[s] = true
	}
}

func checkTypeComparison(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	var ob [4]syntax.NodeID
	var pb [4]string
	opnd, ops := comparison(t, n, ob[:0], pb[:0])
	if len(opnd) != len(ops)+1 {
		return
	}
	for i, op := range ops {
		if op != "==" && op != "!=" {
			continue
		}
		l, r := unparen(t, opnd[i]), unparen(t, opnd[i+1])
		if !isType(p, l) && !isType(p, r) {
			continue
		}
		if isDtype(p, l) || isDtype(p, r) {
			continue
		}
		p.Reportf(n, "type comparison with %s; use isinstance() or is", op)
	}
}

func isType(p *nfi.Pass, n syntax.NodeID) bool {
	t := p.Tree
	if n == syntax.NoNode {
		return false
	}
	switch t.Nodes[n].Kind() {
	case "call":
		q, _ := p.Module.QualifiedName(t.ChildByField(n, "function"))
		return q == "builtins.type"
	case "identifier":
		if !builtinTypes[string(t.Text(n))] {
			return false
		}
		q, _ := p.Module.QualifiedName(n)
		return q == "builtins."+string(t.Text(n))
	}
	return false
}

func isDtype(p *nfi.Pass, n syntax.NodeID) bool {
	t := p.Tree
	if n == syntax.NoNode {
		return false
	}
	switch t.Nodes[n].Kind() {
	case "call":
		q, _ := p.Module.QualifiedName(t.ChildByField(n, "function"))
		return q == "numpy.dtype"
	case "attribute":
		a := t.ChildByField(n, "attribute")
		return a != syntax.NoNode && string(t.Text(a)) == "dtype"
	}
	return false
}
