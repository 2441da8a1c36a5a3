package java

import (
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MagicNumber reports numeric literals other than -1, 0, 1 and 2 outside
// constant definitions.
//
// Source: Checkstyle MagicNumber (defaults: ignoreNumbers -1, 0, 1, 2;
// ignoreHashCodeMethod, ignoreAnnotation, ignoreFieldDeclaration false;
// ignoreAnnotationElementDefaults true).
var MagicNumber = &nfi.Rule{
	ID: "JAVA-STY-P11", Name: "magic-number", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "magic number",
		What: "A numeric literal whose value is not -1, 0, 1 or 2 (any spelling: 0x0, 2.0, 1L), unless it is part of " +
			"the initialiser of a final variable, of an interface field or of an enum constant's arguments (not " +
			"inside a lambda or class body there), or an annotation element's default.",
		Why:    "An unnamed number says nothing of what it means, and its copies drift apart.",
		Bad:    "class A {\n  int f(int x) {\n    return x * 42;\n  }\n}\n",
		Good:   "class A {\n  private static final int FACTOR = 42;\n  int f(int x) {\n    return x * FACTOR;\n  }\n}\n",
		Source: "Checkstyle MagicNumber",
		Oracle: "Checkstyle 12.3.1 MagicNumber with its defaults.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"MagicNumber"}, Exact: true},
	Kinds:  []string{"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal", "decimal_floating_point_literal", "hex_floating_point_literal"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		v, ok := numberValue(t.Kind(n), string(t.Text(n)))
		top := n
		if par := t.Parent(n); par != syntax.NoNode && t.Kind(par) == "unary_expression" && operatorText(t, par) == "-" {
			v, top = -v, par
		}
		if ok && (v == -1 || v == 0 || v == 1 || v == 2) {
			return
		}
		// The verdict of each ancestor walked is kept (p.State), so that
		// the walks of a long expression's literals stop where an earlier
		// one passed and a file costs linear time.
		memo, _ := p.State.(map[syntax.NodeID]bool)
		if memo == nil {
			memo = map[syntax.NodeID]bool{}
			p.State = memo
		}
		var path []syntax.NodeID
		constant, decided := false, false
		for a := t.Parent(top); a != syntax.NoNode && !decided; a = t.Parent(a) {
			if v, ok := memo[a]; ok {
				constant, decided = v, true
				break
			}
			path = append(path, a)
			switch t.Kind(a) {
			case "variable_declarator":
				decl := t.Parent(a)
				if hasModifier(t, decl, "final") || inInterface(t, decl) {
					constant, decided = true, true
				}
			case "enum_constant", "annotation_type_element_declaration", "constant_declaration":
				constant, decided = true, true
			case "lambda_expression", "class_body", "block", "method_declaration", "constructor_declaration":
				// a number inside a lambda or a class body is judged there
				decided = true
			}
		}
		for _, a := range path {
			memo[a] = constant
		}
		if !constant {
			p.Reportf(n, "'%s' is a magic number", t.Text(n))
		}
	},
}

// operatorText returns the text of n's operator field.
func operatorText(t *syntax.Tree, n syntax.NodeID) string {
	if o := t.ChildByField(n, "operator"); o != syntax.NoNode {
		return string(t.Text(o))
	}
	return ""
}

// numberValue parses a Java numeric literal of the given node type.
func numberValue(kind, s string) (float64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	switch kind {
	case "decimal_floating_point_literal":
		s = strings.TrimRight(s, "fFdD")
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	case "hex_floating_point_literal":
		s = strings.TrimRight(s, "fFdD")
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	s = strings.TrimRight(s, "lL")
	base := 10
	switch kind {
	case "hex_integer_literal":
		base, s = 16, s[2:]
	case "binary_integer_literal":
		base, s = 2, s[2:]
	case "octal_integer_literal":
		base = 8
	}
	v, err := strconv.ParseUint(s, base, 64)
	return float64(v), err == nil
}
