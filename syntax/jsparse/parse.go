package jsparse

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrUnsupported is wrapped by Parse's error when the source uses a
// construct jsparse does not parse yet (see the package comment); the
// caller falls back to tree-sitter.
var ErrUnsupported = errors.New("jsparse: unsupported construct")

// SyntaxError is Parse's error for source jsparse cannot parse: a syntax
// error, or a construct tree-sitter-javascript reads another way than the
// ones jsparse knows. Offset is the byte where it was found.
type SyntaxError struct {
	Offset      int
	Msg         string
	unsupported bool
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("jsparse: byte %d: %s", e.Offset, e.Msg)
}

// Unwrap makes errors.Is(err, ErrUnsupported) hold for unsupported constructs.
func (e *SyntaxError) Unwrap() error {
	if e.unsupported {
		return ErrUnsupported
	}
	return nil
}

var (
	kProgram, kComment, kHashBang, kIdent, kPropIdent, kShorthand, kShorthandPat, kStmtIdent Kind
	kPrivProp, kNumber, kString, kFragment, kEscape, kTemplate, kSubst, kRegex, kRegexPat    Kind
	kRegexFlags, kThis, kSuper, kTrue, kFalse, kNull, kUndefined, kExprStmt, kVarDecl        Kind
	kLexDecl, kDeclarator, kBlock, kElse, kIf, kSwitch, kFor, kForIn, kWhile, kDo, kTry      Kind
	kWith, kBreak, kContinue, kDebugger, kReturn, kThrow, kEmpty, kLabeled, kSwitchBody      Kind
	kCase, kDefault, kCatch, kFinally, kParen, kSeq, kYield, kObject, kObjPat, kAssignPat    Kind
	kObjAssignPat, kArray, kArrayPat, kClass, kClassDecl, kHeritage, kFuncExpr, kFuncDecl    Kind
	kGenFunc, kGenFuncDecl, kArrow, kOptChain, kCall, kNew, kAwait, kMember, kSubscript      Kind
	kAssign, kAugAssign, kSpread, kTernary, kBinary, kUnary, kUpdate, kMeta, kArgs           Kind
	kClassBody, kField, kFormal, kStaticBlock, kRest, kMethod, kPair, kPairPat, kComputed    Kind
	kImportStmt, kImportClause, kNsImport, kNamedImports, kImportSpec, kImportAttr, kImport  Kind
	kExportStmt, kNsExport, kExportClause, kExportSpec                                       Kind
)

var (
	fName, fValue, fKind, fBody, fCondition, fConsequence, fAlternative, fInitializer Field
	fIncrement, fLeft, fRight, fOperator, fLabel, fHandler, fFinalizer, fParameter    Field
	fObject, fProperty, fIndex, fFunction, fArguments, fOptChain, fConstructor, fArg  Field
	fParameters, fKey, fPattern, fFlags, fSource, fAlias, fDeclaration, fMember       Field
)

