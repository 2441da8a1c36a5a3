package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// wrapperTypes are the primitive wrappers whose constructors are
// deprecated for removal (JDK 9, JEP 390).
var wrapperTypes = map[string]bool{"Boolean": true, "Byte": true, "Character": true, "Short": true,
	"Integer": true, "Long": true, "Float": true, "Double": true}

// PrimitiveWrapperInstantiation reports `new Integer(...)` and the other
// deprecated wrapper constructors.
//
// Source: PMD bestpractices/PrimitiveWrapperInstantiation; JEP 390.
var PrimitiveWrapperInstantiation = &nfi.Rule{
	ID: "JAVA-LIB-P06", Name: "primitive-wrapper-instantiation", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "deprecated wrapper constructor",
		What:    "A `new Boolean/Byte/Character/Short/Integer/Long/Float/Double(...)` (simple or java.lang name).",
		Why:     "These constructors are deprecated for removal (JEP 390); valueOf reuses cached instances.",
		Bad:     "class A {\n  Integer x = new Integer(5);\n}\n",
		Good:    "class A {\n  Integer x = Integer.valueOf(5);\n}\n",
		Source:  "PMD bestpractices/PrimitiveWrapperInstantiation",
		Oracle:  "PMD 7.27.0 PrimitiveWrapperInstantiation: PMD also reports Boolean.valueOf with a boolean literal; this rule reports constructors only.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/PrimitiveWrapperInstantiation"}},
	Kinds:  []string{"object_creation_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		typ := t.ChildByField(n, "type")
		if name := typeName(t, typ); wrapperTypes[name] && javaLangOrSimple(t, typ) && t.ChildByField(n, "body") == syntax.NoNode &&
			t.FirstChildOfKind(n, "class_body") == syntax.NoNode {
			p.Reportf(n, "do not use new %s(...), prefer %s.valueOf(...)", name, name)
		}
	},
}
