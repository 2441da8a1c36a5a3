package pyast

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// decoratorImportsCopying is decoratorImports as a table of copied
// qualified names: the reference for the table of source views.
func decoratorImportsCopying(m *Module) map[string]string {
	t := m.Tree
	imp := map[string]string{}
	for _, id := range m.index().lists[listImportish] {
		n := &t.Nodes[id]
		switch n.Kind() {
		case "import_statement":
			for c := n.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch t.Nodes[c].Kind() {
				case "dotted_name":
					head, _, _ := strings.Cut(t.TextString(c), ".")
					imp[head] = head
				case "aliased_import":
					name, alias := t.ChildByField(c, "name"), t.ChildByField(c, "alias")
					if name != syntax.NoNode && alias != syntax.NoNode {
						imp[t.TextString(alias)] = t.TextString(name)
					}
				}
			}
		case "import_from_statement":
			modNode := t.ChildByField(id, "module_name")
			if modNode == syntax.NoNode {
				continue
			}
			mod := t.TextString(modNode)
			for c := n.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				if t.Nodes[c].Field() != "name" {
					continue
				}
				switch t.Nodes[c].Kind() {
				case "dotted_name":
					nm := t.TextString(c)
					imp[nm] = mod + "." + nm
				case "aliased_import":
					name, alias := t.ChildByField(c, "name"), t.ChildByField(c, "alias")
					if name != syntax.NoNode && alias != syntax.NoNode {
						imp[t.TextString(alias)] = mod + "." + t.TextString(name)
					}
				}
			}
		case "class_definition", "function_definition":
			if p := n.Parent; p != syntax.NoNode && (t.Nodes[p].Kind() == "module" ||
				(t.Nodes[p].Kind() == "decorated_definition" && t.Nodes[p].Parent == 0)) {
				if nm := t.ChildByField(id, "name"); nm != syntax.NoNode {
					imp[t.TextString(nm)] = ""
				}
			}
		}
	}
	return imp
}

// resolveCopying is resolveDotted over decoratorImportsCopying's table.
func resolveCopying(name string, imp map[string]string) string {
	if name == "" {
		return ""
	}
	head, rest, _ := strings.Cut(name, ".")
	q, ok := imp[head]
	if !ok {
		q = "builtins." + head
	} else if q == "" {
		return name
	}
	if rest != "" {
		return q + "." + rest
	}
	return q
}

// TestDecoratorImportsViews checks that decorators resolve as with the
// copying table, on a stdlib sample and a source with every import form:
// each decorator name, each local name alone and with an attribute, and
// names nothing binds.
func TestDecoratorImportsViews(t *testing.T) {
	check := func(path string, tree *syntax.Tree) {
		m := &Module{Tree: tree, Path: path}
		views, copies := m.decoratorImports(), decoratorImportsCopying(m)
		if len(views) != len(copies) {
			t.Errorf("%s: %d local names, want %d", path, len(views), len(copies))
		}
		names := []string{"", "property", "nothing_binds_this.x", "staticmethod"}
		for k := range copies {
			names = append(names, k, k+".setter", k+".a.b")
		}
		for _, d := range m.Definitions().List {
			for _, dec := range d.Decorators {
				names = append(names, dec.Name)
			}
		}
		for _, n := range names {
			if got, want := resolveDotted(n, views), resolveCopying(n, copies); got != want {
				t.Errorf("%s: resolveDotted(%q) = %q, want %q", path, n, got, want)
			}
		}
	}
	src := "import a.b, c as d, e\nfrom f.g import h, i as j\nfrom . import k\nfrom .l import m as n\n" +
		"import typing as t\nfrom typing import overload\n" +
		"class C:\n    @t.overload\n    @overload\n    @property\n    @d.x\n    @j\n    def f(self): pass\n" +
		"@C\n@e.f.g\n@a.b.c\ndef g(): pass\ndef a(): pass\nimport a\n"
	tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	check("x.py", tree)
	eachSampleTree(t, 120, check)
}