func init() {
	for _, k := range []struct {
		p *Kind
		n string
	}{
		{&kProgram, "program"}, {&kComment, "comment"}, {&kHashBang, "hash_bang_line"}, {&kIdent, "identifier"},
		{&kPropIdent, "property_identifier"}, {&kShorthand, "shorthand_property_identifier"},
		{&kShorthandPat, "shorthand_property_identifier_pattern"}, {&kStmtIdent, "statement_identifier"},
		{&kPrivProp, "private_property_identifier"}, {&kNumber, "number"}, {&kString, "string"},
		{&kFragment, "string_fragment"}, {&kEscape, "escape_sequence"}, {&kTemplate, "template_string"},
		{&kSubst, "template_substitution"}, {&kRegex, "regex"}, {&kRegexPat, "regex_pattern"},
		{&kRegexFlags, "regex_flags"}, {&kThis, "this"}, {&kSuper, "super"}, {&kTrue, "true"},
		{&kFalse, "false"}, {&kNull, "null"}, {&kUndefined, "undefined"}, {&kExprStmt, "expression_statement"},
		{&kVarDecl, "variable_declaration"}, {&kLexDecl, "lexical_declaration"}, {&kDeclarator, "variable_declarator"},
		{&kBlock, "statement_block"}, {&kElse, "else_clause"}, {&kIf, "if_statement"}, {&kSwitch, "switch_statement"},
		{&kFor, "for_statement"}, {&kForIn, "for_in_statement"}, {&kWhile, "while_statement"}, {&kDo, "do_statement"},
		{&kTry, "try_statement"}, {&kWith, "with_statement"}, {&kBreak, "break_statement"},
		{&kContinue, "continue_statement"}, {&kDebugger, "debugger_statement"}, {&kReturn, "return_statement"},
		{&kThrow, "throw_statement"}, {&kEmpty, "empty_statement"}, {&kLabeled, "labeled_statement"},
		{&kSwitchBody, "switch_body"}, {&kCase, "switch_case"}, {&kDefault, "switch_default"},
		{&kCatch, "catch_clause"}, {&kFinally, "finally_clause"}, {&kParen, "parenthesized_expression"},
		{&kSeq, "sequence_expression"}, {&kYield, "yield_expression"}, {&kObject, "object"},
		{&kObjPat, "object_pattern"}, {&kAssignPat, "assignment_pattern"}, {&kObjAssignPat, "object_assignment_pattern"},
		{&kArray, "array"}, {&kArrayPat, "array_pattern"}, {&kClass, "class"}, {&kClassDecl, "class_declaration"},
		{&kHeritage, "class_heritage"}, {&kFuncExpr, "function_expression"}, {&kFuncDecl, "function_declaration"},
		{&kGenFunc, "generator_function"}, {&kGenFuncDecl, "generator_function_declaration"},
		{&kArrow, "arrow_function"}, {&kOptChain, "optional_chain"}, {&kCall, "call_expression"},
		{&kNew, "new_expression"}, {&kAwait, "await_expression"}, {&kMember, "member_expression"},
		{&kSubscript, "subscript_expression"}, {&kAssign, "assignment_expression"},
		{&kAugAssign, "augmented_assignment_expression"}, {&kSpread, "spread_element"},
		{&kTernary, "ternary_expression"}, {&kBinary, "binary_expression"}, {&kUnary, "unary_expression"},
		{&kUpdate, "update_expression"}, {&kMeta, "meta_property"}, {&kArgs, "arguments"},
		{&kClassBody, "class_body"}, {&kField, "field_definition"}, {&kFormal, "formal_parameters"},
		{&kStaticBlock, "class_static_block"}, {&kRest, "rest_pattern"}, {&kMethod, "method_definition"},
		{&kPair, "pair"}, {&kPairPat, "pair_pattern"}, {&kComputed, "computed_property_name"},
		{&kImportStmt, "import_statement"}, {&kImportClause, "import_clause"}, {&kNsImport, "namespace_import"},
		{&kNamedImports, "named_imports"}, {&kImportSpec, "import_specifier"}, {&kImportAttr, "import_attribute"},
		{&kImport, "import"}, {&kExportStmt, "export_statement"}, {&kNsExport, "namespace_export"},
		{&kExportClause, "export_clause"}, {&kExportSpec, "export_specifier"},
	} {
		*k.p = kindOf(k.n)
	}
	for _, s := range puncts {
		kindOf(s)
	}
	for _, s := range anonTokens {
		kindOf(s)
	}
	for _, f := range []struct {
		p *Field
		n string
	}{
		{&fName, "name"}, {&fValue, "value"}, {&fKind, "kind"}, {&fBody, "body"}, {&fCondition, "condition"},
		{&fConsequence, "consequence"}, {&fAlternative, "alternative"}, {&fInitializer, "initializer"},
		{&fIncrement, "increment"}, {&fLeft, "left"}, {&fRight, "right"}, {&fOperator, "operator"},
		{&fLabel, "label"}, {&fHandler, "handler"}, {&fFinalizer, "finalizer"}, {&fParameter, "parameter"},
		{&fObject, "object"}, {&fProperty, "property"}, {&fIndex, "index"}, {&fFunction, "function"},
		{&fArguments, "arguments"}, {&fOptChain, "optional_chain"}, {&fConstructor, "constructor"},
		{&fArg, "argument"}, {&fParameters, "parameters"}, {&fKey, "key"}, {&fPattern, "pattern"},
		{&fFlags, "flags"}, {&fSource, "source"}, {&fAlias, "alias"}, {&fDeclaration, "declaration"},
		{&fMember, "member"},
	} {
		*f.p = fieldOf(f.n)
	}
}

type parser struct {
	src     []byte
	tok     token
	prevEnd uint32
	nodes   []bnode
	extras  []span
	depth   int
	// farAt and farMsg are the farthest syntax error met, speculative
	// branches included: the one Parse reports
	farAt  uint32
	farMsg string
	// failed holds the speculative branches that failed (see try)
	failed map[uint64]bool
	// exported is set while an export statement's declaration is parsed
	exported bool
	// rewound counts the source bytes that speculation has gone back over
	// (see restore); past rewindBudget the parse is abandoned
	rewound, rewindBudget uint64
}

// bail is the panic value that ends a parse or a speculative branch.
type bail struct{ err *SyntaxError }

func (p *parser) fail(at uint32, msg string) {
	if at >= p.farAt {
		p.farAt, p.farMsg = at, msg
	}
	panic(bail{&SyntaxError{Offset: int(at), Msg: msg}})
}

func (p *parser) unsupported(at uint32, msg string) {
	panic(bail{&SyntaxError{Offset: int(at), Msg: msg, unsupported: true}})
}

// maxDepth bounds the recursion of the parser (deeper files fall back).
const maxDepth = 1000

// Parse parses src, a JavaScript file as tree-sitter-javascript v0.23.1
// reads .js, .mjs and .cjs files, and returns the tree tree-sitter builds
// for it when tree-sitter finds no error (same kinds, fields, named and
// anonymous tokens, comments, byte spans). Its error is a *SyntaxError:
// a syntax error, or one that wraps ErrUnsupported for a construct jsparse
// does not parse (yet); either way the caller falls back to tree-sitter.
func Parse(src []byte) (t *Tree, err error) {
	p := &parser{src: src, nodes: make([]bnode, 0, len(src)/3+16),
		rewindBudget: rewindPerByte*uint64(len(src)) + rewindBase}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			if !b.err.unsupported && p.farMsg != "" {
				b.err.Offset, b.err.Msg = int(p.farAt), p.farMsg
			}
			t, err = nil, b.err
		}
	}()
	if len(src) >= 1<<31 {
		p.unsupported(0, "file too large")
	}
	if bytes.IndexByte(src, 0) >= 0 {
		// tree-sitter's scanner reads a NUL as the end of input
		p.unsupported(uint32(bytes.IndexByte(src, 0)), "NUL byte")
	}
	root := p.mk(kProgram)
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		e := uint32(0)
		for int(e) < len(src) && src[e] != '\n' {
			e++
		}
		if e > 0 && src[e-1] == '\r' {
			p.unsupported(0, "hash bang line with CR")
		}
		p.add(root, p.leaf(kHashBang, true, 0, e), 0)
		p.tok.end = e
	}
	p.next()
	for p.tok.t != tEOF {
		p.add(root, p.statement(), 0)
	}
	r := &p.nodes[root]
	if r.first < 0 {
		if len(p.extras) > 0 {
			r.start = p.extras[0].start
		} else {
			r.start = uint32(len(src))
		}
	} else if len(p.extras) > 0 && p.extras[0].start < r.start {
		r.start = p.extras[0].start
	}
	r.end = uint32(len(src))
	return flatten(src, p.nodes, root, p.extras), nil
}

