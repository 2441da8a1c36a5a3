package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// cyclomatic returns the cyclomatic complexity of a method, constructor or
// initializer body n: 1 plus one per if, loop, non-default case label,
// catch, ternary, throw and && or || operator, not counting nested lambdas' and
// classes' bodies. Source: McCabe (1976); PMD's CYCLO metric.
func cyclomatic(t *syntax.Tree, n syntax.NodeID) int {
	c := 1
	end := t.Node(n).End
	for i := n + 1; i < end; i++ {
		switch t.Kind(i) {
		case "class_body", "lambda_expression":
			i = t.Node(i).End - 1
		case "if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
			"catch_clause", "ternary_expression", "throw_statement":
			c++
		case "switch_label":
			if t.FirstNamedChild(i) != syntax.NoNode {
				c += len(t.NamedChildren(i))
			}
		case "binary_expression":
			if op := operatorText(t, i); op == "&&" || op == "||" {
				c++
			}
		}
	}
	return c
}

// classReportLevel is PMD CyclomaticComplexity's default class level: a
// type whose operations' complexities sum to it or more is reported.
const classReportLevel = 80

// operationCyclo is the complexity of a method or constructor with a body
// (0 for any other member).
func operationCyclo(t *syntax.Tree, n syntax.NodeID) int {
	switch t.Kind(n) {
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		if b := t.ChildByField(n, "body"); b != syntax.NoNode {
			return cyclomatic(t, b)
		}
	}
	return 0
}

// CyclomaticComplexity reports methods and constructors whose cyclomatic
// complexity reaches 10.
//
// Source: PMD design/CyclomaticComplexity (methodReportLevel 10).
var CyclomaticComplexity = &nfi.Rule{
	ID: "JAVA-STY-T03", Name: "cyclomatic-complexity", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: java,
	Limit: &nfi.Limit{Default: 9, Cmp: nfi.AtMost, Unit: "branches"},
	Doc: nfi.Doc{
		Summary: "method too complex",
		What: "The cyclomatic complexity of each method and constructor: 1, plus 1 per if, for, for-each, while, do, " +
			"catch, ternary, throw, && and ||, and per expression of a non-default case label; lambdas and local classes " +
			"inside count for themselves. Fails when one exceeds the limit (PMD's report level 10 is a limit of 9), " +
			"and when the complexities of a type's methods and constructors sum to 80 or more (PMD's class level, not configurable here).",
		Why:    "Each decision doubles what a reader and a test must cover.",
		Bad:    "class A {\n  int f(int a) {\n    if (a == 1) return 1;\n    if (a == 2) return 2;\n    if (a == 3) return 3;\n    if (a == 4) return 4;\n    if (a == 5) return 5;\n    if (a == 6) return 6;\n    if (a == 7) return 7;\n    if (a == 8) return 8;\n    if (a == 9) return 9;\n    return 0;\n  }\n}\n",
		Good:   "class A {\n  int f(int a) {\n    return a >= 1 && a <= 9 ? a : 0;\n  }\n}\n",
		Source: "PMD design/CyclomaticComplexity; McCabe, A Complexity Measure (1976)",
		Oracle: "PMD 7.27.0 CyclomaticComplexity at its method level 10 and class level 80.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/design.xml/CyclomaticComplexity"}, Exact: true},
	Kinds:  append([]string{"method_declaration", "constructor_declaration", "compact_constructor_declaration"}, typeDeclKinds...),
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if isTypeDecl(t.Kind(n)) {
			// PMD's class level: the weighted method count (the sum of
			// the operations' complexities) reaching classReportLevel 80
			body := t.ChildByField(n, "body")
			if body == syntax.NoNode {
				return
			}
			wmc := 0
			for _, m := range t.NamedChildren(body) {
				if t.Kind(m) == "enum_body_declarations" {
					for _, x := range t.NamedChildren(m) {
						wmc += operationCyclo(t, x)
					}
				}
				wmc += operationCyclo(t, m)
			}
			if wmc >= classReportLevel {
				p.Reportf(t.ChildByField(n, "name"), "the class '%s' has a total cyclomatic complexity of %d", nameText(t, n), wmc)
			}
			return
		}
		body := t.ChildByField(n, "body")
		if body == syntax.NoNode {
			return
		}
		c := float64(cyclomatic(t, body))
		p.Measure(c)
		if p.Exceeds(c) {
			p.Reportf(t.ChildByField(n, "name"), "the method '%s' has a cyclomatic complexity of %d", nameText(t, n), int(c))
		}
	},
}
