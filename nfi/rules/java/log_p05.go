package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UnusedPrivateField reports private fields that are never referenced.
//
// Source: PMD bestpractices/UnusedPrivateField.
var UnusedPrivateField = &nfi.Rule{
	ID: "JAVA-LOG-P05", Name: "unused-private-field", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "private field never used",
		What:    "A private field whose name is referenced nowhere else in its top-level class (as `x`, `this.x` or `other.x`).",
		Why:     "An unused field is dead state: it costs memory and misleads readers.",
		Bad:     "class A {\n  private int unusedCount;\n}\n",
		Good:    "class A {\n  private int count;\n  int count() {\n    return count;\n  }\n}\n",
		Exempt:  "serialVersionUID, serialPersistentFields, and annotated fields (frameworks read them reflectively).",
		Source:  "PMD bestpractices/UnusedPrivateField",
		Oracle:  "PMD 7.27.0 UnusedPrivateField: by name within the top-level class rather than resolved symbols.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/UnusedPrivateField"}, Exact: true},
	Kinds:  []string{"field_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if !hasModifier(t, n, "private") || len(annotationNames(t, n)) > 0 {
			return
		}
		top := outermostType(t, n)
		for _, d := range declarators(t, n) {
			nm := t.ChildByField(d, "name")
			s := string(t.Text(nm))
			if s == "serialVersionUID" || s == "serialPersistentFields" {
				continue
			}
			ix := indexNames(p)
			if !anyIn(ix.refs[s], top, t.Node(top).End, nm) && !anyIn(ix.fields[s], top, t.Node(top).End, nm) {
				p.Reportf(nm, "avoid unused private fields such as '%s'", s)
			}
		}
	},
}