// --- node building

func (p *parser) mk(k Kind) int32 {
	p.nodes = append(p.nodes, bnode{start: p.tok.start, end: p.tok.start, first: -1, last: -1, next: -1, kind: k, named: true})
	return int32(len(p.nodes) - 1)
}

func (p *parser) leaf(k Kind, named bool, s, e uint32) int32 {
	p.nodes = append(p.nodes, bnode{start: s, end: e, first: -1, last: -1, next: -1, kind: k, named: named})
	return int32(len(p.nodes) - 1)
}

func (p *parser) add(n, c int32, f Field) {
	if c < 0 {
		return
	}
	b, cb := &p.nodes[n], &p.nodes[c]
	cb.field = f
	if b.first < 0 {
		b.first = c
		b.start = cb.start
	} else {
		p.nodes[b.last].next = c
	}
	b.last = c
	if cb.end > b.end {
		b.end = cb.end
	}
}

// wrap makes a node of kind k whose first child is c.
func (p *parser) wrap(k Kind, c int32, f Field) int32 {
	n := p.mk(k)
	p.add(n, c, f)
	return n
}

// tokLeaf makes the current token a leaf of kind k and moves on.
func (p *parser) tokLeaf(k Kind, named bool) int32 {
	n := p.leaf(k, named, p.tok.start, p.tok.end)
	p.next()
	return n
}

// anon makes the current token an anonymous leaf and moves on.
func (p *parser) anon() int32 {
	if p.tok.t == tPunct {
		return p.tokLeaf(p.tok.k, false)
	}
	return p.tokLeaf(p.anonKind(p.tok.v), false)
}

// anonKind returns the kind of the anonymous token v; the kinds are all
// registered at init, so that Parse only reads the tables (it may run on
// many goroutines at once).
func (p *parser) anonKind(v string) Kind {
	k, ok := kinds.Lookup(v)
	if !ok {
		p.unsupported(p.tok.start, "unknown token "+v)
	}
	return k
}

// anonTokens are the texts of the anonymous tokens jsparse emits besides
// the punctuators.
var anonTokens = []string{"\"", "'", "`", "${", "as", "async", "await", "break", "case", "catch", "class",
	"const", "continue", "debugger", "default", "delete", "do", "else", "export", "extends", "finally", "for",
	"from", "function", "get", "if", "import", "in", "instanceof", "let", "meta", "new", "of", "return", "set",
	"static", "switch", "target", "throw", "try", "typeof", "var", "void", "while", "with", "yield"}

func (p *parser) is(v string) bool { return (p.tok.t == tPunct || p.tok.t == tName) && p.tok.v == v }

func (p *parser) expect(n int32, v string, f Field) {
	if !p.is(v) {
		p.fail(p.tok.start, "expected "+v)
	}
	p.add(n, p.anon(), f)
}

// --- speculation

type state struct {
	tok           token
	prevEnd       uint32
	nodes, extras int
}

func (p *parser) save() state {
	return state{p.tok, p.prevEnd, len(p.nodes), len(p.extras)}
}

// Speculation reads some text twice: a parenthesized list before "=>",
// an object or array before "=", nested in one another. Each nesting level
// can send the parser back over the text of the levels inside it, so a
// file built to nest such constructs can cost time quadratic in its depth
// (1 MB of "([a," a hundred deep took 10 s, tree-sitter 1.1 s). restore
// therefore counts the bytes it goes back over, and past rewindPerByte
// times the file's size plus rewindBase the parse is abandoned as
// unsupported: the caller falls back to tree-sitter, whose parse has a CPU
// budget of its own. On the npm corpus of the differential test (84 MB)
// speculation goes back over 0.21 bytes per byte, and over 1.9 on the
// worst file (a minified one).
const (
	rewindPerByte = 4
	rewindBase    = 1 << 16
)

func (p *parser) restore(s state) {
	if p.tok.end > s.tok.end {
		p.rewound += uint64(p.tok.end - s.tok.end)
	}
	p.tok, p.prevEnd, p.nodes, p.extras = s.tok, s.prevEnd, p.nodes[:s.nodes], p.extras[:s.extras]
	if p.rewound > p.rewindBudget {
		p.unsupported(p.tok.start, fmt.Sprintf("speculation went back over more than %d bytes", p.rewindBudget))
	}
}

// What a speculative branch tries (try's kind).
const (
	tryPattern         = iota // a destructuring assignment's pattern
	tryArrow                  // an arrow function's parameters
	tryForIn                  // a for-in/of header
	tryExportFunction         // export default function with a name
	tryObjectStatement        // an object literal at the start of a statement
)

