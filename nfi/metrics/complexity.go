package metrics

import (
	"math"
	"slices"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/polynfi/polynfi/syntax"
)

// Block types, spelled as `radon cc -j` spells them.
const (
	TypeFunction = "function"
	TypeMethod   = "method"
	TypeClass    = "class"
)

// Block is one function, method or class with its cyclomatic complexity,
// shaped like a radon block.
//
// Positions follow CPython's ast: Lineno is the 1-based line of the `def`,
// `async` or `class` keyword (decorators excluded), ColOffset its 0-based
// UTF-8 byte column. Endline is radon's end line: the largest start line of
// any AST node in the block's last body statement (nested defs, classes and
// assert statements do not count), or for a class the largest of that over
// every body statement and the end lines of its methods; it is never before
// Lineno. It can therefore be earlier than the block's last physical line.
//
// Source: radon 6.0.1 radon/visitors.py (Function, Class, ComplexityVisitor).
type Block struct {
	Type      string // TypeFunction, TypeMethod or TypeClass
	Name      string // the def or class name
	Classname string // for methods: the name of the class they are defined in
	Lineno    int
	Endline   int
	ColOffset int
	// Complexity is the block's cyclomatic complexity (≥ 1). For a class it
	// is radon's class complexity: the class's real complexity divided by the
	// number of methods (integer division), plus one when there is more than
	// one method; RealComplexity when it has no methods.
	Complexity int
	// RealComplexity is, for a class, 1 plus the decisions in its body
	// outside defs plus the complexity of each method; for a function it
	// equals Complexity.
	RealComplexity int
	Closures       []Block // functions nested in a function (not in a class inside it)
	Methods        []Block // a class's methods, including defs nested in if/try in its body
	InnerClasses   []Block // classes directly nested in a class body (radon does not print them)
	Node           syntax.NodeID
}

// Rank returns the block's radon rank letter (see Rank).
func (b *Block) Rank() string { return Rank(b.Complexity) }

// Rank maps a cyclomatic complexity to radon's rank letter: A for 1-5 (and
// 0), B 6-10, C 11-20, D 21-30, E 31-40, F 41 and above.
//
// Source: radon 6.0.1 radon/complexity.py cc_rank.
func Rank(cc int) string {
	switch {
	case cc <= 5:
		return "A"
	case cc <= 10:
		return "B"
	case cc <= 20:
		return "C"
	case cc <= 30:
		return "D"
	case cc <= 40:
		return "E"
	}
	return "F"
}

// Complexity is the cyclomatic-complexity analysis of one Python module.
type Complexity struct {
	// Functions are the module's functions outside any class or def (defs
	// under module-level if/try/for/with included), in source order.
	Functions []Block
	// Classes are the module's classes outside any def, in source order.
	Classes []Block
	// Module is the complexity of module-level code outside every def and
	// class: 1 plus its decision points.
	Module int
	// ByDef maps every function_definition node of the module, wherever it
	// is (methods of nested classes and defs in classes in defs included),
	// to its complexity: FunctionComplexity of that node.
	ByDef map[syntax.NodeID]int
}

// Total returns radon's total complexity of the module (used by the
// maintainability index): Module plus, for every top-level function, its
// complexity minus one, plus, for every class, its real complexity minus one.
// Closures, methods of inner classes and classes inside defs do not count.
//
// Source: radon 6.0.1 ComplexityVisitor.total_complexity.
func (c *Complexity) Total() int {
	t := c.Module
	for _, f := range c.Functions {
		t += f.Complexity - 1
	}
	for _, k := range c.Classes {
		t += k.RealComplexity - 1
	}
	return t
}

// Blocks returns the blocks `radon cc` reports, in radon's order: the
// functions, then each class followed by its methods, stably sorted by
// descending complexity. Closures stay nested in their functions.
func (c *Complexity) Blocks() []Block {
	var out []Block
	out = append(out, c.Functions...)
	for _, k := range c.Classes {
		out = append(out, k)
		out = append(out, k.Methods...)
	}
	slices.SortStableFunc(out, func(a, b Block) int { return b.Complexity - a.Complexity })
	return out
}

