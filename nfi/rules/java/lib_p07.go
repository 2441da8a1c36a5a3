package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidDecimalLiteralsInBigDecimalConstructor reports `new
// BigDecimal(0.1)`.
//
// Source: PMD errorprone/AvoidDecimalLiteralsInBigDecimalConstructor.
var AvoidDecimalLiteralsInBigDecimalConstructor = &nfi.Rule{
	ID: "JAVA-LIB-P07", Name: "avoid-decimal-literals-in-big-decimal-constructor", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "BigDecimal built from a floating-point literal",
		What:    "A `new BigDecimal(x)` (or java.math.BigDecimal) whose first argument is a floating-point literal.",
		Why:     "The double 0.1 is not 0.1: the BigDecimal gets the binary approximation's 55 digits.",
		Bad:     "import java.math.BigDecimal;\nclass A {\n  BigDecimal d = new BigDecimal(0.1);\n}\n",
		Good:    "import java.math.BigDecimal;\nclass A {\n  BigDecimal d = new BigDecimal(\"0.1\");\n}\n",
		Source:  "PMD errorprone/AvoidDecimalLiteralsInBigDecimalConstructor",
		Oracle:  "PMD 7.27.0 AvoidDecimalLiteralsInBigDecimalConstructor: PMD also reports float or double expressions it can type; this rule literals only.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/AvoidDecimalLiteralsInBigDecimalConstructor"}},
	Kinds:  []string{"object_creation_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if typeName(t, t.ChildByField(n, "type")) != "BigDecimal" {
			return
		}
		args := arguments(t, n)
		if len(args) == 0 {
			return
		}
		a := unparen(t, args[0])
		if t.Kind(a) == "unary_expression" {
			a = unparen(t, t.ChildByField(a, "operand"))
		}
		if k := t.Kind(a); k == "decimal_floating_point_literal" || k == "hex_floating_point_literal" {
			p.Reportf(n, "avoid creating BigDecimal with a decimal (float/double) literal; use a String literal")
		}
	},
}