// try runs f, a speculative branch of kind what starting at the current
// token; when it fails with a syntax error, the parser goes back to where
// it was and try returns -1. A branch that failed at a token is not tried
// again there (nested brackets would otherwise be tried exponentially
// often). Unsupported constructs still end the parse.
func (p *parser) try(what int, f func() int32) (n int32) {
	key := uint64(p.tok.start)<<3 | uint64(what)
	if p.failed[key] {
		return -1
	}
	s := p.save()
	d := p.depth
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok || b.err.unsupported {
				panic(r)
			}
			p.restore(s)
			p.depth = d
			if p.failed == nil {
				p.failed = map[uint64]bool{}
			}
			p.failed[key] = true
			n = -1
		}
	}()
	return f()
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.unsupported(p.tok.start, "nesting too deep")
	}
}

// --- semicolons

// semi ends statement n with ";" or an automatic semicolon (which may
// extend n over comments before it).
func (p *parser) semi(n int32, cond bool) {
	if p.is(";") {
		p.add(n, p.anon(), 0)
		return
	}
	pos, ok := p.asi(cond)
	if !ok {
		p.fail(p.tok.start, "expected ;")
	}
	if pos > p.nodes[n].end {
		p.nodes[n].end = pos
	}
}

// asi reports whether tree-sitter inserts an automatic semicolon before
// the current token, and where: the scanner runs after the last token and
// again after each comment that follows it.
func (p *parser) asi(cond bool) (uint32, bool) {
	pos := p.prevEnd
	ei := len(p.extras)
	for ei > 0 && p.extras[ei-1].start >= pos {
		ei--
	}
	for {
		if p.asiAt(pos, cond) {
			return pos, true
		}
		if ei < len(p.extras) && p.extras[ei].start < p.tok.start {
			pos = p.extras[ei].end
			ei++
			continue
		}
		return 0, false
	}
}

// --- statements

func (p *parser) statement() int32 {
	p.enter()
	defer func() { p.depth-- }()
	t := p.tok
	if t.t == tPunct {
		switch t.v {
		case "{":
			// a block that also reads as an object literal statement: two
			// parses for tree-sitter, which picks the object for "{a: 0}";
			// which it picks elsewhere is not known yet
			// (tree-sitter lexes a statement keyword after "{" as the
			// keyword, which no object member starts with)
			s := p.save()
			p.next()
			maybe := p.tok.t == tName && !isKeyword(p.tok.v) && p.tok.v != "let" || p.tok.t == tStr || p.tok.t == tNum || p.is("[")
			p.restore(s)
			if maybe && p.try(tryObjectStatement, p.exprStatement) >= 0 {
				p.restore(s)
				p.unsupported(s.tok.start, "block that reads as an object")
			}
			return p.block(asiStatement)
		case ";":
			return p.tokLeafNamed(kEmpty)
		case "@":
			p.unsupported(t.start, "decorator")
		case "--":
			if p.at(t.end) == '>' {
				p.unsupported(t.start, "html comment")
			}
		}
		return p.exprStatement()
	}
	if t.t != tName {
		return p.exprStatement()
	}
	switch t.v {
	case "var":
		return p.varDecl(kVarDecl, 0, true)
	case "const":
		return p.varDecl(kLexDecl, fKind, true)
	case "let":
		s := p.save()
		p.next()
		isDecl := p.tok.t == tName && p.tok.v != "in" && p.tok.v != "instanceof" || p.is("[") || p.is("{")
		if isDecl && p.tok.nl {
			// "let" as an identifier ending the statement: tree-sitter
			// tries the automatic semicolon first
			if _, ok := p.asi(false); ok {
				isDecl = false
			}
		}
		p.restore(s)
		if isDecl {
			return p.varDecl(kLexDecl, fKind, true)
		}
	case "function":
		return p.function(true)
	case "async":
		s := p.save()
		p.next()
		isFn := p.is("function") && !p.tok.nl
		p.restore(s)
		if isFn {
			return p.function(true)
		}
	case "class":
		return p.class(true)
	case "if":
		n := p.mk(kIf)
		p.add(n, p.anon(), 0)
		p.add(n, p.parenExpr(), fCondition)
		p.add(n, p.statement(), fConsequence)
		if p.is("else") {
			e := p.mk(kElse)
			p.add(e, p.anon(), 0)
			p.add(e, p.statement(), 0)
			p.add(n, e, fAlternative)
		}
		return n
	case "switch":
		return p.switchStmt()
	case "for":
		return p.forStmt()
	case "while", "with":
		k, f := kWhile, fCondition
		if t.v == "with" {
			k, f = kWith, fObject
		}
		n := p.mk(k)
		p.add(n, p.anon(), 0)
		p.add(n, p.parenExpr(), f)
		p.add(n, p.statement(), fBody)
		return n
	case "do":
		n := p.mk(kDo)
		p.add(n, p.anon(), 0)
		p.add(n, p.statement(), fBody)
		p.expect(n, "while", 0)
		p.add(n, p.parenExpr(), fCondition)
		if p.is(";") {
			p.add(n, p.anon(), 0)
		}
		return n
	case "try":
		n := p.mk(kTry)
		p.add(n, p.anon(), 0)
		p.add(n, p.blockOnly(asiCondTrue), fBody)
		if p.is("catch") {
			c := p.mk(kCatch)
			p.add(c, p.anon(), 0)
			if p.is("(") {
				p.add(c, p.anon(), 0)
				p.add(c, p.bindingTarget(), fParameter)
				p.expect(c, ")", 0)
			}
			p.add(c, p.blockOnly(asiCondTrue), fBody)
			p.add(n, c, fHandler)
		}
		if p.is("finally") {
			c := p.mk(kFinally)
			p.add(c, p.anon(), 0)
			p.add(c, p.blockOnly(asiCondTrue), fBody)
			p.add(n, c, fFinalizer)
		}
		if p.nodes[n].first == p.nodes[n].last {
			p.fail(p.tok.start, "try without catch or finally")
		}
		return n
	case "return", "throw":
		k := kReturn
		if t.v == "throw" {
			k = kThrow
		}
		n := p.mk(k)
		p.add(n, p.anon(), 0)
		if k == kReturn {
			if p.is(";") {
				p.add(n, p.anon(), 0)
				return n
			}
			if pos, ok := p.asi(true); ok {
				if pos > p.nodes[n].end {
					p.nodes[n].end = pos
				}
				return n
			}
		}
		p.add(n, p.expressions(), 0)
		p.semi(n, false)
		return n
	case "break", "continue":
		k := kBreak
		if t.v == "continue" {
			k = kContinue
		}
		n := p.mk(k)
		p.add(n, p.anon(), 0)
		if p.tok.t == tName && !p.tok.nl && !p.is(";") {
			if _, ok := p.asi(true); !ok {
				p.add(n, p.tokLeaf(kStmtIdent, true), fLabel)
			}
		}
		p.semi(n, true)
		return n
	case "debugger":
		n := p.mk(kDebugger)
		p.add(n, p.anon(), 0)
		p.semi(n, true)
		return n
	case "import":
		s := p.save()
		p.next()
		isExpr := p.is("(") || p.is(".")
		p.restore(s)
		if !isExpr {
			return p.importStmt()
		}
	case "export":
		return p.exportStmt()
	}
	if !isKeyword(t.v) {
		s := p.save()
		p.next()
		isLabel := p.is(":")
		p.restore(s)
		if isLabel {
			n := p.mk(kLabeled)
			p.add(n, p.tokLeaf(kStmtIdent, true), fLabel)
			p.add(n, p.anon(), 0)
			p.add(n, p.statement(), fBody)
			return n
		}
	}
	return p.exprStatement()
}

