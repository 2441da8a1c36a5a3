package java

import (
	"regexp"
	"sync"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// constantRe is Checkstyle ConstantName's default format.
var constantRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`) })

// ConstantName reports static final fields not in UPPER_SNAKE_CASE.
//
// Source: Checkstyle ConstantName (format ^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$).
var ConstantName = &nfi.Rule{
	ID: "JAVA-STY-P05", Name: "constant-name", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "constant not in UPPER_SNAKE_CASE",
		What: "A static final field (and every field of an interface or annotation type, implicitly static final) whose " +
			"name does not match `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`.",
		Why:    "Upper-case constants tell a reader the value never changes.",
		Bad:    "class A {\n  static final int maxSize = 10;\n}\n",
		Good:   "class A {\n  static final int MAX_SIZE = 10;\n}\n",
		Exempt: "serialVersionUID and serialPersistentFields.",
		Source: "Checkstyle ConstantName",
		Oracle: "Checkstyle 12.3.1 ConstantName with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"ConstantName"}, Exact: true},
	Kinds:  []string{"field_declaration", "constant_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if !inInterface(t, n) && !(hasModifier(t, n, "static") && hasModifier(t, n, "final")) {
			return
		}
		for _, d := range declarators(t, n) {
			s := nameText(t, d)
			if s == "serialVersionUID" || s == "serialPersistentFields" || constantRe().MatchString(s) {
				continue
			}
			p.Reportf(t.ChildByField(d, "name"), "name '%s' must match pattern '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$'", s)
		}
	},
}
