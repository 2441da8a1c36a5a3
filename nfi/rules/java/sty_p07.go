package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// OneDeclarationPerLine reports several variables declared on one line.
//
// Source: PMD bestpractices/OneDeclarationPerLine (strictMode false);
// Checkstyle MultipleVariableDeclarations.
var OneDeclarationPerLine = &nfi.Rule{
	ID: "JAVA-STY-P07", Name: "one-declaration-per-line", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "several variables declared on one line",
		What: "A field or local variable declaration (not a for loop's initialiser) with two or more declarators " +
			"starting on the same line.",
		Why:    "`int[] a, b;` or `String s = x, t;` hide a declaration; one per line is read and diffed cleanly.",
		Bad:    "class A {\n  int x, y;\n}\n",
		Good:   "class A {\n  int x;\n  int y;\n}\n",
		Source: "PMD bestpractices/OneDeclarationPerLine",
		Oracle: "PMD 7.27.0 OneDeclarationPerLine with strictMode false: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/OneDeclarationPerLine"}, Exact: true},
	Kinds:  []string{"field_declaration", "local_variable_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if f := t.Node(n).Field(); f == "init" {
			return
		}
		ds := declarators(t, n)
		if len(ds) < 2 {
			return
		}
		lines := map[int]bool{}
		for _, d := range ds {
			lines[t.Line(d)] = true
		}
		if len(lines) != len(ds) {
			p.Reportf(n, "use one line for each declaration, it enhances code readability")
		}
	},
}