func (p *parser) tokLeafNamed(k Kind) int32 {
	n := p.mk(k)
	p.add(n, p.anon(), 0)
	return n
}

// isKeyword reports words that are never identifiers in expressions.
func isKeyword(s string) bool {
	switch s {
	case "if", "else", "for", "while", "do", "try", "catch", "finally", "switch", "case", "default",
		"return", "throw", "break", "continue", "debugger", "with", "var", "const", "function", "class",
		"new", "delete", "typeof", "void", "in", "instanceof", "this", "super", "true", "false", "null",
		"undefined", "import", "await", "yield", "extends":
		return true
	}
	return false
}

func (p *parser) exprStatement() int32 {
	n := p.mk(kExprStmt)
	p.add(n, p.expressions(), 0)
	p.semi(n, false)
	return n
}

// Block contexts: how tree-sitter's optional automatic semicolon after a
// statement_block (and a class declaration) behaves there. Tree-sitter's
// scanner has a comment condition (true where "||" may not follow); where
// it is false, the semicolon may land after a line comment that ends the
// line, and the block takes the comment in. Found by experiment against
// tree-sitter-javascript v0.23.1 (see the snippet tests): false after a
// function's or arrow function's body (not an exported declaration's), a
// class declaration's body and an empty block statement; true after a
// block statement with statements, a try, catch or finally block, a
// method's body and a static block.
const (
	asiCondTrue = iota
	asiCondFalse
	asiStatement // asiCondFalse when empty, else asiCondTrue
)

// block parses a statement_block in context ctx (see asiCondTrue).
func (p *parser) block(ctx int) int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kBlock)
	p.expect(n, "{", 0)
	for !p.is("}") {
		if p.tok.t == tEOF {
			p.fail(p.tok.start, "unterminated block")
		}
		p.add(n, p.statement(), 0)
	}
	empty := p.nodes[n].first == p.nodes[n].last
	p.add(n, p.anon(), 0)
	if ctx == asiCondFalse || ctx == asiStatement && empty {
		p.blockASI(n)
	}
	return n
}

// blockASI ends node n with an optional automatic semicolon where the
// scanner's comment condition is false (see asiCondTrue): n takes in the
// comments before it.
func (p *parser) blockASI(n int32) {
	if p.is(";") {
		return
	}
	if pos, ok := p.asi(false); ok && pos > p.nodes[n].end {
		p.nodes[n].end = pos
	}
}

func (p *parser) blockOnly(ctx int) int32 {
	if !p.is("{") {
		p.fail(p.tok.start, "expected {")
	}
	return p.block(ctx)
}

func (p *parser) parenExpr() int32 {
	n := p.mk(kParen)
	p.expect(n, "(", 0)
	p.add(n, p.expressions(), 0)
	p.expect(n, ")", 0)
	return n
}

// varDecl parses var/let/const declarators; withSemi: a statement.
func (p *parser) varDecl(k Kind, kindField Field, withSemi bool) int32 {
	n := p.mk(k)
	if kindField > 0 {
		p.add(n, p.anon(), kindField)
	} else {
		p.add(n, p.anon(), 0)
	}
	cond := true
	for {
		d := p.mk(kDeclarator)
		p.add(d, p.bindingTarget(), fName)
		cond = true
		if p.is("=") {
			p.add(d, p.anon(), 0)
			p.add(d, p.assign(), fValue)
			cond = false
		}
		p.add(n, d, 0)
		if !p.is(",") {
			break
		}
		p.add(n, p.anon(), 0)
	}
	if withSemi {
		p.semi(n, cond)
	}
	return n
}

