package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// wrapperTypes are the boxed primitive types. Source: typescript-eslint no-wrapper-object-types.
var wrapperTypes = map[string]bool{"BigInt": true, "Boolean": true, "Number": true, "Object": true, "String": true, "Symbol": true}

// NoWrapperObjectTypes reports boxed primitive types such as `String`.
//
// Source: typescript-eslint no-wrapper-object-types.
var NoWrapperObjectTypes = &nfi.Rule{
	ID: "JS-LIB-P08", Name: "no-wrapper-object-types", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "wrapper object type",
		What:    "The global types `BigInt`, `Boolean`, `Number`, `Object`, `String` or `Symbol` used as a type.",
		Why:     "The wrapper types accept boxed objects nobody means to pass; `string`, `number`... are the primitives.",
		Bad:     "function greet(name: String) {\n  return name;\n}\n",
		Good:    "function greet(name: string) {\n  return name;\n}\n",
		Exempt:  "A file that declares a type or value of that name.",
		Source:  "typescript-eslint no-wrapper-object-types",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/no-wrapper-object-types; the global is resolved by the file's declarations.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/no-wrapper-object-types"}, Exact: true},
	Kinds:  []string{"type_identifier"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		name := t.TextString(n)
		if !wrapperTypes[name] || isTypeDeclName(t, n) || declaredType(p, name) {
			return
		}
		p.Reportf(n, "prefer using the primitive `%s` as a type name", lowerFirst(name))
	},
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}