// CyclomaticComplexity computes radon's cyclomatic complexity for every block
// of a Python module. The tree should be free of syntax errors; nodes of an
// erroneous tree are counted as they come.
//
// Counting (radon's ComplexityVisitor): a block starts at 1 and gains +1 per
// `if`, `elif`, conditional expression, `for`/`async for`, `while`, and
// `else` of a loop; +1 per `except` handler and +1 for a `try … else`
// (`try … except*` adds nothing: radon does not recognize ast.TryStar);
// `match` adds the number of cases, minus one when a case's pattern is a bare
// capture or `_`; each comprehension adds 1 per `for` and 1 per `if` clause;
// a boolean operation adds its number of operands minus one; `assert` adds 1
// and nothing inside it is counted; `with` and `lambda` add nothing (a lambda's
// body is counted). Nested def and class bodies, decorators, parameter
// defaults and annotations of defs are not part of any block's count.
//
// Source: radon 6.0.1 radon/visitors.py ComplexityVisitor; radon docs
// "Cyclomatic Complexity" (https://radon.readthedocs.io/en/latest/intro.html).
func CyclomaticComplexity(t *syntax.Tree) Complexity {
	v := ccVisitor{t: t, kinds: ccKinds.Table(t.Lang), maxLine: math.MinInt, defs: map[syntax.NodeID]int{}}
	root := t.Root()
	for c := t.Nodes[root].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		v.walk(c)
	}
	return Complexity{Functions: v.functions, Classes: v.classes, Module: 1 + v.complexity, ByDef: v.defs}
}

// ComplexityTotals is what CyclomaticComplexity's analysis gives the
// maintainability index and per-def limits: Complexity.Total() and
// Complexity.ByDef, computed without building blocks.
type ComplexityTotals struct {
	Total int                   // radon's total complexity of the module (Complexity.Total)
	ByDef map[syntax.NodeID]int // every def's complexity (Complexity.ByDef)
}

// CyclomaticTotals returns the module total and the per-def complexities of
// CyclomaticComplexity(t), counted the same way, faster.
func CyclomaticTotals(t *syntax.Tree) ComplexityTotals {
	v := ccVisitor{t: t, kinds: ccKinds.Table(t.Lang), lean: true, defs: map[syntax.NodeID]int{}}
	root := t.Root()
	for c := t.Nodes[root].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		v.walk(c)
	}
	// Total: Module + Σ (function − 1) + Σ (class real complexity − 1)
	return ComplexityTotals{Total: 1 + v.complexity + v.fnSum - v.fnCount + v.classSum, ByDef: v.defs}
}

// leanFunction is makeFunction's complexity without the block.
func leanFunction(t *syntax.Tree, kinds syntax.KindTable, n syntax.NodeID, defs map[syntax.NodeID]int) int {
	v := ccVisitor{t: t, kinds: kinds, lean: true, defs: defs}
	v.walkBody(n)
	c := 1 + v.complexity // closures are blocks of their own
	defs[n] = c
	return c
}

// leanClass is makeClass's real complexity without the block.
func leanClass(t *syntax.Tree, kinds syntax.KindTable, n syntax.NodeID, defs map[syntax.NodeID]int) int {
	v := ccVisitor{t: t, kinds: kinds, lean: true, defs: defs}
	v.walkBody(n)
	return 1 + v.complexity + v.fnSum // inner classes do not count
}

// walkBody walks every statement of a def or class body.
func (v *ccVisitor) walkBody(n syntax.NodeID) {
	t := v.t
	body := t.ChildByField(n, "body")
	if body == syntax.NoNode {
		return
	}
	for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		v.walk(c) // walk skips comments
	}
}

// FunctionComplexity returns radon's complexity of one function_definition
// node (its closures excluded), wherever the def is, including defs radon
// itself does not report (methods of nested classes, defs inside classes
// inside defs).
func FunctionComplexity(t *syntax.Tree, def syntax.NodeID) int {
	b := makeFunction(t, def, false, "", nil)
	return b.Complexity
}

// ccVisitor accumulates what radon's ComplexityVisitor collects while it
// visits one statement (or the module).
type ccVisitor struct {
	t          *syntax.Tree
	kinds      syntax.KindTable // ccKinds.Table(t.Lang)
	toMethod   bool
	classname  string
	complexity int
	maxLine    int // the largest AST start line seen, math.MinInt when none
	functions  []Block
	classes    []Block
	defs       map[syntax.NodeID]int // when not nil, receives every def's complexity
	// lean visitors (CyclomaticTotals) build no blocks and track no lines:
	// they sum the complexities of the defs they meet and the real
	// complexities minus one of the classes
	lean           bool
	fnSum, fnCount int
	classSum       int
}

// node classes of ccVisitor.walk; ckNoLine is or-ed in for the types
// that have no AST counterpart with a position (CPython gives no lineno)
const (
	ckOther = iota
	ckDecorated
	ckFunction
	ckClass
	ckAssert
	ckDecision // if, elif, conditional expression, boolean operation
	ckLoop
	ckTry
	ckMatch
	ckForIn
	ckIfClause
	ckString
	ckConcatenated
	ckAttribute
	ckNoLine = 0x80
)

