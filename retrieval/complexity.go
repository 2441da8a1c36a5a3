package retrieval

import "strings"

// Complexity is the class of a reference change by the nodes it touches.
type Complexity string

// The complexity classes. SingleFunc is a subset of FuncOnly and SingleClass
// a subset of ClassOnly; Classify returns the narrowest, and Classes lists
// every class an instance belongs to.
const (
	ComplexityNone   Complexity = "none"         // no nodes
	SingleFunc       Complexity = "single_func"  // exactly one function node, no class node
	FuncOnly         Complexity = "func_only"    // ≥ 1 function nodes, no class node
	SingleClass      Complexity = "single_class" // exactly one class node, no function node
	ClassOnly        Complexity = "class_only"   // ≥ 1 class nodes, no function node
	ComplexityMixed  Complexity = "mixed"        // both
	complexityFailed Complexity = ""
)

// ComplexityOrder lists the classes in report order.
var ComplexityOrder = []Complexity{ComplexityNone, SingleFunc, FuncOnly, SingleClass, ClassOnly, ComplexityMixed}

// classKinds are the node types that count as classes: SWE-PolyBench's
// languages', then the class equivalents of Go, Rust, C, C++, PHP and Ruby
// (langs.go): Go struct and interface type_spec; Rust struct, enum, union,
// trait, impl and mod items; C and C++ struct, union and enum specifiers,
// C++ classes and namespaces; PHP traits; Ruby classes, modules and
// singleton classes.
var classKinds = set("class_definition", "class_declaration", "abstract_class_declaration",
	"interface_declaration", "enum_declaration", "record_declaration", "type_alias_declaration",
	"type_spec", "struct_item", "enum_item", "union_item", "trait_item", "impl_item", "mod_item",
	"struct_specifier", "union_specifier", "enum_specifier", "class_specifier", "namespace_definition",
	"trait_declaration", "class", "module", "singleton_class")

// Classify returns the complexity class of a reference node-key set
// (keys "file->ROOT->type:name->..."). Class nodes are keys ending in a
// class type, plus every constructor, which counts as a change to its class
// (Python `__init__` directly in a class, Java constructor_declaration, JS/TS
// method_definition `constructor`; PHP `__construct`, Ruby `initialize` in a
// class, a C++ member function named as its class): a constructor and its
// class count once.
// Every other key is a function node.
//
// Source: SWE-PolyBench (arXiv 2504.08703) §3 "complexity" columns; polynfi
// spec evaluation.md §4.3.
func Classify(keys []string) Complexity {
	classes := map[string]bool{}
	funcs := map[string]bool{}
	for _, k := range keys {
		parts := strings.Split(k, "->")
		typ, name := splitLabel(parts[len(parts)-1])
		parentTyp, parentName := "", ""
		if len(parts) >= 2 {
			parentTyp, parentName = splitLabel(parts[len(parts)-2])
		}
		parent := strings.Join(parts[:len(parts)-1], "->")
		switch {
		case classKinds[typ]:
			classes[k] = true
		case typ == "constructor_declaration",
			typ == "method_definition" && name == "constructor",
			typ == "function_definition" && name == "__init__" && parentTyp == "class_definition",
			typ == "method_declaration" && strings.EqualFold(name, "__construct"),
			typ == "method" && name == "initialize" && parentTyp == "class",
			typ == "function_definition" && (parentTyp == "class_specifier" || parentTyp == "struct_specifier") && name == parentName:
			classes[parent] = true
		default:
			funcs[k] = true
		}
	}
	return classify(len(funcs), len(classes))
}

func classify(nf, nc int) Complexity {
	switch {
	case nf == 0 && nc == 0:
		return ComplexityNone
	case nc == 0 && nf == 1:
		return SingleFunc
	case nc == 0:
		return FuncOnly
	case nf == 0 && nc == 1:
		return SingleClass
	case nf == 0:
		return ClassOnly
	}
	return ComplexityMixed
}

// Classes lists every class c belongs to: a SingleFunc change is also
// FuncOnly and a SingleClass change also ClassOnly (as in SWE-PolyBench's
// columns).
func (c Complexity) Classes() []Complexity {
	switch c {
	case SingleFunc:
		return []Complexity{SingleFunc, FuncOnly}
	case SingleClass:
		return []Complexity{SingleClass, ClassOnly}
	case complexityFailed:
		return nil
	}
	return []Complexity{c}
}

func splitLabel(s string) (typ, name string) {
	typ, name, _ = strings.Cut(s, ":")
	return typ, name
}
