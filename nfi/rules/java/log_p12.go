package java

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidUsingOctalValues reports octal integer literals of two or more
// digits.
//
// Source: PMD errorprone/AvoidUsingOctalValues (strict false).
var AvoidUsingOctalValues = &nfi.Rule{
	ID: "JAVA-LOG-P12", Name: "avoid-using-octal-values", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "octal literal",
		What:    "An integer literal with a leading 0 and at least two more octal digits (`012`); 00 to 07 are exempt.",
		Why:     "A leading zero makes the literal octal: 012 is ten, which a reader takes for twelve.",
		Bad:     "class A {\n  int mode = 0644;\n}\n",
		Good:    "class A {\n  int mode = 420;\n}\n",
		Source:  "PMD errorprone/AvoidUsingOctalValues",
		Oracle:  "PMD 7.27.0 AvoidUsingOctalValues with strict false.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/AvoidUsingOctalValues"}, Exact: true},
	Kinds:  []string{"octal_integer_literal"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		s := strings.TrimRight(strings.ReplaceAll(string(p.Tree.Text(n)), "_", ""), "lL")
		if len(s) >= 3 && s[0] == '0' {
			p.Reportf(n, "do not start a literal by 0 unless it's an octal value")
		}
	},
}