// bindingTarget is an identifier or a destructuring pattern.
func (p *parser) bindingTarget() int32 {
	switch {
	case p.is("["):
		return p.arrayPattern()
	case p.is("{"):
		return p.objectPattern()
	}
	if p.tok.t != tName || isKeyword(p.tok.v) && p.tok.v != "undefined" {
		p.fail(p.tok.start, "expected identifier")
	}
	return p.tokLeaf(kIdent, true)
}

// identifier reads a word usable as an identifier in an expression.
func (p *parser) identifier() int32 {
	if p.tok.t != tName || isKeyword(p.tok.v) && p.tok.v != "undefined" {
		p.fail(p.tok.start, "expected identifier")
	}
	if p.tok.v == "undefined" {
		return p.tokLeaf(kUndefined, true)
	}
	return p.tokLeaf(kIdent, true)
}

func (p *parser) switchStmt() int32 {
	n := p.mk(kSwitch)
	p.add(n, p.anon(), 0)
	p.add(n, p.parenExpr(), fValue)
	b := p.mk(kSwitchBody)
	p.expect(b, "{", 0)
	for !p.is("}") {
		var c int32
		switch {
		case p.is("case"):
			c = p.mk(kCase)
			p.add(c, p.anon(), 0)
			p.add(c, p.expressions(), fValue)
		case p.is("default"):
			c = p.mk(kDefault)
			p.add(c, p.anon(), 0)
		default:
			p.fail(p.tok.start, "expected case")
		}
		p.expect(c, ":", 0)
		for !p.is("case") && !p.is("default") && !p.is("}") {
			if p.tok.t == tEOF {
				p.fail(p.tok.start, "unterminated switch")
			}
			p.add(c, p.statement(), fBody)
		}
		p.add(b, c, 0)
	}
	p.add(b, p.anon(), 0)
	p.add(n, b, fBody)
	return n
}

func (p *parser) forStmt() int32 {
	// for-in/of first: its header is "(" target in|of
	if n := p.try(tryForIn, p.forIn); n >= 0 {
		p.add(n, p.statement(), fBody)
		return n
	}
	forTok := p.tok
	s := p.save()
	p.next()
	if p.is("await") {
		p.fail(forTok.start, "for await")
	}
	p.restore(s)
	n := p.mk(kFor)
	p.add(n, p.anon(), 0)
	p.expect(n, "(", 0)
	switch {
	case p.is("var"):
		p.add(n, p.varDecl(kVarDecl, 0, true), fInitializer)
	case p.is("let") || p.is("const"):
		p.add(n, p.varDecl(kLexDecl, fKind, true), fInitializer)
	case p.is(";"):
		p.add(n, p.tokLeafNamed(kEmpty), fInitializer)
	default:
		p.add(n, p.expressions(), fInitializer)
		p.expect(n, ";", 0)
	}
	if p.is(";") {
		p.add(n, p.tokLeafNamed(kEmpty), fCondition)
	} else {
		p.add(n, p.expressions(), fCondition)
		p.expect(n, ";", fCondition)
	}
	if !p.is(")") {
		p.add(n, p.expressions(), fIncrement)
	}
	p.expect(n, ")", 0)
	p.add(n, p.statement(), fBody)
	return n
}

func (p *parser) forIn() int32 {
	n := p.mk(kForIn)
	p.add(n, p.anon(), 0)
	if p.is("await") {
		p.add(n, p.anon(), 0)
	}
	p.expect(n, "(", 0)
	switch {
	case p.is("var") || p.is("const") || p.is("let") && p.letDecl():
		p.add(n, p.anon(), fKind)
		p.add(n, p.bindingTarget(), fLeft)
	case p.is("[") || p.is("{"):
		p.add(n, p.bindingTarget(), fLeft)
	default:
		l := p.lhs()
		switch p.nodes[l].kind {
		case kIdent, kUndefined, kMember, kSubscript, kParen:
		default:
			p.fail(p.tok.start, "bad for-in target")
		}
		p.add(n, l, fLeft)
	}
	if !p.is("in") && !p.is("of") {
		p.fail(p.tok.start, "expected in or of")
	}
	p.add(n, p.anon(), fOperator)
	p.add(n, p.expressions(), fRight)
	p.expect(n, ")", 0)
	return n
}

func (p *parser) letDecl() bool {
	s := p.save()
	p.next()
	ok := p.tok.t == tName && p.tok.v != "in" && p.tok.v != "of" || p.is("[") || p.is("{")
	p.restore(s)
	return ok
}

// --- functions and classes

// function parses [async] function [*] [name] (params) {body}.
func (p *parser) function(decl bool) int32 {
	n := p.mk(kFuncExpr)
	if p.is("async") {
		p.add(n, p.anon(), 0)
	}
	p.expect(n, "function", 0)
	gen := false
	if p.is("*") {
		p.add(n, p.anon(), 0)
		gen = true
	}
	switch {
	case decl && gen:
		p.nodes[n].kind = kGenFuncDecl
	case decl:
		p.nodes[n].kind = kFuncDecl
	case gen:
		p.nodes[n].kind = kGenFunc
	}
	if !p.is("(") {
		if p.tok.t != tName {
			p.fail(p.tok.start, "expected function name")
		}
		p.add(n, p.tokLeaf(kIdent, true), fName)
	} else if decl {
		p.fail(p.tok.start, "function declaration without name")
	}
	p.add(n, p.formalParams(), fParameters)
	ctx := asiCondFalse
	if p.exported && decl {
		ctx = asiCondTrue
	}
	p.add(n, p.blockOnly(ctx), fBody)
	return n
}

