package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoAsyncPromiseExecutor reports `new Promise(async ...)`.
//
// Source: ESLint no-async-promise-executor.
var NoAsyncPromiseExecutor = &nfi.Rule{
	ID: "JS-ERR-P03", Name: "no-async-promise-executor", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "async promise executor",
		What:    "`new Promise(executor)` where the executor is an async function or async arrow function.",
		Why:     "An error thrown in an async executor rejects a promise nobody holds: it never rejects the new Promise.",
		Bad:     "const p = new Promise(async (resolve) => {\n  resolve(await f());\n});\n",
		Good:    "const p = f();\n",
		Source:  "ESLint no-async-promise-executor",
		Oracle:  "ESLint 10.15.0 no-async-promise-executor: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-async-promise-executor"}, Exact: true},
	Kinds:  []string{"new_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if !identText(t, t.ChildByField(n, "constructor"), "Promise") {
			return
		}
		args := t.ChildByField(n, "arguments")
		if args == syntax.NoNode {
			return
		}
		first := syntax.NoNode
		for _, c := range t.NamedChildren(args) {
			if !t.Node(c).Extra {
				first = c
				break
			}
		}
		first = unparen(t, first)
		if first == syntax.NoNode {
			return
		}
		switch t.Kind(first) {
		case "arrow_function", "function_expression", "function":
			if c := t.Node(first).FirstChild; c != syntax.NoNode && t.Kind(c) == "async" {
				p.Reportf(first, "promise executor functions should not be async")
			}
		}
	},
}
