package java

import (
	"sort"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// nameIndex is where each name occurs in a file, in preorder (node
// order), built once per file and rule so that the rules asking "is this
// name used in that range" cost a binary search, not a scan (a file of
// many declarations stays linear).
type nameIndex struct {
	refs   map[string][]syntax.NodeID // identifiers that are name references
	fields map[string][]syntax.NodeID // the field names of `x.name`
	calls  map[string][]syntax.NodeID // invoked and referenced (::name) method names
}

// indexNames returns the file's nameIndex, kept in p.State.
func indexNames(p *nfi.Pass) *nameIndex {
	if ix, ok := p.State.(*nameIndex); ok {
		return ix
	}
	t := p.Tree
	ix := &nameIndex{refs: map[string][]syntax.NodeID{}, fields: map[string][]syntax.NodeID{}, calls: map[string][]syntax.NodeID{}}
	for i := range t.Nodes {
		n := syntax.NodeID(i)
		switch t.Kind(n) {
		case "identifier":
			nd := t.Node(n)
			name := string(t.Text(n))
			if par := nd.Parent; par != syntax.NoNode {
				switch t.Kind(par) {
				case "field_access":
					if nd.Field() == "field" {
						ix.fields[name] = append(ix.fields[name], n)
						continue
					}
				case "method_invocation":
					if nd.Field() == "name" {
						ix.calls[name] = append(ix.calls[name], n)
						continue
					}
				case "method_reference":
					if nd.NextSibling == syntax.NoNode {
						ix.calls[name] = append(ix.calls[name], n)
					}
				}
			}
			ix.refs[name] = append(ix.refs[name], n)
		}
	}
	p.State = ix
	return ix
}

// anyIn reports whether ids (ascending) holds a node in [from, to) other
// than skip.
func anyIn(ids []syntax.NodeID, from, to, skip syntax.NodeID) bool {
	i := sort.Search(len(ids), func(i int) bool { return ids[i] >= from })
	for ; i < len(ids) && ids[i] < to; i++ {
		if ids[i] != skip {
			return true
		}
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
			if !anyIn(indexNames(p).refs[string(t.Text(nm))], d, end, nm) {
				p.Reportf(nm, "avoid unused local variables such as '%s'", t.Text(nm))
			}
		}
	},
}
