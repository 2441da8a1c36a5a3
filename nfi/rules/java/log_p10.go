package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ComparisonWithNaN reports comparisons with Double.NaN or Float.NaN.
//
// Source: PMD errorprone/ComparisonWithNaN.
var ComparisonWithNaN = &nfi.Rule{
	ID: "JAVA-LOG-P10", Name: "comparison-with-nan", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "comparison with NaN",
		What:    "A comparison (==, !=, <, <=, >, >=) one of whose operands is `Double.NaN` or `Float.NaN`.",
		Why:     "NaN compares false with everything, itself included (IEEE 754): the test never holds. Use isNaN.",
		Bad:     "class A {\n  boolean f(double d) {\n    return d == Double.NaN;\n  }\n}\n",
		Good:    "class A {\n  boolean f(double d) {\n    return Double.isNaN(d);\n  }\n}\n",
		Source:  "PMD errorprone/ComparisonWithNaN",
		Oracle:  "PMD 7.27.0 ComparisonWithNaN: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/ComparisonWithNaN"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		switch operatorText(t, n) {
		case "==", "!=", "<", "<=", ">", ">=":
		default:
			return
		}
		for _, side := range []string{"left", "right"} {
			s := string(t.Text(unparen(t, t.ChildByField(n, side))))
			if s == "Double.NaN" || s == "Float.NaN" || s == "java.lang.Double.NaN" || s == "java.lang.Float.NaN" {
				p.Reportf(n, "comparisons with NaN always return false")
				return
			}
		}
	},
}
