package style

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// ConstantName reports module-level constants whose name is not UPPER_CASE.
//
// Source: PEP 8 "Constants"; pylint C0103 (const-naming-style=UPPER_CASE).
var ConstantName = &nfi.Rule{
	ID: "STY-R03", Name: "module-constant-upper-case", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "module-level constants are UPPER_CASE",
		What: "A constant is a module-level `NAME = literal` statement (at top level or inside " +
			"module-level if/try/with blocks, not inside a for or while loop, a def or a class) " +
			"whose NAME is bound exactly once in the module (assignments, for/with/except " +
			"targets, imports, defs, classes and `global` assignments in functions all count) " +
			"and whose value is a literal: a number (with an optional sign), a string or bytes " +
			"(not an f-string), True, False, None, or a tuple or frozenset({...}) of literals. " +
			"Its name must be uppercase (Ruff is_uppercase; `_MAX` passes, `_max` fails).",
		Why:    "PEP 8: constants are written in all capital letters with underscores, so readers know they must not be rebound.",
		Bad:    "max_retries = 5\n",
		Good:   "MAX_RETRIES = 5\n",
		Exempt: "dunders (`__all__`, `__version__`); annotated assignments to TypeAlias; chained assignments (`a = b = 1`); names bound more than once.",
		Source: "PEP 8 (\"Constants are usually defined on a module level and written in all capital letters with underscores\"); catalog decision 10",
		Oracle: "No Ruff rule (N816 only flags mixedCase globals); pylint C0103 with " +
			"const-naming-style=UPPER_CASE is close but infers constants from any value, so " +
			"`logger = logging.getLogger()` fails pylint and passes here.",
	},
	Kinds: []string{"module"},
	Visit: checkConstantName,
}

func checkConstantName(p *nfi.Pass, root syntax.NodeID) {
	t := p.Tree
	// one entry per binding, and one per identifier that may be one: an
	// identifier's role is looked up only if its name is a candidate's
	bound := make([]boundName, 0, 64)
	var cands []syntax.NodeID
	// One walk over the module scope: list the names bound and collect
	// candidate constant assignments. Function bodies only contribute names
	// they declare global.
	kinds := constKinds.Table(syntax.Python)
	// names as substrings of a zero-copy view of the source (sourceString), not a copy each
	src := sourceString(p)
	text := func(id syntax.NodeID) string {
		nd := &t.Nodes[id]
		return src[nd.StartByte:nd.EndByte]
	}
	// A walk in preorder with its own bookkeeping rather than recursion:
	// its memory does not grow with the depth of the tree (an "a and b
	// and ..." chain nests one level per operator). Nodes below loopEnd
	// are inside a loop.
	loopEnd := syntax.NoNode
	for c, end := root+1, t.Nodes[root].End; c < end; {
		nd := &t.Nodes[c]
		class := kinds.Of(nd)
		inLoop := c < loopEnd
		switch class {
		case ckDef, ckClass:
			if n := t.ChildByField(c, "name"); n != syntax.NoNode {
				bound = append(bound, boundName{text(n), syntax.NoNode})
			}
			if class == ckDef {
				bound = appendGlobalAssignments(t, c, bound)
			}
			c = nd.End
			continue
		case ckScope:
			c = nd.End
			continue
		case ckIdentifier:
			bound = append(bound, boundName{text(c), c})
			c = nd.End
			continue
		case ckImport:
			if imp := importedName(t, c); imp != "" {
				bound = append(bound, boundName{imp, syntax.NoNode})
			}
			c = nd.End
			continue
		case ckExpressionStatement:
			if !inLoop {
				if a := t.FirstNamedChild(c); a != syntax.NoNode && t.Nodes[a].Kind() == "assignment" && t.Nodes[a].NextSibling == syntax.NoNode {
					cands = append(cands, a)
				}
			}
		}
		if class == ckLoop && !inLoop {
			loopEnd = nd.End
		}
		c++ // into the node's children (a decorated definition's too)
	}
	// The candidates that break the rule if their name is bound once; only
	// their names are counted (most files have none).
	keep := cands[:0]
	for _, a := range cands {
		left, right := t.ChildByField(a, "left"), t.ChildByField(a, "right")
		if left == syntax.NoNode || right == syntax.NoNode || t.Nodes[left].Kind() != "identifier" {
			continue
		}
		name := nodeString(t, left)
		if pyast.IsDunder(name) || pyast.IsUppercase(name) || !isLiteral(t, right) {
			continue
		}
		keep = append(keep, a)
	}
	if len(keep) == 0 {
		return
	}
	counts := make(map[string]int, len(keep))
	for _, a := range keep {
		counts[nodeString(t, t.ChildByField(a, "left"))] = 0
	}
	for _, b := range bound {
		c, ok := counts[b.name]
		if !ok {
			continue
		}
		if b.ident != syntax.NoNode {
			if r, _ := bindingRole(t, b.ident); r == roleNone || r == roleParam {
				continue
			}
		}
		counts[b.name] = c + 1
	}
	for _, a := range keep {
		left := t.ChildByField(a, "left")
		name := nodeString(t, left)
		if counts[name] != 1 {
			continue
		}
		if ty := t.ChildByField(a, "type"); ty != syntax.NoNode {
			if e := t.FirstNamedChild(ty); e != syntax.NoNode {
				if q, _ := p.Module.QualifiedName(e); isTyping(q, "TypeAlias") {
					continue
				}
			}
		}
		p.Reportf(left, "module-level constant %s is not UPPER_CASE", name)
	}
}