func (p *parser) formalParams() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kFormal)
	p.expect(n, "(", 0)
	p.commaList(n, ")", false, func() { p.add(n, p.patternElem(true), 0) })
	return n
}

func (p *parser) class(decl bool) int32 {
	n := p.mk(kClass)
	if decl {
		p.nodes[n].kind = kClassDecl
	}
	p.expect(n, "class", 0)
	if p.tok.t == tName && p.tok.v != "extends" {
		p.add(n, p.tokLeaf(kIdent, true), fName)
	} else if decl {
		p.fail(p.tok.start, "class declaration without name")
	}
	if p.is("extends") {
		h := p.mk(kHeritage)
		p.add(h, p.anon(), 0)
		p.add(h, p.lhs(), 0)
		p.add(n, h, 0)
	}
	b := p.mk(kClassBody)
	p.expect(b, "{", 0)
	for !p.is("}") {
		if p.tok.t == tEOF {
			p.fail(p.tok.start, "unterminated class")
		}
		if p.is(";") {
			p.add(b, p.anon(), 0)
			continue
		}
		if p.is("@") {
			p.unsupported(p.tok.start, "decorator")
		}
		if p.is("static") {
			s := p.save()
			p.next()
			isBlock := p.is("{")
			p.restore(s)
			if isBlock {
				sb := p.mk(kStaticBlock)
				p.add(sb, p.anon(), 0)
				p.add(sb, p.block(asiCondTrue), fBody)
				p.add(b, sb, fMember)
				continue
			}
		}
		p.member(b, true)
	}
	p.add(b, p.anon(), 0)
	p.add(n, b, fBody)
	if decl && !p.exported {
		p.blockASI(n)
	}
	if decl && !p.exported {
		p.blockASI(n)
	}
	return n
}

// isModifier reports whether the current word (static, async, get, set)
// modifies a following member name rather than being the name.
func (p *parser) isModifier() bool {
	s := p.save()
	p.next()
	ok := true
	switch {
	case p.is("(") || p.is("=") || p.is(";") || p.is("}") || p.is(",") || p.is(":") || p.tok.t == tEOF:
		ok = false
	case p.tok.nl && (s.tok.v == "async" || s.tok.v == "static" || s.tok.v == "get" || s.tok.v == "set"):
		p.restore(s)
		p.unsupported(s.tok.start, s.tok.v+" before a line break")
	case s.tok.v == "static" && p.is("get"):
		// "static get" followed by a line break is one token in tree-sitter
		p.next()
		if p.tok.nl {
			p.restore(s)
			p.unsupported(s.tok.start, "static get before a line break")
		}
	}
	p.restore(s)
	return ok
}

// member parses a class member (inClass) or an object's method into n.
func (p *parser) member(n int32, inClass bool) {
	m := p.mk(kMethod)
	static := inClass && p.is("static") && p.isModifier()
	if static {
		p.add(m, p.anon(), 0)
	}
	method := false
	if p.is("async") && p.isModifier() {
		p.add(m, p.anon(), 0)
		method = true
	}
	if p.is("*") {
		p.add(m, p.anon(), 0)
		method = true
	} else if (p.is("get") || p.is("set")) && p.isModifier() {
		p.add(m, p.anon(), 0)
		method = true
	}
	p.add(m, p.propertyName(), fName)
	if p.is("(") || method {
		p.add(m, p.formalParams(), fParameters)
		p.add(m, p.blockOnly(asiCondTrue), fBody)
		p.add(n, m, fMember)
		if inClass && p.is(";") {
			p.add(n, p.anon(), 0)
		}
		if !inClass {
			p.nodes[m].field = 0
		}
		return
	}
	if !inClass {
		p.fail(p.tok.start, "expected (")
	}
	m2 := &p.nodes[m]
	m2.kind = kField
	// the name's field is property in a field definition
	p.nodes[m2.last].field = fProperty
	cond := true
	if p.is("=") {
		p.add(m, p.anon(), 0)
		p.add(m, p.assign(), fValue)
		cond = false
	}
	p.add(n, m, fMember)
	if p.is(";") {
		p.add(n, p.anon(), 0)
		return
	}
	if _, ok := p.asi(cond); !ok {
		p.fail(p.tok.start, "expected ;")
	}
}

// propertyName reads a property name: a word, private name, string,
// number or computed name.
func (p *parser) propertyName() int32 {
	switch p.tok.t {
	case tName:
		return p.tokLeaf(kPropIdent, true)
	case tPriv:
		return p.tokLeaf(kPrivProp, true)
	case tStr:
		return p.stringLit()
	case tNum:
		return p.tokLeaf(kNumber, true)
	}
	if p.is("[") {
		n := p.mk(kComputed)
		p.add(n, p.anon(), 0)
		p.add(n, p.assign(), 0)
		p.expect(n, "]", 0)
		return n
	}
	p.fail(p.tok.start, "expected property name")
	return -1
}

// --- modules

func (p *parser) importStmt() int32 {
	n := p.mk(kImportStmt)
	p.add(n, p.anon(), 0)
	if p.tok.t == tStr {
		p.add(n, p.stringLit(), fSource)
	} else {
		c := p.mk(kImportClause)
		if p.tok.t == tName && !p.is("*") {
			p.add(c, p.identifier(), 0)
			if p.is(",") {
				p.add(c, p.anon(), 0)
				p.importBindings(c)
			}
		} else {
			p.importBindings(c)
		}
		p.add(n, c, 0)
		p.expect(n, "from", 0)
		if p.tok.t != tStr {
			p.fail(p.tok.start, "expected module name")
		}
		p.add(n, p.stringLit(), fSource)
	}
	if p.is("with") {
		a := p.mk(kImportAttr)
		p.add(a, p.anon(), 0)
		p.add(a, p.object(), 0)
		p.add(n, a, 0)
	}
	p.semi(n, true)
	return n
}

