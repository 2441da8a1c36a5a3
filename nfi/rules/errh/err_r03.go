package errh

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ErrorSuffix reports exception classes whose name does not end in "Error".
//
// Source: PEP 8 ("you should use the suffix 'Error' on your exception names"); Ruff N818.
var ErrorSuffix = &nfi.Rule{
	ID: "ERR-R03", Name: "error-suffix-on-exception-name", Aspect: nfi.ErrorHandling, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "exception class name does not end in Error",
		What: "A class with a direct positional base that is the bare name `Exception` or a bare " +
			"name ending in `Error` must have a name ending in `Error`. Only plain names count as " +
			"bases (as in Ruff N818): `errors.FooError`, `BaseException` and `ValueException` bases " +
			"are not considered, and names are compared as written, without resolution.",
		Why:    "The suffix tells a reader at the raise and except sites that the class is an error.",
		Bad:    "class ParseFailure(ValueError):\n    pass\n",
		Good:   "class ParseError(ValueError):\n    pass\n",
		Exempt: "Warnings and other exceptions whose bases are not named `Exception`/`*Error` pass.",
		Source: "PEP 8 (\"Exception Names\": use the suffix \"Error\")",
		Oracle: "Ruff N818, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"N818"}, Exact: true},
	Kinds:  []string{"class_definition"},
	Visit:  checkErrorSuffix,
}

func checkErrorSuffix(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	name := t.ChildByField(n, "name")
	if name == syntax.NoNode || bytes.HasSuffix(t.Text(name), []byte("Error")) {
		return
	}
	for _, b := range positionalBases(t, n) {
		if t.Nodes[b].Kind() != "identifier" {
			continue
		}
		if s := t.Text(b); string(s) == "Exception" || bytes.HasSuffix(s, []byte("Error")) {
			p.Reportf(name, "exception class %s should be named with an Error suffix", t.Text(name))
			return
		}
	}
}