// importedName returns the local name an import binds for a dotted_name or
// aliased_import child of an import statement, "" otherwise (a nodeString:
// valid during the pass).
func importedName(t *syntax.Tree, n syntax.NodeID) string {
	parent := t.Kind(t.Nodes[n].Parent)
	if parent != "import_statement" && parent != "import_from_statement" {
		return ""
	}
	if t.Nodes[n].Field() == "module_name" {
		return ""
	}
	if t.Nodes[n].Kind() == "aliased_import" {
		if a := t.ChildByField(n, "alias"); a != syntax.NoNode {
			return nodeString(t, a)
		}
		return ""
	}
	if parent == "import_statement" {
		if f := t.FirstNamedChild(n); f != syntax.NoNode {
			return nodeString(t, f)
		}
		return ""
	}
	return nodeString(t, n)
}

// node classes of checkConstantName's walk
const (
	ckOther = iota
	ckDef
	ckClass
	ckDecorated
	ckScope // lambda or comprehension: binds nothing at module level
	ckIdentifier
	ckImport
	ckExpressionStatement
	ckLoop
)

var constKinds = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition":      ckDef,
	"class_definition":         ckClass,
	"decorated_definition":     ckDecorated,
	"lambda":                   ckScope,
	"list_comprehension":       ckScope,
	"set_comprehension":        ckScope,
	"dictionary_comprehension": ckScope,
	"generator_expression":     ckScope,
	"identifier":               ckIdentifier,
	"dotted_name":              ckImport,
	"aliased_import":           ckImport,
	"expression_statement":     ckExpressionStatement,
	"for_statement":            ckLoop,
	"while_statement":          ckLoop,
}}

// boundName is a name bound at module level (ident NoNode), or an
// identifier there that binds name if bindingRole gives it a role other
// than roleParam.
type boundName struct {
	name  string
	ident syntax.NodeID
}

// appendGlobalAssignments appends to bound the name of each binding in
// function fn of a name it declares global.
func appendGlobalAssignments(t *syntax.Tree, fn syntax.NodeID, bound []boundName) []boundName {
	if !bytes.Contains(t.Text(fn), []byte("global")) {
		return bound // no global statement: the walks below would find nothing
	}
	var globals map[string]bool
	t.Walk(fn, func(id syntax.NodeID) bool {
		if t.Nodes[id].Kind() == "global_statement" {
			for c := t.Nodes[id].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				if t.Nodes[c].Kind() == "identifier" {
					if globals == nil {
						globals = map[string]bool{}
					}
					globals[t.TextString(c)] = true
				}
			}
		}
		return true
	})
	if globals == nil {
		return bound
	}
	t.Walk(fn, func(id syntax.NodeID) bool {
		if t.Nodes[id].Kind() == "identifier" && globals[t.TextString(id)] {
			if r, _ := bindingRole(t, id); r != roleNone && r != roleGlobal && r != roleParam {
				bound = append(bound, boundName{t.TextString(id), syntax.NoNode})
			}
		}
		return true
	})
	return bound
}

// isLiteral reports a literal constant value: a number with an optional
// unary sign, a string or bytes (no f-string), True, False, None, a tuple
// of literals, or frozenset() of a set, list or tuple of literals.
func isLiteral(t *syntax.Tree, n syntax.NodeID) bool {
	n = unparen(t, n)
	if n == syntax.NoNode {
		return false
	}
	switch t.Nodes[n].Kind() {
	case "integer", "float", "true", "false", "none":
		return true
	case "string":
		return !isFString(t, n)
	case "concatenated_string":
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind() == "string" && isFString(t, c) {
				return false
			}
		}
		return true
	case "unary_operator":
		op := t.ChildByField(n, "operator")
		arg := unparen(t, t.ChildByField(n, "argument"))
		return op != syntax.NoNode && t.Nodes[op].Kind() != "~" && arg != syntax.NoNode &&
			(t.Nodes[arg].Kind() == "integer" || t.Nodes[arg].Kind() == "float")
	case "tuple", "expression_list":
		return allLiteral(t, n)
	case "call":
		fn := t.ChildByField(n, "function")
		args := t.ChildByField(n, "arguments")
		if fn == syntax.NoNode || args == syntax.NoNode || t.TextString(fn) != "frozenset" {
			return false
		}
		var buf [2]syntax.NodeID
		a := namedChildren(t, args, buf[:0])
		if len(a) == 0 {
			return true
		}
		if len(a) != 1 {
			return false
		}
		switch t.Nodes[a[0]].Kind() {
		case "set", "list", "tuple":
			return allLiteral(t, a[0])
		}
	}
	return false
}

func allLiteral(t *syntax.Tree, n syntax.NodeID) bool {
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && !t.Nodes[c].Extra && !isLiteral(t, c) {
			return false
		}
	}
	return true
}