func (p *parser) importBindings(c int32) {
	if p.is("*") {
		ns := p.mk(kNsImport)
		p.add(ns, p.anon(), 0)
		p.expect(ns, "as", 0)
		p.add(ns, p.identifier(), 0)
		p.add(c, ns, 0)
		return
	}
	ni := p.mk(kNamedImports)
	p.expect(ni, "{", 0)
	p.commaList(ni, "}", false, func() {
		s := p.mk(kImportSpec)
		name := p.moduleName()
		if p.is("as") {
			p.add(s, name, fName)
			p.add(s, p.anon(), 0)
			p.add(s, p.identifier(), fAlias)
		} else {
			if p.nodes[name].kind != kIdent {
				p.fail(p.tok.start, "expected as")
			}
			p.add(s, name, fName)
		}
		p.add(ni, s, 0)
	})
	p.add(c, ni, 0)
}

func (p *parser) moduleName() int32 {
	if p.tok.t == tStr {
		return p.stringLit()
	}
	if p.tok.t != tName {
		p.fail(p.tok.start, "expected name")
	}
	return p.tokLeaf(kIdent, true)
}

func (p *parser) exportStmt() int32 {
	p.exported = true
	defer func() { p.exported = false }()
	n := p.mk(kExportStmt)
	p.add(n, p.anon(), 0)
	if _, ok := p.asi(false); ok && p.tok.nl {
		// tree-sitter reads "export" as an identifier ending a statement
		p.unsupported(p.nodes[n].start, "export before a line break")
	}
	switch {
	case p.is("*"):
		if s := p.save(); true {
			p.next()
			isNs := p.is("as")
			p.restore(s)
			if isNs {
				ns := p.mk(kNsExport)
				p.add(ns, p.anon(), 0)
				p.add(ns, p.anon(), 0)
				p.add(ns, p.moduleName(), 0)
				p.add(n, ns, 0)
			} else {
				p.add(n, p.anon(), 0)
			}
		}
		p.expect(n, "from", 0)
		if p.tok.t != tStr {
			p.fail(p.tok.start, "expected module name")
		}
		p.add(n, p.stringLit(), fSource)
		p.semi(n, true)
	case p.is("{"):
		c := p.mk(kExportClause)
		p.add(c, p.anon(), 0)
		p.commaList(c, "}", false, func() {
			s := p.mk(kExportSpec)
			p.add(s, p.moduleName(), fName)
			if p.is("as") {
				p.add(s, p.anon(), 0)
				p.add(s, p.moduleName(), fAlias)
			}
			p.add(c, s, 0)
		})
		p.add(n, c, 0)
		if _, semi := p.asi(true); p.is("from") && !semi {
			p.add(n, p.anon(), 0)
			if p.tok.t != tStr {
				p.fail(p.tok.start, "expected module name")
			}
			p.add(n, p.stringLit(), fSource)
		}
		p.semi(n, true)
	case p.is("default"):
		p.add(n, p.anon(), 0)
		// a named function or class is a declaration (which, unlike an
		// exported one, takes the optional semicolon as a statement does);
		// an anonymous one an expression ended by a semicolon
		p.exported = false
		switch {
		case p.defaultDeclaration():
			if p.is("class") {
				p.add(n, p.class(true), fDeclaration)
			} else {
				p.add(n, p.function(true), fDeclaration)
			}
		default:
			p.add(n, p.assign(), fValue)
			p.semi(n, false)
		}
	case p.is("var"):
		p.add(n, p.varDecl(kVarDecl, 0, true), fDeclaration)
	case p.is("let") || p.is("const"):
		p.add(n, p.varDecl(kLexDecl, fKind, true), fDeclaration)
	case p.is("function") || p.is("async"):
		p.add(n, p.function(true), fDeclaration)
	case p.is("class"):
		p.add(n, p.class(true), fDeclaration)
	case p.is("@"):
		p.unsupported(p.tok.start, "decorator")
	default:
		p.fail(p.tok.start, "bad export")
	}
	return n
}

// defaultDeclaration reports whether a named function or class follows
// "export default".
func (p *parser) defaultDeclaration() bool {
	s := p.save()
	defer p.restore(s)
	if p.is("async") {
		p.next()
		if !p.is("function") || p.tok.nl {
			return false
		}
	}
	switch {
	case p.is("function"):
		p.next()
		if p.is("*") {
			p.next()
		}
		return p.tok.t == tName
	case p.is("class"):
		p.next()
		return p.tok.t == tName && p.tok.v != "extends"
	}
	return false
}

// commaList parses the elements of a bracketed list into n, separated by
// commas (each added to n as it comes), up to and including the closing
// token close: elem parses one element and adds it to n. With holes, a
// comma where an element would be (an array's hole, an object's extra
// comma) is added on its own; without, the comma is elem's to handle.
func (p *parser) commaList(n int32, close string, holes bool, elem func()) {
	for !p.is(close) {
		if holes && p.is(",") {
			p.add(n, p.anon(), 0)
			continue
		}
		elem()
		if p.is(",") {
			p.add(n, p.anon(), 0)
		} else if !p.is(close) {
			p.fail(p.tok.start, "expected , or "+close)
		}
	}
	p.add(n, p.anon(), 0)
}
