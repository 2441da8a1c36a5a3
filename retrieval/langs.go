package retrieval

import (
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// The node types counted for Go, Rust, C, C++, PHP and Ruby, which
// SWE-PolyBench does not read. They follow the choice SWE-PolyBench made
// for its four languages (TREE_SITTER_FUNC_CLASS_TYPES: function and
// method definitions, classes and their equivalents, nothing finer), in
// each grammar's own node types:
//
//   - Go: function_declaration, method_declaration (named
//     "Receiver.Method", the receiver's base type without * or type
//     arguments, as Go names methods), and the type_spec of a struct or
//     interface type (`type T struct{...}`, in a type declaration).
//   - Rust: function_item, function_signature_item (a trait's declared fn),
//     impl_item (named by its type, "Trait for Type" for a trait impl),
//     struct_item, enum_item, union_item, trait_item, and mod_item with a
//     body (`mod tests { ... }`).
//   - C: function_definition (named by its declarator's identifier), and
//     struct_specifier, union_specifier and enum_specifier with a body (a
//     definition, not a use such as `struct s *p`; an anonymous one in a
//     typedef is named by the typedef).
//   - C++: C's, class_specifier with a body, and named or anonymous
//     namespace_definition; a function's name is its declarator as written
//     ("Parser::parse", "operator==", "~Parser"). A function_definition
//     ending in "= 0" (pure virtual, or a member `int n = 0;`, which the
//     grammar reads so) is not a definition and does not count.
//   - PHP: function_definition, method_declaration, class_declaration,
//     interface_declaration, trait_declaration, enum_declaration.
//   - Ruby: method, singleton_method ("self.name"), class, module and
//     singleton_class (`class << self`, named "self").
//
// A key is built as for SWE-PolyBench's languages: the root node type
// (source_file, translation_unit or program), then every counted ancestor,
// then the node, each "type:name", joined by "->"; a node without a name is
// "type:<anonymous>". Compatible and Extended read these languages alike:
// there is no SWE-PolyBench reading to reproduce, so none of its quirks
// applies.
//
// Grammars: tree-sitter-go, -rust, -c, -cpp, -php, -ruby as in package
// syntax.
type langNodes struct {
	root    string
	counted map[string]bool
	// needsBody lists the counted types that count only with a "body"
	// field (definitions, not uses).
	needsBody map[string]bool
}

var newLangNodes = map[syntax.Language]*langNodes{
	syntax.Go: {root: "source_file", counted: set("function_declaration", "method_declaration", "type_spec")},
	syntax.Rust: {root: "source_file", counted: set("function_item", "function_signature_item", "impl_item",
		"struct_item", "enum_item", "union_item", "trait_item", "mod_item"), needsBody: set("mod_item")},
	syntax.CLang: {root: "translation_unit", counted: set("function_definition", "struct_specifier", "union_specifier", "enum_specifier"),
		needsBody: set("struct_specifier", "union_specifier", "enum_specifier")},
	syntax.CPP: {root: "translation_unit", counted: set("function_definition", "struct_specifier", "union_specifier", "enum_specifier",
		"class_specifier", "namespace_definition"),
		needsBody: set("struct_specifier", "union_specifier", "enum_specifier", "class_specifier", "namespace_definition")},
	syntax.PHP: {root: "program", counted: set("function_definition", "method_declaration", "class_declaration",
		"interface_declaration", "trait_declaration", "enum_declaration")},
	syntax.Ruby: {root: "program", counted: set("method", "singleton_method", "class", "module", "singleton_class")},
}

// counts reports whether node id of t (a tree of ln's language) is counted.
func (ln *langNodes) counts(t *syntax.Tree, id syntax.NodeID) bool {
	kind := t.Nodes[id].Kind()
	if !ln.counted[kind] {
		return false
	}
	if ln.needsBody[kind] && t.ChildByField(id, "body") == syntax.NoNode {
		return false
	}
	if kind == "function_definition" && t.FirstChildOfKind(id, "pure_virtual_clause") != syntax.NoNode {
		// C++: a pure virtual declaration, and tree-sitter-cpp's reading
		// of a member initialised to 0 (`int n = 0;`): no definition.
		return false
	}
	if kind == "type_spec" { // Go: structs and interfaces only
		ty := t.ChildByField(id, "type")
		if ty == syntax.NoNode {
			return false
		}
		switch t.Nodes[ty].Kind() {
		case "struct_type", "interface_type":
			return true
		}
		return false
	}
	return true
}

// name returns the name of counted node id, "" when it has none.
func (ln *langNodes) name(t *syntax.Tree, id syntax.NodeID) string {
	n := &t.Nodes[id]
	switch t.Lang {
	case syntax.Go:
		name := fieldText(t, id, "name")
		if n.Kind() == "method_declaration" {
			if recv := goReceiverType(t, id); recv != "" {
				return recv + "." + name
			}
		}
		return name
	case syntax.Rust:
		if n.Kind() == "impl_item" {
			ty := fieldText(t, id, "type")
			if tr := fieldText(t, id, "trait"); tr != "" {
				return tr + " for " + ty
			}
			return ty
		}
		return fieldText(t, id, "name")
	case syntax.CLang, syntax.CPP:
		if n.Kind() == "function_definition" {
			return cDeclaratorName(t, t.ChildByField(id, "declarator"))
		}
		if name := fieldText(t, id, "name"); name != "" {
			return name
		}
		// typedef struct { ... } Name;
		if p := n.Parent; p != syntax.NoNode && t.Nodes[p].Kind() == "type_definition" {
			return cDeclaratorName(t, t.ChildByField(p, "declarator"))
		}
		return ""
	case syntax.Ruby:
		switch n.Kind() {
		case "singleton_method":
			return fieldText(t, id, "object") + "." + fieldText(t, id, "name")
		case "singleton_class":
			return fieldText(t, id, "value")
		}
		return fieldText(t, id, "name")
	}
	return fieldText(t, id, "name")
}

// fieldText is the text of id's child in field, "" when there is none.
func fieldText(t *syntax.Tree, id syntax.NodeID, field string) string {
	c := t.ChildByField(id, field)
	if c == syntax.NoNode {
		return ""
	}
	return strings.Join(strings.Fields(t.TextString(c)), " ")
}

// goReceiverType returns a Go method's receiver base type: "T" for
// (t T), (t *T), (T), (t *T[K, V]).
func goReceiverType(t *syntax.Tree, id syntax.NodeID) string {
	recv := t.ChildByField(id, "receiver")
	if recv == syntax.NoNode {
		return ""
	}
	pd := t.FirstChildOfKind(recv, "parameter_declaration")
	if pd == syntax.NoNode {
		return ""
	}
	ty := t.ChildByField(pd, "type")
	for ty != syntax.NoNode {
		switch t.Nodes[ty].Kind() {
		case "pointer_type", "parenthesized_type":
			ty = t.FirstNamedChild(ty)
		case "generic_type":
			ty = t.ChildByField(ty, "type")
		default:
			return t.TextString(ty)
		}
	}
	return ""
}

// cDeclaratorName returns the declared name of a C or C++ declarator:
// `*f(int)` → "f", `Parser::parse(...) const` → "Parser::parse",
// `(*fp)(void)` → "fp"; "" when there is none.
func cDeclaratorName(t *syntax.Tree, d syntax.NodeID) string {
	for depth := 0; d != syntax.NoNode && depth < 64; depth++ {
		switch t.Nodes[d].Kind() {
		case "function_declarator", "pointer_declarator", "reference_declarator", "array_declarator",
			"attributed_declarator", "init_declarator":
			next := t.ChildByField(d, "declarator")
			if next == syntax.NoNode { // reference_declarator has no field
				next = lastNamedChild(t, d)
			}
			d = next
		case "parenthesized_declarator":
			d = t.FirstNamedChild(d)
		default:
			return strings.Join(strings.Fields(t.TextString(d)), " ")
		}
	}
	return ""
}

func lastNamedChild(t *syntax.Tree, id syntax.NodeID) syntax.NodeID {
	last := syntax.NoNode
	for c := t.Nodes[id].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named {
			last = c
		}
	}
	return last
}