var ccKinds = func() *syntax.KindClasses {
	names := map[string]uint8{
		"decorated_definition":   ckDecorated,
		"function_definition":    ckFunction,
		"class_definition":       ckClass,
		"assert_statement":       ckAssert,
		"if_statement":           ckDecision,
		"elif_clause":            ckDecision,
		"conditional_expression": ckDecision,
		"boolean_operator":       ckDecision,
		"for_statement":          ckLoop,
		"while_statement":        ckLoop,
		"try_statement":          ckTry,
		"match_statement":        ckMatch,
		"for_in_clause":          ckForIn,
		"if_clause":              ckIfClause,
		"string":                 ckString,
		"concatenated_string":    ckConcatenated,
		"attribute":              ckAttribute,
	}
	for _, k := range noASTLine {
		names[k] |= ckNoLine
	}
	return &syntax.KindClasses{Names: names}
}()

// noASTLine lists the tree-sitter node types that have no AST counterpart
// with a position (blocks, clauses, parameter lists, …).
var noASTLine = []string{"block", "else_clause", "finally_clause", "case_clause", "for_in_clause", "if_clause",
	"parameters", "lambda_parameters", "argument_list", "parenthesized_expression", "pair",
	"with_clause", "with_item", "as_pattern_target", "type", "interpolation",
	"format_specifier", "format_expression", "keyword_separator", "positional_separator",
	"import_prefix", "relative_import", "string_start", "string_content", "string_end",
	"escape_sequence", "escape_interpolation", "line_continuation", "comment"}

func (v *ccVisitor) walk(n syntax.NodeID) {
	t := v.t
	nd := &t.Nodes[n]
	if !nd.Named || nd.Extra {
		return
	}
	class := v.kinds.Of(nd)
	switch class &^ ckNoLine {
	case ckDecorated:
		if d := t.ChildByField(n, "definition"); d != syntax.NoNode {
			v.walk(d)
		}
		return
	case ckFunction:
		if v.lean {
			v.fnSum += leanFunction(t, v.kinds, n, v.defs)
			v.fnCount++
			return
		}
		v.functions = append(v.functions, makeFunction(t, n, v.toMethod, v.classname, v.defs))
		return
	case ckClass:
		if v.lean {
			v.classSum += leanClass(t, v.kinds, n, v.defs) - 1
			return
		}
		v.classes = append(v.classes, makeClass(t, n, v.defs))
		return
	case ckAssert:
		v.complexity++
		return
	default:
		v.complexity += ccDecisions(t, n, class&^ckNoLine)
	}
	if class&ckNoLine == 0 {
		if line := t.Line(n); line > v.maxLine {
			v.maxLine = line
		}
	}
	switch class &^ ckNoLine {
	case ckString:
		// only interpolations hold AST nodes
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind() == "interpolation" {
				v.walk(c)
			}
		}
		return
	case ckConcatenated:
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			v.walkStringNoLine(c)
		}
		return
	case ckAttribute:
		if o := t.ChildByField(n, "object"); o != syntax.NoNode {
			v.walk(o)
		}
		return
	}
	for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		v.walk(c)
	}
}

// ccDecisions returns the decision points node n (of class, ckNoLine
// cleared) adds to its block; asserts and the nodes that open blocks are
// handled by the walks.
func ccDecisions(t *syntax.Tree, n syntax.NodeID, class uint8) int {
	switch class {
	case ckDecision:
		return 1
	case ckLoop:
		if fieldAlternative.Child(t, n) != syntax.NoNode {
			return 2
		}
		return 1
	case ckTry:
		handlers, group, orelse := 0, false, false
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			switch t.Nodes[c].Kind() {
			case "except_clause":
				handlers++
			case "except_group_clause":
				group = true
			case "else_clause":
				orelse = true
			}
		}
		if group {
			return 0
		}
		if orelse {
			return handlers + 1
		}
		return handlers
	case ckMatch:
		cases, wildcard := 0, false
		if body := t.ChildByField(n, "body"); body != syntax.NoNode {
			for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				if t.Nodes[c].Kind() == "case_clause" {
					cases++
					wildcard = wildcard || isIrrefutableCase(t, c)
				}
			}
		}
		if wildcard {
			cases--
		}
		return max(0, cases)
	case ckForIn:
		return 1
	case ckIfClause:
		if t.Kind(t.Nodes[n].Parent) != "case_clause" {
			return 1
		}
	}
	return 0
}

// walkStringNoLine visits the interpolations of a part of an implicitly
// concatenated string: the parts after the first have no AST node of their own.
func (v *ccVisitor) walkStringNoLine(s syntax.NodeID) {
	t := v.t
	for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind() == "interpolation" {
			v.walk(c)
		}
	}
}

