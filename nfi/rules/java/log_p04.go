package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// referenced reports whether an identifier spelled name occurs in the
// node range [from, to) other than at skip, as a name reference: not a
// field or method name after a dot, not a declared name.
func referenced(t *syntax.Tree, from, to syntax.NodeID, name []byte, skip syntax.NodeID) bool {
	for i := from; i < to; i++ {
		if i == skip || t.Kind(i) != "identifier" || string(t.Text(i)) != string(name) {
			continue
		}
		nd := t.Node(i)
		par := nd.Parent
		if par != syntax.NoNode {
			switch t.Kind(par) {
			case "field_access":
				if nd.Field() == "field" {
					continue
				}
			case "method_invocation":
				if nd.Field() == "name" {
					continue
				}
			}
		}
		return true
	}
	return false
}

// UnusedLocalVariable reports local variables that are never read or
// written after their declaration.
//
// Source: PMD bestpractices/UnusedLocalVariable.
var UnusedLocalVariable = &nfi.Rule{
	ID: "JAVA-LOG-P04", Name: "unused-local-variable", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "local variable never used",
		What: "A local variable declared in a block (not a for loop's or a resource's) whose name is not referenced " +
			"anywhere else in its scope (the rest of the block, lambdas and local classes included).",
		Why:    "A variable nobody reads is dead code, or a sign that a computed value is ignored by mistake.",
		Bad:    "class A {\n  int f() {\n    int unusedTotal = 3;\n    return 1;\n  }\n}\n",
		Good:   "class A {\n  int f() {\n    int total = 3;\n    return total;\n  }\n}\n",
		Exempt: "The unnamed variable `_`.",
		Source: "PMD bestpractices/UnusedLocalVariable",
		Oracle: "PMD 7.27.0 UnusedLocalVariable: by the variable's name in its scope, not resolved symbols (a shadowing name counts as a use).",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/UnusedLocalVariable"}},
	Kinds:  []string{"local_variable_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		scope := t.Parent(n)
		if scope == syntax.NoNode || (t.Kind(scope) != "block" && t.Kind(scope) != "switch_block_statement_group" && t.Kind(scope) != "constructor_body") {
			return
		}
		for _, d := range declarators(t, n) {
			nm := t.ChildByField(d, "name")
			if nm == syntax.NoNode || string(t.Text(nm)) == "_" {
				continue
			}
			end := t.Node(scope).End
			if t.Kind(scope) == "switch_block_statement_group" {
				end = t.Node(t.Parent(scope)).End // a case group's locals reach the following groups
			}
			if !referenced(t, d, end, t.Text(nm), nm) {
				p.Reportf(nm, "avoid unused local variables such as '%s'", t.Text(nm))
			}
		}
	},
}
