package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoNamespace reports TypeScript namespaces and internal modules.
//
// Source: typescript-eslint no-namespace (allowDeclarations false, allowDefinitionFiles true).
var NoNamespace = &nfi.Rule{
	ID: "JS-LIB-P05", Name: "no-namespace", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "TypeScript namespace",
		What: "A `namespace X {}` or `module X {}` declaration (not `declare module \"name\"` nor `declare global`), " +
			"in a file other than a .d.ts declaration file; a nested `namespace A.B` is reported once.",
		Why:    "Namespaces are TypeScript's pre-ES2015 module system; ES modules replace them.",
		Bad:    "namespace Geometry {\n  export const pi = 3.14;\n}\n",
		Good:   "export const pi = 3.14;\n",
		Source: "typescript-eslint no-namespace",
		Oracle: "typescript-eslint 8.73.0 @typescript-eslint/no-namespace with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/no-namespace"}, Exact: true},
	Kinds:  []string{"internal_module", "module"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		name := t.ChildByField(n, "name")
		if name == syntax.NoNode || t.Kind(name) == "string" {
			return
		}
		if t.TextString(name) == "global" && t.Kind(n) == "module" {
			return
		}
		if p.State == nil {
			p.State = isDeclarationFile(p)
		}
		if p.State.(bool) {
			return
		}
		p.Reportf(n, "ES2015 module syntax is preferred over namespaces")
	},
}

// isDeclarationFile reports a TypeScript declaration file (.d.ts, .d.mts,
// .d.cts), by the path Score was given.
func isDeclarationFile(p *nfi.Pass) bool {
	return p.Path != "" && len(p.Path) > 5 && (hasSuffixFold(p.Path, ".d.ts") || hasSuffixFold(p.Path, ".d.mts") || hasSuffixFold(p.Path, ".d.cts"))
}

func hasSuffixFold(s, suf string) bool {
	if len(s) < len(suf) {
		return false
	}
	for i := 0; i < len(suf); i++ {
		a, b := s[len(s)-len(suf)+i], suf[i]
		if a|0x20 != b|0x20 {
			return false
		}
	}
	return true
}