// isIrrefutableCase reports whether a case clause's pattern is `_` or a bare
// capture name (ast.MatchAs without a sub-pattern), possibly in grouping
// parentheses, guard or not. `case x,:` is a sequence pattern.
func isIrrefutableCase(t *syntax.Tree, c syntax.NodeID) bool {
	pat := syntax.NoNode
	for k := t.Nodes[c].FirstChild; k != syntax.NoNode; k = t.Nodes[k].NextSibling {
		switch t.Nodes[k].Kind() {
		case "case_pattern":
			if pat != syntax.NoNode {
				return false
			}
			pat = k
		case ",":
			return false
		}
	}
	for pat != syntax.NoNode {
		only, commas := syntax.NoNode, 0
		count := 0
		for k := t.Nodes[pat].FirstChild; k != syntax.NoNode; k = t.Nodes[k].NextSibling {
			switch kind := t.Nodes[k].Kind(); {
			case t.Nodes[k].Extra || kind == "(" || kind == ")":
			case kind == ",":
				commas++
			default:
				only = k
				count++
			}
		}
		if count != 1 || commas > 0 {
			return false
		}
		switch t.Nodes[only].Kind() {
		case "_":
			return true
		case "dotted_name":
			first := t.Nodes[only].FirstChild
			return first != syntax.NoNode && t.Nodes[first].NextSibling == syntax.NoNode
		case "case_pattern", "tuple_pattern":
			pat = only
			continue
		}
		return false
	}
	return false
}

func nameOf(t *syntax.Tree, n syntax.NodeID) string {
	if id := t.ChildByField(n, "name"); id != syntax.NoNode {
		return IdentifierName(t.Text(id))
	}
	return ""
}

// IdentifierName returns the name Python gives an identifier written as
// src: its NFKC normalization (`cafe\u0301` is `café`, `ｆ` is `f`), as
// CPython's parser and so radon's block names have it. ASCII is returned
// as is. Source: Python reference "Identifiers and keywords" (PEP 3131).
func IdentifierName(src []byte) string {
	for _, c := range src {
		if c >= utf8.RuneSelf {
			return norm.NFKC.String(string(src))
		}
	}
	return string(src)
}

// bodyStatements calls fn for every statement of a def or class body.
func bodyStatements(t *syntax.Tree, n syntax.NodeID, fn func(syntax.NodeID)) {
	body := t.ChildByField(n, "body")
	if body == syntax.NoNode {
		return
	}
	for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Named && !nd.Extra {
			fn(c)
		}
	}
}

func makeFunction(t *syntax.Tree, n syntax.NodeID, isMethod bool, classname string, defs map[syntax.NodeID]int) Block {
	b := Block{Type: TypeFunction, Name: nameOf(t, n), Lineno: t.Line(n), ColOffset: t.Column(n) - 1, Node: n, Complexity: 1}
	if isMethod {
		b.Type, b.Classname = TypeMethod, classname
	}
	last := math.MinInt
	kinds := ccKinds.Table(t.Lang)
	bodyStatements(t, n, func(s syntax.NodeID) {
		v := ccVisitor{t: t, kinds: kinds, maxLine: math.MinInt, defs: defs}
		v.walk(s)
		b.Closures = append(b.Closures, v.functions...)
		b.Complexity += v.complexity
		last = v.maxLine
	})
	b.Endline = max(b.Lineno, last)
	b.RealComplexity = b.Complexity
	if defs != nil {
		defs[n] = b.Complexity
	}
	return b
}

func makeClass(t *syntax.Tree, n syntax.NodeID, defs map[syntax.NodeID]int) Block {
	b := Block{Type: TypeClass, Name: nameOf(t, n), Lineno: t.Line(n), ColOffset: t.Column(n) - 1, Node: n}
	real := 1
	end := b.Lineno
	kinds := ccKinds.Table(t.Lang)
	bodyStatements(t, n, func(s syntax.NodeID) {
		v := ccVisitor{t: t, kinds: kinds, toMethod: true, classname: b.Name, maxLine: math.MinInt, defs: defs}
		v.walk(s)
		b.Methods = append(b.Methods, v.functions...)
		real += v.complexity
		for _, m := range v.functions {
			real += m.Complexity
		}
		end = max(end, v.maxLine)
		b.InnerClasses = append(b.InnerClasses, v.classes...)
	})
	for _, m := range b.Methods {
		end = max(end, m.Endline)
	}
	b.Endline = end
	b.RealComplexity = real
	b.Complexity = real
	if k := len(b.Methods); k > 0 {
		b.Complexity = real / k
		if k > 1 {
			b.Complexity++
		}
	}
	return b
}
