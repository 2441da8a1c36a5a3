package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// OverrideBothEqualsAndHashcode reports a class that overrides one of
// equals(Object) and hashCode() but not the other.
//
// Source: PMD errorprone/OverrideBothEqualsAndHashcode; Checkstyle
// EqualsHashCode.
var OverrideBothEqualsAndHashcode = &nfi.Rule{
	ID: "JAVA-LOG-P02", Name: "override-both-equals-and-hashcode", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "equals without hashCode, or hashCode without equals",
		What: "A class, enum or anonymous class body declaring `equals` with one parameter of type Object but no " +
			"`hashCode()`, or `hashCode()` without such an equals. The lone method is reported.",
		Why:    "Equal objects must have equal hash codes (Object's contract); HashMap and HashSet break otherwise.",
		Bad:    "class A {\n  int x;\n  @Override\n  public boolean equals(Object o) {\n    return o instanceof A && ((A) o).x == x;\n  }\n}\n",
		Good:   "class A {\n  int x;\n  @Override\n  public boolean equals(Object o) {\n    return o instanceof A && ((A) o).x == x;\n  }\n  @Override\n  public int hashCode() {\n    return x;\n  }\n}\n",
		Source: "PMD errorprone/OverrideBothEqualsAndHashcode",
		Oracle: "PMD 7.27.0 OverrideBothEqualsAndHashcode: same semantics on the names and arity; interfaces are not judged.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/OverrideBothEqualsAndHashcode"}, Checkstyle: []string{"EqualsHashCode"}, Exact: true},
	Kinds:  []string{"class_body", "enum_body_declarations"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		eq, hc := syntax.NoNode, syntax.NoNode
		for c := t.Node(n).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
			if t.Kind(c) != "method_declaration" {
				continue
			}
			params := t.NamedChildren(t.ChildByField(c, "parameters"))
			var formal []syntax.NodeID
			for _, x := range params {
				if t.Kind(x) == "formal_parameter" {
					formal = append(formal, x)
				}
			}
			switch nameText(t, c) {
			case "equals":
				if len(formal) == 1 && len(params) == 1 {
					if s := string(t.Text(t.ChildByField(formal[0], "type"))); s == "Object" || s == "java.lang.Object" {
						eq = c
					}
				}
			case "hashCode":
				if len(params) == 0 {
					hc = c
				}
			}
		}
		if eq != syntax.NoNode && hc == syntax.NoNode {
			p.Reportf(t.ChildByField(eq, "name"), "ensure you override both equals() and hashCode()")
		} else if hc != syntax.NoNode && eq == syntax.NoNode {
			p.Reportf(t.ChildByField(hc, "name"), "ensure you override both equals() and hashCode()")
		}
	},
}
