package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoRequireImports reports CommonJS require in TypeScript.
//
// Source: typescript-eslint no-require-imports (allow [], allowAsImport false).
var NoRequireImports = &nfi.Rule{
	ID: "JS-LIB-P06", Name: "no-require-imports", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "CommonJS require in TypeScript",
		What:    "A call of the global `require(...)` (or `require?.(...)`), and `import x = require(\"...\")`.",
		Why:     "require gives untyped values and hides the dependency from the module graph; import keeps both.",
		Bad:     "const fs = require(\"fs\");\n",
		Good:    "import * as fs from \"fs\";\n",
		Exempt:  "A file that declares a name require.",
		Source:  "typescript-eslint no-require-imports",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/no-require-imports with its defaults; the global is resolved by the file's declarations.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/no-require-imports"}, Exact: true},
	Kinds:  []string{"call_expression", "import_require_clause"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if t.Kind(n) == "import_require_clause" {
			p.Reportf(t.Parent(n), "a `require()` style import is forbidden")
			return
		}
		if identText(t, t.ChildByField(n, "function"), "require") && !declared(p)["require"] {
			p.Reportf(n, "a `require()` style import is forbidden")
		}
	},
}
