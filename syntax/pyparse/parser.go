package pyparse

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"
)

// InternalError starts the message of an Error that reports a bug of the
// parser rather than of the source.
const InternalError = "pyparse internal error"

// Latest is the newest Python 3 minor version the parser knows (3.14).
const Latest = 14

// Options select the Python version whose grammar decides validity.
type Options struct {
	// Minor is the Python 3 minor version, 8 through 14; 0 means Latest,
	// and a value outside the range the nearest version in it.
	Minor int
	// Nodes, when its capacity holds the tree, is used as the tree's node
	// storage (a released tree's, to save allocating and clearing it per
	// file); nil or too small: fresh memory.
	Nodes []Node
	// Decoded says that src is already the UTF-8 text of the file (its
	// caller decoded it by its PEP 263 declaration): the declaration is
	// not applied again.
	Decoded bool
	// Scratch, when set, holds the parse's scratch storage (tokens, the
	// node arena) across calls instead of a shared pool that the garbage
	// collector empties; one Scratch per goroutine.
	Scratch *Scratch
	// Relabel, when set, renumbers the kinds and fields of the tree's
	// nodes as they are written (Tree.Relabeled is then true), so that a
	// caller with its own numbering need not pass over the tree again.
	Relabel *Relabel
}

// Relabel is a renumbering of node kinds and fields (see Options.Relabel):
// a node of kind k gets Named[k] (a named node) or Anon[k] (an anonymous
// one) as its Kind, Fields[f] as its Field, and Reserved. Named and Anon
// have KindCount entries, Fields FieldCount.
type Relabel struct {
	Named, Anon, Fields []uint16
	Reserved            uint8
}

// Scratch is a parse's reusable scratch storage (see Options.Scratch).
type Scratch struct{ b buffers }

var (
	kModule, kComment, kLineContinuation, kIdentifier, kBlock, kExprStmt   Kind
	kString, kStringStart, kStringContent, kStringEnd, kEscape, kEscInterp Kind
	kInterpolation, kFormatSpec, kFormatExpr, kTypeConv, kConcat           Kind
	kInteger, kFloat, kTrue, kFalse, kNone, kEllipsis                      Kind
	kTuple, kList, kParen, kSet, kDict, kPair, kListSplat, kDictSplat      Kind
	kTuplePat, kListPat, kListSplatPat, kPatternList, kExprList, kType     Kind
	kGenericType, kTypeParam, kAttribute, kSubscript, kCall, kArgList      Kind
	kGenExpr, kListComp, kSetComp, kDictComp, kForIn, kIfClause            Kind
	kKeywordArg, kSlice, kBinary, kUnary, kBool, kNot, kCompare, kCond     Kind
	kLambda, kLambdaParams, kNamed, kAwait, kYield, kAssignment, kAugAssn  Kind
	kAsPattern, kAsPatternTarget, kDottedName                              Kind
)

var (
	fBody, fName, fValue, fLeft, fRight, fOperator, fArgument, fOperators   Field
	fCondition, fConsequence, fAlternative, fObject, fAttribute, fSubscript Field
	fFunction, fArguments, fKey, fType, fExpression, fTypeConversion        Field
	fFormatSpecifier, fParameters, fReturnType, fAlias, fModuleName         Field
	fDefinition, fSuperclasses, fTypeParameters, fCause, fSubject, fGuard   Field
	fCode                                                                   Field
)

func init() {
	for _, s := range []*Kind{} {
		_ = s
	}
	kModule = kindOf("module")
	kComment = kindOf("comment")
	kLineContinuation = kindOf("line_continuation")
	kIdentifier = kindOf("identifier")
	kBlock = kindOf("block")
	kExprStmt = kindOf("expression_statement")
	kString = kindOf("string")
	kStringStart = kindOf("string_start")
	kStringContent = kindOf("string_content")
	kStringEnd = kindOf("string_end")
	kEscape = kindOf("escape_sequence")
	kEscInterp = kindOf("escape_interpolation")
	kInterpolation = kindOf("interpolation")
	kFormatSpec = kindOf("format_specifier")
	kFormatExpr = kindOf("format_expression")
	kTypeConv = kindOf("type_conversion")
	kConcat = kindOf("concatenated_string")
	kInteger = kindOf("integer")
	kFloat = kindOf("float")
	kTrue = kindOf("true")
	kFalse = kindOf("false")
	kNone = kindOf("none")
	kEllipsis = kindOf("ellipsis")
	kTuple = kindOf("tuple")
	kList = kindOf("list")
	kParen = kindOf("parenthesized_expression")
	kSet = kindOf("set")
	kDict = kindOf("dictionary")
	kPair = kindOf("pair")
	kListSplat = kindOf("list_splat")
	kDictSplat = kindOf("dictionary_splat")
	kTuplePat = kindOf("tuple_pattern")
	kListPat = kindOf("list_pattern")
	kListSplatPat = kindOf("list_splat_pattern")
	kPatternList = kindOf("pattern_list")
	kExprList = kindOf("expression_list")
	kType = kindOf("type")
	kGenericType = kindOf("generic_type")
	kTypeParam = kindOf("type_parameter")
	kAttribute = kindOf("attribute")
	kSubscript = kindOf("subscript")
	kCall = kindOf("call")
	kArgList = kindOf("argument_list")
	kGenExpr = kindOf("generator_expression")
	kListComp = kindOf("list_comprehension")
	kSetComp = kindOf("set_comprehension")
	kDictComp = kindOf("dictionary_comprehension")
	kForIn = kindOf("for_in_clause")
	kIfClause = kindOf("if_clause")
	kKeywordArg = kindOf("keyword_argument")
	kSlice = kindOf("slice")
	kBinary = kindOf("binary_operator")
	kUnary = kindOf("unary_operator")
	kBool = kindOf("boolean_operator")
	kNot = kindOf("not_operator")
	kCompare = kindOf("comparison_operator")
	kCond = kindOf("conditional_expression")
	kLambda = kindOf("lambda")
	kLambdaParams = kindOf("lambda_parameters")
	kNamed = kindOf("named_expression")
	kAwait = kindOf("await")
	kYield = kindOf("yield")
	kAssignment = kindOf("assignment")
	kAugAssn = kindOf("augmented_assignment")
	kAsPattern = kindOf("as_pattern")
	kAsPatternTarget = kindOf("as_pattern_target")
	kDottedName = kindOf("dotted_name")
	for _, s := range []string{"(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "=", "->", "**", "*", "@", "/", "\\",
		"+", "-", "~", "%", "//", "|", "&", "^", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "<>", ":=",
		"+=", "-=", "*=", "/=", "@=", "//=", "%=", "**=", ">>=", "<<=", "&=", "^=", "|=", "...",
		"not in", "is not"} {
		kindOf(s)
	}
	for _, s := range hardKeywords {
		kindOf(s)
	}
	for _, s := range []string{"print", "exec", "async", "await", "type", "match", "case", "__future__", "except*", "_"} {
		kindOf(s)
	}
	for _, s := range []string{"if_statement", "elif_clause", "else_clause", "for_statement", "while_statement",
		"try_statement", "except_clause", "except_group_clause", "finally_clause", "with_statement", "with_clause",
		"with_item", "function_definition", "class_definition", "decorated_definition", "decorator", "parameters",
		"typed_parameter", "default_parameter", "typed_default_parameter", "dictionary_splat_pattern",
		"keyword_separator", "positional_separator", "import_statement", "import_from_statement",
		"future_import_statement", "aliased_import", "relative_import", "import_prefix", "wildcard_import",
		"return_statement", "pass_statement", "break_statement", "continue_statement", "delete_statement",
		"raise_statement", "global_statement", "nonlocal_statement", "assert_statement", "type_alias_statement",
		"match_statement", "case_clause", "case_pattern", "class_pattern", "splat_pattern", "union_pattern",
		"dict_pattern", "keyword_pattern", "complex_pattern", "print_statement", "chevron", "exec_statement",
		"splat_type", "union_type", "constrained_type", "member_type"} {
		kindOf(s)
	}
	fBody = fieldOf("body")
	fName = fieldOf("name")
	fValue = fieldOf("value")
	fLeft = fieldOf("left")
	fRight = fieldOf("right")
	fOperator = fieldOf("operator")
	fArgument = fieldOf("argument")
	fOperators = fieldOf("operators")
	fCondition = fieldOf("condition")
	fConsequence = fieldOf("consequence")
	fAlternative = fieldOf("alternative")
	fObject = fieldOf("object")
	fAttribute = fieldOf("attribute")
	fSubscript = fieldOf("subscript")
	fFunction = fieldOf("function")
	fArguments = fieldOf("arguments")
	fKey = fieldOf("key")
	fType = fieldOf("type")
	fExpression = fieldOf("expression")
	fTypeConversion = fieldOf("type_conversion")
	fFormatSpecifier = fieldOf("format_specifier")
	fParameters = fieldOf("parameters")
	fReturnType = fieldOf("return_type")
	fAlias = fieldOf("alias")
	fModuleName = fieldOf("module_name")
	fDefinition = fieldOf("definition")
	fSuperclasses = fieldOf("superclasses")
	fTypeParameters = fieldOf("type_parameters")
	fCause = fieldOf("cause")
	fSubject = fieldOf("subject")
	fGuard = fieldOf("guard")
	fCode = fieldOf("code")
}

var hardKeywords = []string{"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
	"in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"}

// isHardKeyword reports whether s is one of hardKeywords. It is asked of
// every name the parser reads: a bitmask of the keywords' (length, first
// byte) pairs rules out most names before any comparison.
func isHardKeyword(s string) bool {
	if len(s) < 2 || len(s) > 8 || s[0] < 'F' || s[0] > 'y' || hardKeywordStarts[len(s)]&(1<<(s[0]-'F')) == 0 {
		return false
	}
	for _, k := range hardKeywords {
		if k == s {
			return true
		}
	}
	return false
}

// hardKeywordStarts has, by length, bit c-'F' set for every hard keyword
// of that length starting with byte c.
var hardKeywordStarts = func() (m [9]uint64) {
	for _, k := range hardKeywords {
		if len(k) < 2 || len(k) > 8 || k[0] < 'F' || k[0] > 'y' {
			panic("pyparse: hard keyword " + k + " outside isHardKeyword's bounds")
		}
		m[len(k)] |= 1 << (k[0] - 'F')
	}
	return m
}()

type parser struct {
	src    []byte
	toks   []token
	p      int
	nodes  []bnode
	minor  int
	extras []extra
	// splatAtom makes the next atom "*name" (see reparseSplat)
	splatAtom bool
	// primed is 1 + a primary that expression read ahead (see
	// expression): the precedence levels below it pass it down without
	// looking at the current token, and primary returns it; 0 when none
	primed int32
	// maxP is the furthest token an abandoned alternative failed at
	maxP int
	// fstrErr is an f-string error CPython < 3.12 reports once the run
	// of literals being parsed is read (see strings)
	fstrErr fstrPending
	// fstr is the number of f-string interpolations the parser is in
	fstr int
	// specs counts the format specs of the f-string being parsed that
	// enclose the current position
	specs int
	// open is the number of AST nodes (CPython's) above the node being
	// parsed, as far as the recursion tells: see enter
	open int
	// trying is the number of attempts (see attempt) under way
	trying int
	// funcDepth etc. are not tracked: ast.parse does not check them
}

type syntaxErr struct{ e *Error }

// fatalErr is an error CPython raises from a grammar action (the integer
// digit limit): it ends the parse at once, whatever alternative is being
// tried, so attempt does not catch it.
type fatalErr struct{ e *Error }

// buffers are a parse's scratch storage (tokens, the node arena), pooled
// across calls: the tree itself is always fresh memory.
type buffers struct {
	toks  []token
	nodes []bnode
}

// bigFile is the source size (bytes) from which a parse frees its tokens
// before building the tree, to lower its peak memory.
const bigFile = 8 << 20

// maxKeep bounds the scratch storage a pooled buffer keeps (entries).
const maxKeep = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(buffers) }}

// Parse tokenizes and parses src (UTF-8 Python source). It returns the
// tree and nil, or a nil tree and the first syntax error, as CPython's
// ast.parse of the chosen version would report it.
//
// A source with a PEP 263 encoding declaration other than UTF-8 is
// decoded for the validity check; the tree is built over the original
// bytes (as tree-sitter reads them) when its non-ASCII bytes are all in
// strings and comments, else over the decoded UTF-8 text (Tree.Source
// says which).
func Parse(src []byte, opt Options) (*Tree, *Error) {
	minor := opt.Minor
	switch {
	case minor == 0 || minor > Latest:
		minor = Latest
	case minor < 8:
		minor = 8
	}
	text, msg := src, ""
	if !opt.Decoded {
		text, msg = decodeSource(src)
	}
	if msg != "" {
		return nil, &Error{Line: 1, Col: 1, Msg: msg}
	}
	if !bytes.Equal(text, src) {
		// another encoding: validity from the decoded text, the tree (if
		// its tokens allow) over the original bytes, as tree-sitter reads
		// them
		t, err := parse(text, minor, false, nil, nil, opt.Relabel)
		if err != nil {
			return nil, err
		}
		if raw, err := parse(src, minor, true, opt.Nodes, nil, opt.Relabel); err == nil {
			return raw, nil
		}
		return t, nil
	}
	return parse(src, minor, false, opt.Nodes, opt.Scratch, opt.Relabel)
}

// parse parses UTF-8 src (or, with anyBytes, src whose non-ASCII bytes
// only occur in strings and comments).
func parse(src []byte, minor int, anyBytes bool, into []Node, scratch *Scratch, rl *Relabel) (*Tree, *Error) {
	var bufs *buffers
	if scratch != nil {
		bufs = &scratch.b
	} else {
		bufs = bufPool.Get().(*buffers)
		defer bufPool.Put(bufs)
	}
	lx := tokenize(src, minor, bufs, anyBytes)
	p := &parser{src: src, toks: lx.toks, minor: minor, extras: lx.extras}
	p.nodes = bufs.nodes[:0]
	want := len(lx.toks) + 16
	if len(src) >= bigFile {
		// up to 1.4 nodes per token in large files (1.1 in the standard
		// library as a whole): room for all at once, as a regrowth would
		// hold the old and the new array together at the peak, and the
		// part left unused is never touched (not resident)
		want = len(lx.toks)*3/2 + 16
	}
	if cap(p.nodes) < want {
		// one allocation of about the right size, not a doubling series
		// whose dead copies the peak memory of a large file would hold
		p.nodes = make([]bnode, 0, want)
	}
	defer func() {
		// keep the grown storage for the next parse, unless one huge file
		// grew it
		if cap(p.nodes) <= maxKeep {
			bufs.nodes = p.nodes[:0]
		}
		if cap(lx.toks) <= maxKeep {
			bufs.toks = lx.toks[:0]
		}
	}()
	var perr *Error
	root := func() (root int32) {
		defer func() {
			if r := recover(); r != nil {
				if fe, ok := r.(fatalErr); ok {
					perr = fe.e
					return
				}
				se, ok := r.(syntaxErr)
				if !ok {
					// a bug must not take down a run over hostile input:
					// report it as this file's error (tests fail on it)
					perr = &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("%s: %v", InternalError, r)}
					return
				}
				perr = se.e
			}
		}()
		return p.file()
	}()
	// The tokenizer's error wins when it comes first (CPython tokenizes
	// lazily, so an error in tokens the parser never reached is still met
	// when the parser asks for them).
	// CPython also reports a tokenizer error found further on in place of
	// a generic "invalid syntax" (it tokenizes the rest of the file first).
	// An open bracket at the end of input is an error only once the parser
	// gets there: CPython's check of the rest of the file after a generic
	// "invalid syntax" does not raise it (the tokenizer returns an error
	// token without an exception).
	if lx.err != nil && lx.eofErr && perr != nil && p.toks[max(p.p, p.maxP)].kind != tErr {
		return nil, perr
	}
	if lx.err != nil && (perr == nil || lx.err.Byte <= perr.Byte || p.toks[p.p].kind == tErr || perr.Msg == "invalid syntax") {
		return nil, lx.err
	}
	if perr != nil {
		return nil, perr
	}
	if len(src) >= bigFile {
		// the tokens are dead: let them go before the tree's storage,
		// the largest allocation, is made (a collection of pointer-free
		// arrays costs next to nothing)
		p.toks, lx.toks = nil, nil
		runtime.GC()
	}
	nodes, ls, deep := flatten(src, p.nodes, root, lx.extras, into, rl)
	if deep >= 0 {
		return nil, mkErr(src, deep, tooDeepTreeMsg)
	}
	if len(src) >= bigFile {
		// the node arena (more than half the size of the tree) is dead:
		// hand its pages back to the system now, before the rules'
		// analyses of the tree allocate, rather than when the runtime's
		// scavenger gets to them (the peak RSS would hold both)
		p.nodes = nil
		debug.FreeOSMemory()
	}
	return &Tree{Source: src, Nodes: nodes, LineStarts: ls, Relabeled: rl != nil}, nil
}

func (p *parser) fail(at int, format string, args ...any) {
	if p.trying > 0 {
		// attempt drops the error: not locating it (a scan from the
		// start of the file) keeps many failed attempts linear
		panic(syntaxErr{})
	}
	panic(syntaxErr{mkErr(p.src, at, fmt.Sprintf(format, args...))})
}

func (p *parser) failTok(format string, args ...any) {
	t := p.tok()
	if t.kind == tEOF && len(p.toks) > 0 {
		// at end of input CPython points past the last token
	}
	p.fail(int(t.start), format, args...)
}

// tok returns the current token. The token list always ends with an EOF
// token (tEOF, or tErr where the tokenizer stopped at an error), which the
// parser never steps past.
func (p *parser) tok() token { return p.toks[p.p] }

func (p *parser) peek(n int) token {
	if p.p+n >= len(p.toks) {
		return token{kind: tEOF, start: uint32(len(p.src)), end: uint32(len(p.src))}
	}
	return p.toks[p.p+n]
}

// text returns the token's text. It is a view of the source, not a copy
// (the parser reads it on every token; a copy each time was about 1% of a
// parse): the source is not written while it is parsed, and every caller
// compares or formats the text (fmt copies it), none keeps it.
func (p *parser) text(t token) string {
	if t.end <= t.start {
		return ""
	}
	return unsafe.String(&p.src[t.start], int(t.end-t.start))
}

func (p *parser) isOp(s string) bool {
	t := p.tok()
	return t.kind == tOp && int(t.end-t.start) == len(s) && string(p.src[t.start:t.end]) == s
}

func (p *parser) isOpAt(n int, s string) bool {
	t := p.peek(n)
	return t.kind == tOp && string(p.src[t.start:t.end]) == s
}

func (p *parser) isKw(s string) bool {
	t := p.tok()
	return t.kind == tName && int(t.end-t.start) == len(s) && string(p.src[t.start:t.end]) == s
}

func (p *parser) isKwAt(n int, s string) bool {
	t := p.peek(n)
	return t.kind == tName && string(p.src[t.start:t.end]) == s
}

// newNode starts a named node with no children.
func (p *parser) newNode(k Kind) int32 {
	return p.put(k, true, ^uint32(0), 0)
}

// put appends a childless node of kind k spanning [start, end) and returns
// its index. The fields are written in place: a bnode composed as a value
// and then copied into the slice was read back in 16-byte words over its
// narrower field stores, a store-forwarding stall on every node.
func (p *parser) put(k Kind, named bool, start, end uint32) int32 {
	i := len(p.nodes)
	if i < cap(p.nodes) {
		p.nodes = p.nodes[:i+1]
	} else {
		p.nodes = append(p.nodes, bnode{})
	}
	b := &p.nodes[i]
	b.start, b.end = start, end
	b.first, b.last, b.next = -1, -1, -1
	b.kind, b.field, b.named = k, 0, named
	return int32(i)
}

// leaf makes a node of the current token and advances.
func (p *parser) leaf(k Kind, named bool) int32 {
	t := p.tok()
	p.p++
	return p.put(k, named, t.start, t.end)
}

// tokLeaf makes an anonymous node named after the current token's text.
func (p *parser) tokLeaf() int32 {
	return p.leaf(kindOfText(p.text(p.tok())), false)
}

// oneCharKind maps a one-byte token text to its Kind (0: none), the fast
// path of kindOfText.
var oneCharKind [128]Kind

func init() {
	for s, k := range kinds.All() {
		if len(s) == 1 && s[0] < 128 {
			oneCharKind[s[0]] = k
		}
	}
}

// textKinds holds the Kinds of the texts of 2 to maxTextKind bytes
// (keywords, operators; node type names too), by length and first byte,
// the fast path of kindOfText for multi-byte tokens: a few string
// comparisons instead of hashing the text. It is filled at init, after
// every package-level kindOf; a text it lacks is looked up in kinds.
var textKinds [maxTextKind + 1][128][]textKind

const maxTextKind = 24

type textKind struct {
	text string
	kind Kind
}

func init() {
	for s, k := range kinds.All() {
		if len(s) >= 2 && len(s) <= maxTextKind && s[0] < 128 {
			textKinds[len(s)][s[0]] = append(textKinds[len(s)][s[0]], textKind{s, k})
		}
	}
}

func kindOfText(s string) Kind {
	if len(s) == 1 && s[0] < 128 && oneCharKind[s[0]] != 0 {
		return oneCharKind[s[0]]
	}
	if len(s) >= 2 && len(s) <= maxTextKind && s[0] < 128 {
		for _, tk := range textKinds[len(s)][s[0]] {
			if tk.text == s {
				return tk.kind
			}
		}
	}
	k, ok := kinds.Lookup(s)
	if !ok {
		panic("pyparse: no kind " + s)
	}
	return k
}

// add appends child c to parent n with field f and widens n's span.
func (p *parser) add(n, c int32, f Field) {
	if c < 0 {
		return
	}
	nd, cd := &p.nodes[n], &p.nodes[c]
	cd.field = f
	cd.next = -1
	if nd.last < 0 {
		nd.first = c
	} else {
		p.nodes[nd.last].next = c
	}
	nd.last = c
	if cd.start < nd.start {
		nd.start = cd.start
	}
	if cd.end > nd.end {
		nd.end = cd.end
	}
}

// expectOp adds the operator token s to n, or fails.
func (p *parser) expectOp(n int32, s string) {
	if !p.isOp(s) {
		p.syntaxError()
	}
	p.add(n, p.tokLeaf(), 0)
}

func (p *parser) expectKw(n int32, s string) {
	if !p.isKw(s) {
		p.syntaxError()
	}
	p.add(n, p.tokLeaf(), 0)
}

// syntaxError reports "invalid syntax" at the current token, as CPython's
// generic error does.
// atPos is where CPython reports an error at the current token: the token,
// or at the end of input (EOF, or the DEDENTs before it) the last NEWLINE,
// the end of the last line.
func (p *parser) atPos() int {
	t := p.tok()
	if t.kind == tEOF || t.kind == tDedent && p.atEOF() {
		for i := p.p - 1; i >= 0; i-- {
			if p.toks[i].kind == tNewline {
				return int(p.toks[i].start)
			}
		}
	}
	return int(t.start)
}

// atEOF reports whether only DEDENTs are left before the end of input.
func (p *parser) atEOF() bool {
	for i := p.p; i < len(p.toks); i++ {
		switch p.toks[i].kind {
		case tDedent:
		case tEOF:
			return true
		default:
			return false
		}
	}
	return true
}

func (p *parser) syntaxError() {
	t := p.tok()
	switch t.kind {
	case tIndent:
		p.fail(int(p.peek(1).start), "unexpected indent")
	case tDedent:
		if p.atEOF() {
			p.fail(p.atPos(), "invalid syntax")
		}
		p.fail(int(t.start), "unindent does not match any outer indentation level")
	case tEOF:
		p.fail(p.atPos(), "invalid syntax")
	case tErr:
		p.fail(int(t.start), "tokenizer error")
	}
	p.fail(int(t.start), "invalid syntax")
}

// maxDepth is the deepest nesting of AST nodes CPython's ast.parse builds:
// deeper, it raises RecursionError "maximum recursion depth exceeded during
// ast construction" (3.11+: Python-ast.c checks its recursion depth in
// every ast2obj function; measured with CPython 3.11.7's ast.parse under
// the default recursion limit: "-"*2988+"x", an expression 2991 nodes deep
// with its Module and Expr, is the deepest accepted). Before 3.11 CPython
// has no such check and overflows its C stack on such input; pyparse
// applies the same limit to every version, so that the parser's own
// recursion, and every walk of its tree, stays bounded.
const maxDepth = 2991

// tooDeepMsg is CPython's message for nesting past maxDepth.
const tooDeepMsg = "maximum recursion depth exceeded during ast construction"

// enter counts one more AST node above what is parsed next and fails when
// that passes maxDepth; leave undoes it. Every recursion of the parser
// that brackets do not bound (not, unary operators, await, "**", lambda,
// conditional expressions, statements in blocks) goes through enter, so
// the parser's stack is bounded too.
func (p *parser) enter() {
	p.open++
	if p.open >= maxDepth {
		p.tooDeep()
	}
}

func (p *parser) leave() { p.open-- }

// chain checks a left-nested chain of k nodes (a.b.c, a+b+c, f()()),
// built by a loop, at the current depth.
func (p *parser) chain(k int) {
	if p.open+k >= maxDepth {
		p.tooDeep()
	}
}

func (p *parser) tooDeep() {
	p.fail(int(p.tok().start), tooDeepMsg)
}

// ---------- statements ----------

func (p *parser) file() int32 {
	m := p.newNode(kModule)
	for p.tok().kind == tNewline {
		p.p++
	}
	if p.tok().kind == tIndent {
		p.fail(int(p.peek(1).start), "unexpected indent")
	}
	p.open = 1 // the Module
	for p.tok().kind != tEOF {
		p.statement(m)
	}
	nd := &p.nodes[m]
	nd.end = uint32(len(p.src))
	if len(p.extras) > 0 && p.extras[0].start < nd.start {
		nd.start = p.extras[0].start
	}
	if nd.start == ^uint32(0) {
		nd.start = uint32(len(p.src))
	}
	return m
}

// statement parses one statement (a line of simple statements or a
// compound statement) into parent.
func (p *parser) statement(parent int32) {
	p.enter()
	defer p.leave()
	t := p.tok()
	if t.kind == tIndent {
		p.fail(int(p.peek(1).start), "unexpected indent")
	}
	if t.kind == tName {
		switch p.text(t) {
		case "if":
			p.add(parent, p.ifStmt(), 0)
			return
		case "while":
			p.add(parent, p.whileStmt(), 0)
			return
		case "for":
			p.add(parent, p.forStmt(-1), 0)
			return
		case "try":
			p.add(parent, p.tryStmt(), 0)
			return
		case "with":
			p.add(parent, p.withStmt(-1), 0)
			return
		case "def":
			p.add(parent, p.funcDef(-1), 0)
			return
		case "class":
			p.add(parent, p.classDef(), 0)
			return
		case "async":
			nt := p.peek(1)
			if nt.kind == tName {
				a := p.tokLeaf()
				switch p.text(nt) {
				case "def":
					p.add(parent, p.funcDef(a), 0)
					return
				case "for":
					p.add(parent, p.forStmt(a), 0)
					return
				case "with":
					p.add(parent, p.withStmt(a), 0)
					return
				}
				p.p--
				p.nodes = p.nodes[:len(p.nodes)-1]
			}
		case "match":
			if p.minor >= 10 && p.looksLikeMatch() {
				p.add(parent, p.matchStmt(), 0)
				return
			}
		}
	} else if t.kind == tOp && p.isOp("@") {
		p.add(parent, p.decorated(), 0)
		return
	}
	p.simpleStmts(parent)
}

// simpleStmts parses simple statements separated by ";" up to NEWLINE; it
// returns the NEWLINE's position.
func (p *parser) simpleStmts(parent int32) uint32 {
	for {
		p.add(parent, p.simpleStmt(), 0)
		if p.isOp(";") {
			p.add(parent, p.tokLeaf(), 0)
			if p.tok().kind == tNewline {
				break
			}
			continue
		}
		break
	}
	t := p.tok()
	if t.kind != tNewline {
		p.syntaxError()
	}
	p.p++
	return t.start
}

func (p *parser) keywordStmt(kind string) int32 {
	n := p.newNode(kindOfText(kind))
	p.add(n, p.tokLeaf(), 0)
	return n
}

func (p *parser) atStmtEnd() bool {
	t := p.tok()
	return t.kind == tNewline || t.kind == tEOF || t.kind == tOp && p.isOp(";")
}

func (p *parser) simpleStmt() int32 {
	t := p.tok()
	if t.kind == tName {
		switch p.text(t) {
		case "pass":
			return p.keywordStmt("pass_statement")
		case "break":
			return p.keywordStmt("break_statement")
		case "continue":
			return p.keywordStmt("continue_statement")
		case "return":
			n := p.keywordStmt("return_statement")
			if !p.atStmtEnd() {
				p.add(n, p.starExpressions(), 0)
			}
			return n
		case "raise":
			n := p.keywordStmt("raise_statement")
			if !p.atStmtEnd() {
				p.add(n, p.expression(), 0)
				if p.isKw("from") {
					p.add(n, p.tokLeaf(), 0)
					p.add(n, p.expression(), fCause)
				}
			}
			return n
		case "global", "nonlocal":
			n := p.keywordStmt(p.text(t) + "_statement")
			for {
				p.add(n, p.name(), 0)
				if !p.isOp(",") {
					break
				}
				p.add(n, p.tokLeaf(), 0)
			}
			return n
		case "del":
			n := p.keywordStmt("delete_statement")
			e := p.delTargets()
			p.add(n, e, 0)
			return n
		case "assert":
			n := p.keywordStmt("assert_statement")
			p.add(n, p.expression(), 0)
			if p.isOp(",") {
				p.add(n, p.tokLeaf(), 0)
				p.add(n, p.expression(), 0)
			}
			return n
		case "import":
			return p.importStmt()
		case "from":
			return p.fromImport()
		case "type":
			if p.minor >= 12 && p.peek(1).kind == tName && (p.isOpAt(2, "=") || p.isOpAt(2, "[")) {
				return p.typeAlias()
			}
			if p.isOpAt(1, "(") || p.isOpAt(1, "[") {
				return p.typeLookalike()
			}
		case "print":
			if p.isOpAt(1, ">>") {
				return p.printChevron()
			}
		}
	}
	return p.exprStmt()
}

// attempt runs fn and reports whether it parsed without error; on error
// the parser is back where it was.
func (p *parser) attempt(fn func() int32) (n int32, ok bool) {
	save, saveN, open, fstr := p.p, len(p.nodes), p.open, p.fstr
	p.trying++
	defer func() {
		p.trying--
		if r := recover(); r != nil {
			if _, isErr := r.(syntaxErr); !isErr {
				panic(r)
			}
			p.maxP = max(p.maxP, p.p)
			p.p, p.nodes, p.open, p.fstr = save, p.nodes[:saveN], open, fstr
			ok = false
		}
	}()
	return fn(), true
}

// typeLookalike parses "type(x).y = z" (an assignment for CPython), which
// tree-sitter-python reads as a type_alias_statement: the statement is
// checked as CPython parses it, then built as tree-sitter does.
func (p *parser) typeLookalike() int32 {
	save, saveN := p.p, len(p.nodes)
	stmt := p.exprStmt()
	end := p.p
	a := p.nodes[stmt].first
	if p.nodes[a].kind != kAssignment || !p.atStmtEnd() {
		return stmt
	}
	for c := p.nodes[a].first; c >= 0; c = p.nodes[c].next {
		if p.nodes[c].field == fRight && (p.nodes[c].kind == kAssignment || p.nodes[c].kind == kExprList || p.nodes[c].kind == kYield) {
			return stmt
		}
		if p.nodes[c].field == fType {
			return stmt
		}
	}
	p.p, p.nodes = save, p.nodes[:saveN]
	n, ok := p.attempt(func() int32 {
		n := p.newNode(kindOfText("type_alias_statement"))
		p.add(n, p.leaf(kindOfText("type"), false), 0)
		p.add(n, p.typeOf(p.expression()), fLeft)
		p.expectOp(n, "=")
		p.add(n, p.typeOf(p.expression()), fRight)
		return n
	})
	if ok && p.p == end {
		return n
	}
	p.p, p.nodes = save, p.nodes[:saveN]
	return p.exprStmt()
}

// printChevron parses "print >> f, x" (a tuple expression for CPython) as
// tree-sitter's print_statement with a chevron.
func (p *parser) printChevron() int32 {
	save, saveN := p.p, len(p.nodes)
	stmt := p.exprStmt()
	end := p.p
	if p.nodes[p.nodes[stmt].first].kind == kAssignment || p.nodes[p.nodes[stmt].first].kind == kAugAssn {
		return stmt
	}
	p.p, p.nodes = save, p.nodes[:saveN]
	n, ok := p.attempt(func() int32 {
		n := p.newNode(kindOfText("print_statement"))
		p.add(n, p.leaf(kindOfText("print"), false), 0)
		ch := p.newNode(kindOfText("chevron"))
		p.add(ch, p.tokLeaf(), 0)
		p.add(ch, p.expression(), 0)
		p.add(n, ch, 0)
		for p.isOp(",") {
			p.add(n, p.tokLeaf(), 0)
			if !p.startsExpression() {
				break
			}
			p.add(n, p.expression(), fArgument)
		}
		return n
	})
	if ok && p.p == end {
		return n
	}
	p.p, p.nodes = save, p.nodes[:saveN]
	return p.exprStmt()
}

func (p *parser) name() int32 {
	t := p.tok()
	if t.kind != tName || isHardKeyword(p.text(t)) {
		p.syntaxError()
	}
	return p.leaf(kIdentifier, true)
}

func (p *parser) dottedName() int32 {
	n := p.newNode(kDottedName)
	p.add(n, p.name(), 0)
	for p.isOp(".") {
		p.add(n, p.tokLeaf(), 0)
		p.add(n, p.name(), 0)
	}
	return n
}

func (p *parser) importStmt() int32 {
	n := p.keywordStmt("import_statement")
	for {
		p.add(n, p.importName(true), fName)
		if !p.isOp(",") {
			break
		}
		p.add(n, p.tokLeaf(), 0)
	}
	return n
}

func (p *parser) importName(dotted bool) int32 {
	var d int32
	if dotted {
		d = p.dottedName()
	} else {
		d = p.newNode(kDottedName)
		p.add(d, p.name(), 0)
	}
	if p.isKw("as") {
		a := p.newNode(kindOfText("aliased_import"))
		p.add(a, d, fName)
		p.add(a, p.tokLeaf(), 0)
		p.add(a, p.name(), fAlias)
		return a
	}
	return d
}

func (p *parser) fromImport() int32 {
	from := p.tokLeaf()
	var n int32
	if p.isKw("__future__") && p.isKwAt(1, "import") {
		n = p.newNode(kindOfText("future_import_statement"))
		p.add(n, from, 0)
		p.add(n, p.tokLeaf(), 0)
	} else {
		n = p.newNode(kindOfText("import_from_statement"))
		p.add(n, from, 0)
		if p.isOp(".") || p.isOp("...") {
			r := p.newNode(kindOfText("relative_import"))
			pre := p.newNode(kindOfText("import_prefix"))
			for p.isOp(".") || p.isOp("...") {
				if p.isOp("...") {
					// tree-sitter's import_prefix is one "." per dot
					t := p.tok()
					for i := uint32(0); i < 3; i++ {
						p.add(pre, p.put(kindOfText("."), false, t.start+i, t.start+i+1), 0)
					}
					p.p++
					continue
				}
				p.add(pre, p.tokLeaf(), 0)
			}
			p.add(r, pre, 0)
			if !p.isKw("import") {
				p.add(r, p.dottedName(), 0)
			}
			p.add(n, r, fModuleName)
		} else {
			p.add(n, p.dottedName(), fModuleName)
		}
	}
	p.expectKw(n, "import")
	if p.isOp("*") {
		w := p.newNode(kindOfText("wildcard_import"))
		p.add(w, p.tokLeaf(), 0)
		p.add(n, w, 0)
		return n
	}
	paren := p.isOp("(")
	if paren {
		p.add(n, p.tokLeaf(), 0)
	}
	for {
		p.add(n, p.importName(false), fName)
		if !p.isOp(",") {
			break
		}
		p.add(n, p.tokLeaf(), 0)
		if paren && p.isOp(")") {
			break
		}
	}
	if paren {
		p.expectOp(n, ")")
	}
	return n
}

func (p *parser) typeAlias() int32 {
	n := p.newNode(kindOfText("type_alias_statement"))
	p.add(n, p.tokLeaf(), 0)
	left := p.newNode(kType)
	nm := p.name()
	if p.isOp("[") {
		g := p.newNode(kGenericType)
		p.add(g, nm, 0)
		p.add(g, p.typeParams(), 0)
		p.add(left, g, 0)
	} else {
		p.add(left, nm, 0)
	}
	p.add(n, left, fLeft)
	p.expectOp(n, "=")
	p.add(n, p.typeOf(p.expression()), fRight)
	return n
}

// typeParams parses a PEP 695 type parameter list "[T, *Ts, **P]".
func (p *parser) typeParams() int32 {
	tp := p.newNode(kTypeParam)
	p.add(tp, p.tokLeaf(), 0)
	if p.isOp("]") {
		if p.minor >= 13 {
			p.failTok("Type parameter list cannot be empty")
		}
		p.syntaxError()
	}
	for !p.isOp("]") {
		ty := p.newNode(kType)
		tuple := p.isOp("*") // only a TypeVarTuple's default may be starred
		if p.isOp("*") || p.isOp("**") {
			st := p.newNode(kindOfText("splat_type"))
			p.add(st, p.tokLeaf(), 0)
			p.add(st, p.name(), 0)
			p.add(ty, st, 0)
		} else {
			nm := p.name()
			if p.isOp(":") {
				c := p.newNode(kindOfText("constrained_type"))
				t1 := p.newNode(kType)
				p.add(t1, nm, 0)
				p.add(c, t1, 0)
				p.add(c, p.tokLeaf(), 0)
				p.add(c, p.typeOf(p.expression()), 0)
				p.add(ty, c, 0)
			} else {
				p.add(ty, nm, 0)
			}
		}
		if p.isOp("=") {
			// PEP 696 defaults (3.13): not in tree-sitter's grammar, so
			// the tree here is pyparse's own: type(T), "=", type(default)
			if p.minor < 13 {
				p.syntaxError()
			}
			p.add(tp, ty, 0)
			p.add(tp, p.tokLeaf(), 0)
			var d int32
			if p.isOp("*") && tuple {
				d = p.starExpression()
			} else {
				d = p.expression()
			}
			ty = p.typeOf(d)
		}
		p.add(tp, ty, 0)
		if !p.isOp(",") {
			break
		}
		p.add(tp, p.tokLeaf(), 0)
	}
	p.expectOp(tp, "]")
	return tp
}

// typeOf wraps an annotation expression in a type node, with tree-sitter's
// generic_type for "Name[...]".
func (p *parser) typeOf(e int32) int32 {
	t := p.newNode(kType)
	p.add(t, p.typeInner(e), 0)
	return t
}

var kUnionType Kind

func init() { kUnionType = kindOf("union_type") }

// typeInner gives an annotation tree-sitter's shape. tree-sitter reads
// "T1 | T2 | ... | Tn" (a left-nested chain of binary "|") as union_type
// only when T1 is a generic type (Name[...]); it then takes each further
// generic operand as one more union_type level, and the rest of the chain,
// from the first operand that is not generic, as one binary_operator
// expression. Any other expression stays as it is, bar a top-level
// generic type.
func (p *parser) typeInner(e int32) int32 {
	var ops, args []int32 // args[0] op[0] args[1] ... of a "|" chain
	for x := e; ; {
		nd := &p.nodes[x]
		if nd.kind != kBinary {
			args = append(args, x)
			break
		}
		left := nd.first
		op := p.nodes[left].next
		right := p.nodes[op].next
		if string(p.src[p.nodes[op].start:p.nodes[op].end]) != "|" {
			args = append(args, x)
			break
		}
		ops = append(ops, op)
		args = append(args, right)
		x = left
	}
	if len(ops) == 0 || !p.isGeneric(args[len(args)-1]) {
		return p.genericOf(e)
	}
	// reverse into source order
	for i, j := 0, len(args)-1; i < j; i, j = i+1, j-1 {
		args[i], args[j] = args[j], args[i]
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	acc := p.genericOf(args[0])
	for i := 1; i < len(args); i++ {
		u := p.newNode(kUnionType)
		lt := p.newNode(kType)
		p.add(lt, acc, 0)
		p.add(u, lt, 0)
		p.add(u, ops[i-1], 0)
		rt := p.newNode(kType)
		if p.isGeneric(args[i]) {
			p.add(rt, p.genericOf(args[i]), 0)
			p.add(u, rt, 0)
			acc = u
			continue
		}
		rest := args[i]
		for j := i + 1; j < len(args); j++ {
			b := p.newNode(kBinary)
			p.add(b, rest, fLeft)
			p.add(b, ops[j-1], fOperator)
			p.add(b, args[j], fRight)
			rest = b
		}
		p.add(rt, rest, 0)
		p.add(u, rt, 0)
		return u
	}
	return acc
}

// isGeneric reports whether genericOf makes e a generic_type.
func (p *parser) isGeneric(e int32) bool {
	nd := &p.nodes[e]
	if nd.kind != kSubscript {
		return false
	}
	v := nd.first
	if p.nodes[v].kind != kIdentifier {
		return false
	}
	for c := p.nodes[v].next; c >= 0; c = p.nodes[c].next {
		if p.nodes[c].kind == kSlice {
			return false
		}
	}
	return true
}

func (p *parser) genericOf(e int32) int32 {
	nd := &p.nodes[e]
	if nd.kind != kSubscript {
		return e
	}
	v := nd.first
	if p.nodes[v].kind != kIdentifier {
		return e
	}
	for c := p.nodes[v].next; c >= 0; c = p.nodes[c].next {
		if p.nodes[c].kind == kSlice {
			return e
		}
	}
	g := p.newNode(kGenericType)
	tp := p.newNode(kTypeParam)
	first := p.nodes[v].next
	p.add(g, v, 0)
	for c := first; c >= 0; {
		next := p.nodes[c].next
		if p.nodes[c].named {
			w := p.newNode(kType)
			if p.nodes[c].kind == kListSplat && p.nodes[p.nodes[p.nodes[c].first].next].kind == kIdentifier {
				// "Tuple[*Ts]": tree-sitter's splat_type
				p.nodes[c].kind = kindOfText("splat_type")
				p.add(w, c, 0)
			} else {
				p.add(w, p.typeInner(c), 0)
			}
			p.add(tp, w, 0)
		} else {
			p.add(tp, c, 0)
		}
		c = next
	}
	p.add(g, tp, 0)
	return g
}

// exprStmt parses an expression statement, assignment or augmented
// assignment.
func (p *parser) exprStmt() int32 {
	stmt := p.newNode(kExprStmt)
	if p.isKw("yield") {
		y := p.yieldExpr()
		if p.isOp("=") {
			p.fail(int(p.nodes[y].start), "assignment to yield expression not possible")
		}
		p.add(stmt, y, 0)
		return stmt
	}
	first := p.tok()
	e := p.starExpressions()
	switch {
	case p.isOp("="):
		p.toTarget(e, true)
		p.add(stmt, p.assignment(e), 0)
	case p.isOp(":"):
		k := p.nodes[e].kind
		if !(k == kIdentifier || k == kAttribute || k == kSubscript || k == kParen && first.kind == tOp) {
			p.fail(int(p.nodes[e].start), "only single target (not %s) can be annotated", describe(p.nodes[e].kind))
		}
		if k == kParen {
			p.toTarget(e, true)
		}
		a := p.newNode(kAssignment)
		p.add(a, e, fLeft)
		p.add(a, p.tokLeaf(), 0)
		p.add(a, p.typeOf(p.expression()), fType)
		if p.isOp("=") {
			p.add(a, p.tokLeaf(), 0)
			p.add(a, p.rhs(), fRight)
		}
		p.add(stmt, a, 0)
	case p.isAugOp():
		k := p.nodes[p.unparen(e)].kind
		if !(k == kIdentifier || k == kAttribute || k == kSubscript) {
			p.fail(int(p.nodes[e].start), "'%s' is an illegal expression for augmented assignment", describe(k))
		}
		if p.nodes[e].kind == kParen {
			p.toTarget(e, true)
		}
		a := p.newNode(kAugAssn)
		p.add(a, e, fLeft)
		p.add(a, p.tokLeaf(), fOperator)
		if p.minor < 9 && p.isOp("*") {
			// 3.8: augassign (yield_expr | testlist), no star
			p.syntaxError()
		}
		p.add(a, p.rhsNoAssign(), fRight)
		p.add(stmt, a, 0)
	default:
		if p.nodes[e].kind == kExprList {
			// tree-sitter puts a bare tuple's elements in the statement
			for c := p.nodes[e].first; c >= 0; {
				next := p.nodes[c].next
				p.add(stmt, c, 0)
				c = next
			}
		} else {
			p.add(stmt, e, 0)
		}
	}
	return stmt
}

// unparen returns the expression inside any parentheses around e.
func (p *parser) unparen(e int32) int32 {
	for p.nodes[e].kind == kParen {
		c := p.nodes[e].first
		for c >= 0 && !p.nodes[c].named {
			c = p.nodes[c].next
		}
		if c < 0 {
			return e
		}
		e = c
	}
	return e
}

func (p *parser) isAugOp() bool {
	t := p.tok()
	if t.kind != tOp || t.end-t.start < 2 {
		return false
	}
	s := p.text(t)
	return s[len(s)-1] == '=' && s != "==" && s != "<=" && s != ">=" && s != "!=" && s != ":="
}

// assignment builds "left = right", right-nested for chains
// ("a = b = c" is assignment(a, =, assignment(b, =, c)), tree-sitter's
// shape); a loop, not a recursion: CPython takes chains of any length.
func (p *parser) assignment(left int32) int32 {
	var chain []int32 // the assignments, outermost first
	var right int32
	for {
		a := p.newNode(kAssignment)
		p.add(a, left, fLeft)
		p.add(a, p.tokLeaf(), 0)
		chain = append(chain, a)
		if p.isKw("yield") {
			right = p.yieldExpr()
			if p.isOp("=") {
				p.fail(int(p.nodes[right].start), "assignment to yield expression not possible")
			}
			break
		}
		e := p.starExpressions()
		if p.isOp("=") {
			p.toTarget(e, true)
			left = e
			continue
		}
		if p.isAugOp() {
			p.failTok("invalid syntax")
		}
		right = e
		break
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p.add(chain[i], right, fRight)
		right = chain[i]
	}
	return right
}

// rhs parses the right of "=": yield or star expressions, itself possibly
// an assignment target.
func (p *parser) rhs() int32 {
	if p.isKw("yield") {
		y := p.yieldExpr()
		if p.isOp("=") {
			p.fail(int(p.nodes[y].start), "assignment to yield expression not possible")
		}
		return y
	}
	e := p.starExpressions()
	if p.isOp("=") {
		p.toTarget(e, true)
		return p.assignment(e)
	}
	if p.isAugOp() {
		p.failTok("invalid syntax")
	}
	return e
}

func (p *parser) rhsNoAssign() int32 {
	if p.isKw("yield") {
		return p.yieldExpr()
	}
	return p.starExpressions()
}

func describe(k Kind) string {
	switch k {
	case kCall:
		return "function call"
	case kInteger, kFloat, kString, kConcat, kTrue, kFalse, kNone, kEllipsis:
		return "literal"
	case kCompare:
		return "comparison"
	case kBinary, kUnary, kBool, kNot:
		return "expression"
	case kLambda:
		return "lambda"
	case kCond:
		return "conditional expression"
	case kNamed:
		return "named expression"
	case kAwait:
		return "await expression"
	case kYield:
		return "yield expression"
	case kDict, kSet:
		return "dict literal"
	case kListComp:
		return "list comprehension"
	case kGenExpr:
		return "generator expression"
	}
	return "expression"
}

// toTarget checks that e is an assignment target and relabels it with
// tree-sitter's pattern kinds.
func (p *parser) toTarget(e int32, top bool) {
	nd := &p.nodes[e]
	switch nd.kind {
	case kIdentifier, kAttribute, kSubscript:
		if nd.kind == kIdentifier && p.isDebugName(e) {
			p.fail(int(nd.start), "cannot assign to __debug__")
		}
		return
	case kExprList:
		if top {
			nd.kind = kPatternList
		} else {
			nd.kind = kTuplePat
		}
		p.targetKids(e)
		return
	case kTuple:
		nd.kind = kTuplePat
		p.targetKids(e)
		return
	case kList:
		nd.kind = kListPat
		p.targetKids(e)
		return
	case kParen:
		inner := nd.first
		for inner >= 0 && !p.nodes[inner].named {
			inner = p.nodes[inner].next
		}
		if p.nodes[inner].kind == kYield {
			p.fail(int(p.nodes[inner].start), "cannot assign to yield expression")
		}
		nd.kind = kTuplePat
		p.toTarget(inner, false)
		return
	case kListSplat:
		nd.kind = kListSplatPat
		inner := p.nodes[nd.first].next
		p.toTarget(inner, false)
		return
	}
	p.fail(int(nd.start), "cannot assign to %s", describe(nd.kind))
}

func (p *parser) isDebugName(e int32) bool {
	nd := &p.nodes[e]
	return string(p.src[nd.start:nd.end]) == "__debug__"
}

func (p *parser) targetKids(e int32) {
	stars := 0
	for c := p.nodes[e].first; c >= 0; c = p.nodes[c].next {
		if p.nodes[c].named {
			if p.nodes[c].kind == kListSplat {
				stars++
				if stars > 1 {
					p.fail(int(p.nodes[c].start), "multiple starred expressions in assignment")
				}
			}
			p.toTarget(c, false)
		}
	}
}

// noTopStar fails at the first starred item of e (a list_splat, or one
// among an expression_list's items).
func (p *parser) noTopStar(e int32) {
	if p.nodes[e].kind == kListSplat {
		p.fail(int(p.nodes[e].start), "invalid syntax")
	}
	if p.nodes[e].kind == kExprList {
		for c := p.nodes[e].first; c >= 0; c = p.nodes[c].next {
			if p.nodes[c].kind == kListSplat {
				p.fail(int(p.nodes[c].start), "invalid syntax")
			}
		}
	}
}

func (p *parser) delTargets() int32 {
	e := p.starExpressions()
	p.checkDel(e)
	return e
}

func (p *parser) checkDel(e int32) {
	nd := &p.nodes[e]
	switch nd.kind {
	case kIdentifier, kAttribute, kSubscript:
		return
	case kExprList, kTuple, kList, kParen:
		for c := nd.first; c >= 0; c = p.nodes[c].next {
			if p.nodes[c].named {
				p.checkDel(c)
			}
		}
		return
	case kListSplat:
		if p.minor < 9 {
			// 3.8's parser takes "del *a" (its compiler rejects it)
			p.checkDel(p.nodes[nd.first].next)
			return
		}
	}
	p.fail(int(nd.start), "cannot delete %s", describe(nd.kind))
}

// ---------- compound statements ----------

// suite parses ":" then a block: a NEWLINE INDENT block or simple
// statements on the same line. It adds ":" and the block to n.
func (p *parser) suite(n int32, f Field) {
	p.expectOp(n, ":")
	p.add(n, p.block(), f)
}

func (p *parser) block() int32 {
	b := p.newNode(kBlock)
	if p.tok().kind == tNewline {
		p.p++
		if p.tok().kind != tIndent {
			p.fail(p.atPos(), "expected an indented block")
		}
		p.p++
		for p.tok().kind != tDedent && p.tok().kind != tEOF {
			p.statement(b)
		}
		t := p.tok()
		p.p++
		if t.end > p.nodes[b].end {
			p.nodes[b].end = t.end
		}
		return b
	}
	end := p.simpleStmts(b)
	if end > p.nodes[b].end {
		p.nodes[b].end = end
	}
	return b
}

func (p *parser) ifStmt() int32 {
	n := p.newNode(kindOfText("if_statement"))
	p.add(n, p.tokLeaf(), 0)
	p.add(n, p.namedExpression(), fCondition)
	p.suite(n, fConsequence)
	// CPython nests each elif in the orelse of the If before it
	defer func(open int) { p.open = open }(p.open)
	for p.isKw("elif") {
		p.enter()
		e := p.newNode(kindOfText("elif_clause"))
		p.add(e, p.tokLeaf(), 0)
		p.add(e, p.namedExpression(), fCondition)
		p.suite(e, fConsequence)
		p.add(n, e, fAlternative)
	}
	if p.isKw("else") {
		p.add(n, p.elseClause(), fAlternative)
	}
	return n
}

func (p *parser) elseClause() int32 {
	e := p.newNode(kindOfText("else_clause"))
	p.add(e, p.tokLeaf(), 0)
	p.suite(e, fBody)
	return e
}

func (p *parser) whileStmt() int32 {
	n := p.newNode(kindOfText("while_statement"))
	p.add(n, p.tokLeaf(), 0)
	p.add(n, p.namedExpression(), fCondition)
	p.suite(n, fBody)
	if p.isKw("else") {
		p.add(n, p.elseClause(), fAlternative)
	}
	return n
}

func (p *parser) forStmt(async int32) int32 {
	n := p.newNode(kindOfText("for_statement"))
	p.add(n, async, 0)
	p.add(n, p.tokLeaf(), 0)
	p.add(n, p.targetList(), fLeft)
	p.expectKw(n, "in")
	iter := p.starExpressions()
	if p.minor < 9 {
		// 3.8: 'for' exprlist 'in' testlist: no starred item
		p.noTopStar(iter)
	}
	p.add(n, iter, fRight)
	p.suite(n, fBody)
	if p.isKw("else") {
		p.add(n, p.elseClause(), fAlternative)
	}
	return n
}

// targetList parses for-loop targets (star_targets): comma-separated
// bitwise-or expressions, relabelled as patterns.
func (p *parser) targetList() int32 {
	first := p.starTarget()
	if !p.isOp(",") {
		p.toTarget(first, true)
		return first
	}
	l := p.newNode(kExprList)
	p.add(l, first, 0)
	for p.isOp(",") {
		p.add(l, p.tokLeaf(), 0)
		if p.isKw("in") || p.isOp("=") {
			break
		}
		p.add(l, p.starTarget(), 0)
	}
	p.toTarget(l, true)
	return l
}

func (p *parser) starTarget() int32 {
	if p.isOp("*") {
		s := p.newNode(kListSplat)
		p.add(s, p.tokLeaf(), 0)
		p.add(s, p.bitOr(), 0)
		return s
	}
	return p.bitOr()
}

func (p *parser) tryStmt() int32 {
	n := p.newNode(kindOfText("try_statement"))
	p.add(n, p.tokLeaf(), 0)
	p.suite(n, fBody)
	sawExcept, sawGroup := false, false
	for p.isKw("except") {
		// "except*" is one token to tree-sitter; "except *E" is an except
		// clause whose value is a list_splat
		star := p.isOpAt(1, "*") && p.peek(1).start == p.tok().end
		var c int32
		if star {
			if p.minor < 11 {
				p.fail(int(p.peek(1).start), "invalid syntax")
			}
			sawGroup = true
			c = p.newNode(kindOfText("except_group_clause"))
			t := p.tok()
			st := p.peek(1)
			p.add(c, p.put(kindOfText("except*"), false, t.start, st.end), 0)
			p.p += 2
			p.add(c, p.exceptAs(p.exceptTypes(p.expression())), 0)
		} else {
			sawExcept = !p.isOpAt(1, "*")
			c = p.newNode(kindOfText("except_clause"))
			p.add(c, p.tokLeaf(), 0)
			if p.isOp(":") && sawGroup {
				p.failTok("expected one or more exception types")
			}
			if !p.isOp(":") {
				var v int32
				if p.isOp("*") {
					if p.minor < 11 {
						p.syntaxError()
					}
					sawGroup = true
					v = p.newNode(kListSplat)
					p.add(v, p.tokLeaf(), 0)
					p.add(v, p.expression(), 0)
				} else {
					v = p.expression()
				}
				p.add(c, p.exceptAs(p.exceptTypes(v)), fValue)
			}
		}
		p.suite(c, 0)
		p.add(n, c, 0)
	}
	if sawExcept && sawGroup {
		p.fail(int(p.nodes[n].start), "cannot have both 'except' and 'except*' on the same 'try'")
	}
	if (sawExcept || sawGroup) && p.isKw("else") {
		p.add(n, p.elseClause(), 0)
	}
	if p.isKw("finally") {
		f := p.newNode(kindOfText("finally_clause"))
		p.add(f, p.tokLeaf(), 0)
		p.suite(f, 0)
		p.add(n, f, 0)
	} else if !sawExcept && !sawGroup {
		p.fail(p.atPos(), "expected 'except' or 'finally' block")
	}
	return n
}

// exceptTypes parses the rest of "except A, B:" after its first type v:
// valid without parentheses from 3.14 (PEP 758) unless "as" follows; an
// error that says so from 3.10.
func (p *parser) exceptTypes(v int32) int32 {
	if !p.isOp(",") || p.minor < 10 {
		return v
	}
	if p.minor < 14 {
		p.fail(int(p.nodes[v].start), "multiple exception types must be parenthesized")
	}
	l := p.newNode(kExprList)
	p.add(l, v, 0)
	for p.isOp(",") {
		p.add(l, p.tokLeaf(), 0)
		if p.isOp(":") {
			break // expressions: a trailing comma
		}
		p.add(l, p.expression(), 0)
	}
	if p.isKw("as") {
		p.fail(int(p.nodes[v].start), "multiple exception types must be parenthesized when using 'as'")
	}
	return l
}

// exceptAs builds tree-sitter's as_pattern for "except E as name".
func (p *parser) exceptAs(v int32) int32 {
	if !p.isKw("as") {
		return v
	}
	a := p.newNode(kAsPattern)
	p.add(a, v, 0)
	p.add(a, p.tokLeaf(), 0)
	t := p.newNode(kAsPatternTarget)
	p.add(t, p.name(), 0)
	p.add(a, t, fAlias)
	return a
}

func (p *parser) withStmt(async int32) int32 {
	n := p.newNode(kindOfText("with_statement"))
	p.add(n, async, 0)
	p.add(n, p.tokLeaf(), 0)
	c := p.newNode(kindOfText("with_clause"))
	paren := p.isOp("(") && p.parenWithItems()
	if paren && p.minor < 9 {
		// 3.8 has no parenthesized with items: "(...)" is an expression
		if as := p.parenAs(); as >= 0 {
			p.fail(as, "invalid syntax")
		}
	}
	if paren {
		// CPython tries "(" with_item, ... ")" first, then with_item
		// whose expression starts with "(": "with (yield):", "with (a :=
		// b):", "with (*a, b):", "with (x for x in y):"
		saveMax := p.maxP
		p.maxP = 0
		if _, ok := p.attempt(func() int32 { p.parenWithClause(c); return c }); ok {
			p.maxP = saveMax
			p.add(n, c, 0)
			p.suite(n, fBody)
			return n
		}
		parenFar := p.maxP
		p.nodes[c].first, p.nodes[c].last, p.nodes[c].start, p.nodes[c].end = -1, -1, ^uint32(0), 0
		p.maxP = 0
		_, ok := p.attempt(func() int32 { p.plainWithClause(c); return c })
		plainFar := p.maxP
		p.maxP = max(saveMax, plainFar, parenFar)
		if !ok && parenFar >= plainFar {
			// neither reading: the error of the one that got further
			p.parenWithClause(c)
		} else if !ok {
			p.plainWithClause(c)
		}
	} else {
		p.plainWithClause(c)
	}
	p.add(n, c, 0)
	p.suite(n, fBody)
	return n
}

// parenWithClause parses "(" with_item ("," with_item)* [","] ")" into the
// with_clause c.
func (p *parser) parenWithClause(c int32) {
	if p.parenItemCount() == 1 {
		// one parenthesized item: tree-sitter reads the parentheses as a
		// parenthesized_expression, or a tuple with a trailing comma
		w := p.newNode(kindOfText("with_item"))
		open := p.tokLeaf()
		it := p.withItemExpr()
		var v int32
		if p.isOp(",") {
			v = p.newNode(kTuple)
			p.add(v, open, 0)
			p.add(v, it, 0)
			p.add(v, p.tokLeaf(), 0)
		} else {
			v = p.newNode(kParen)
			p.add(v, open, 0)
			p.add(v, it, 0)
		}
		p.expectOp(v, ")")
		p.add(w, v, fValue)
		p.add(c, w, 0)
		return
	}
	p.add(c, p.tokLeaf(), 0)
	for !p.isOp(")") {
		p.add(c, p.withItem(), 0)
		if !p.isOp(",") {
			break
		}
		p.add(c, p.tokLeaf(), 0)
	}
	p.expectOp(c, ")")
	if !p.isOp(":") {
		p.syntaxError()
	}
}

// plainWithClause parses with_item ("," with_item)* into the with_clause c.
func (p *parser) plainWithClause(c int32) {
	for {
		p.add(c, p.withItem(), 0)
		if !p.isOp(",") {
			break
		}
		p.add(c, p.tokLeaf(), 0)
	}
}

// parenAs returns the offset of the first "as" at the top level of the
// parentheses at the current "(", or -1.
func (p *parser) parenAs() int {
	depth := 0
	for i := p.p; i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.kind == tOp && (p.text(t) == "(" || p.text(t) == "[" || p.text(t) == "{"):
			depth++
		case t.kind == tOp && (p.text(t) == ")" || p.text(t) == "]" || p.text(t) == "}"):
			depth--
			if depth == 0 {
				return -1
			}
		case t.kind == tName && depth == 1 && p.text(t) == "as":
			return int(t.start)
		case t.kind == tNewline || t.kind == tEOF:
			return -1
		}
	}
	return -1
}

// parenWithItems reports whether "(" opens a parenthesized list of with
// items: the matching ")" is followed by ":".
func (p *parser) parenWithItems() bool {
	depth := 0
	for i := p.p; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.kind != tOp {
			if t.kind == tNewline || t.kind == tEOF {
				return false
			}
			continue
		}
		switch p.text(t) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return i+1 < len(p.toks) && p.toks[i+1].kind == tOp && p.text(p.toks[i+1]) == ":"
			}
		}
	}
	return false
}

// parenItemCount counts the items of a parenthesized with-item list at
// "(" (a trailing comma does not count).
func (p *parser) parenItemCount() int {
	depth, n := 0, 1
	for i := p.p; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.kind != tOp {
			continue
		}
		switch p.text(t) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return n
			}
		case ",":
			if depth == 1 && !(i+1 < len(p.toks) && p.toks[i+1].kind == tOp && p.text(p.toks[i+1]) == ")") {
				n++
			}
		}
	}
	return n
}

func (p *parser) withItem() int32 {
	w := p.newNode(kindOfText("with_item"))
	p.add(w, p.withItemExpr(), fValue)
	return w
}

// withItemExpr parses expression ["as" target], the latter as tree-sitter's
// as_pattern.
func (p *parser) withItemExpr() int32 {
	e := p.expression()
	if p.isKw("as") {
		a := p.newNode(kAsPattern)
		p.add(a, e, 0)
		p.add(a, p.tokLeaf(), 0)
		t := p.newNode(kAsPatternTarget)
		tg := p.starTarget()
		// the target stays an expression in tree-sitter's tree; check only
		p.checkTargetOnly(tg)
		p.add(t, tg, 0)
		p.add(a, t, fAlias)
		e = a
	}
	return e
}

// checkTargetOnly validates an assignment target without relabelling.
func (p *parser) checkTargetOnly(e int32) {
	nd := &p.nodes[e]
	switch nd.kind {
	case kIdentifier, kAttribute, kSubscript:
		return
	case kTuple, kList, kParen, kExprList:
		for c := nd.first; c >= 0; c = p.nodes[c].next {
			if p.nodes[c].named {
				p.checkTargetOnly(c)
			}
		}
		return
	case kListSplat:
		p.checkTargetOnly(p.nodes[nd.first].next)
		return
	}
	p.fail(int(nd.start), "cannot assign to %s", describe(nd.kind))
}

func (p *parser) decorated() int32 {
	n := p.newNode(kindOfText("decorated_definition"))
	for p.isOp("@") {
		d := p.newNode(kindOfText("decorator"))
		p.add(d, p.tokLeaf(), 0)
		e := p.namedExpression()
		if p.minor < 9 && !p.isDecorator38(e) {
			// before PEP 614: dotted_name [ "(" [arglist] ")" ]
			p.fail(int(p.nodes[e].start), "invalid syntax")
		}
		p.add(d, e, 0)
		if p.tok().kind != tNewline {
			p.syntaxError()
		}
		if nl := p.tok().start; nl > p.nodes[d].end {
			p.nodes[d].end = nl
		}
		p.p++
		p.add(n, d, 0)
	}
	var def int32
	switch {
	case p.isKw("def"):
		def = p.funcDef(-1)
	case p.isKw("class"):
		def = p.classDef()
	case p.isKw("async") && p.isKwAt(1, "def"):
		a := p.tokLeaf()
		def = p.funcDef(a)
	default:
		p.syntaxError()
	}
	p.add(n, def, fDefinition)
	return n
}

// isDecorator38 reports whether e is a Python 3.8 decorator: a dotted name,
// possibly called once.
func (p *parser) isDecorator38(e int32) bool {
	if p.nodes[e].kind == kCall {
		e = p.nodes[e].first
	}
	for p.nodes[e].kind == kAttribute {
		e = p.nodes[e].first
	}
	return p.nodes[e].kind == kIdentifier
}

func (p *parser) funcDef(async int32) int32 {
	n := p.newNode(kindOfText("function_definition"))
	p.add(n, async, 0)
	p.add(n, p.tokLeaf(), 0)
	p.add(n, p.name(), fName)
	if p.isOp("[") && p.minor >= 12 && (!p.isOpAt(1, "]") || p.minor >= 13) {
		p.add(n, p.typeParams(), fTypeParameters)
	}
	params := p.newNode(kindOfText("parameters"))
	if !p.isOp("(") {
		if p.minor >= 11 {
			// 3.11+: 'def' NAME [type_params] &&'('
			p.failTok("expected '('")
		}
		p.syntaxError()
	}
	p.add(params, p.tokLeaf(), 0)
	p.parameters(params, false)
	p.expectOp(params, ")")
	p.add(n, params, fParameters)
	if p.isOp("->") {
		p.add(n, p.tokLeaf(), 0)
		p.add(n, p.typeOf(p.expression()), fReturnType)
	}
	p.suite(n, fBody)
	return n
}

// parameters parses a parameter list into n (up to ")" or ":" for
// lambdas), checking CPython's ordering rules.
func (p *parser) parameters(n int32, lambda bool) {
	end := func() bool {
		if lambda {
			return p.isOp(":")
		}
		return p.isOp(")")
	}
	sawDefault, sawStar, sawSlash, sawKwargs := false, false, false, false
	starBare := -1
	nAfterStar := 0
	count := 0
	for !end() {
		if sawKwargs {
			p.failTok("arguments cannot follow var-keyword argument")
		}
		var prm int32
		switch {
		case p.isOp("/"):
			if sawSlash {
				p.failTok("/ may appear only once")
			}
			if sawStar {
				p.failTok("/ must be ahead of *")
			}
			if count == 0 {
				p.failTok("at least one argument must precede /")
			}
			sawSlash = true
			prm = p.newNode(kindOfText("positional_separator"))
			p.add(prm, p.tokLeaf(), 0)
		case p.isOp("*"):
			if sawStar {
				p.failTok("* argument may appear only once")
			}
			sawStar = true
			star := p.tokLeaf()
			if p.isOp(",") || end() {
				prm = p.newNode(kindOfText("keyword_separator"))
				p.add(prm, star, 0)
				starBare = int(p.nodes[star].start)
			} else {
				sp := p.newNode(kListSplatPat)
				p.add(sp, star, 0)
				p.add(sp, p.name(), 0)
				prm = p.annotated(sp, lambda, true)
				if p.isOp("=") {
					p.failTok("var-positional argument cannot have default value")
				}
			}
		case p.isOp("**"):
			sawKwargs = true
			sp := p.newNode(kindOfText("dictionary_splat_pattern"))
			p.add(sp, p.tokLeaf(), 0)
			p.add(sp, p.name(), 0)
			prm = p.annotated(sp, lambda, false)
			if p.isOp("=") {
				p.failTok("var-keyword argument cannot have default value")
			}
		default:
			nm := p.name()
			if sawStar {
				nAfterStar++
			}
			var ann int32 = -1
			colon := int32(-1)
			if !lambda && p.isOp(":") {
				colon = p.tokLeaf()
				ann = p.typeOf(p.expression())
			}
			if p.isOp("=") {
				eq := p.tokLeaf()
				val := p.expression()
				if colon >= 0 {
					prm = p.newNode(kindOfText("typed_default_parameter"))
					p.add(prm, nm, fName)
					p.add(prm, colon, 0)
					p.add(prm, ann, fType)
				} else {
					prm = p.newNode(kindOfText("default_parameter"))
					p.add(prm, nm, fName)
				}
				p.add(prm, eq, 0)
				p.add(prm, val, fValue)
				if !sawStar {
					sawDefault = true
				}
			} else {
				if sawDefault && !sawStar {
					p.fail(int(p.nodes[nm].start), "parameter without a default follows parameter with a default")
				}
				if colon >= 0 {
					prm = p.newNode(kindOfText("typed_parameter"))
					p.add(prm, nm, 0)
					p.add(prm, colon, 0)
					p.add(prm, ann, fType)
				} else {
					prm = nm
				}
			}
		}
		count++
		p.add(n, prm, 0)
		if !p.isOp(",") {
			break
		}
		p.add(n, p.tokLeaf(), 0)
	}
	if starBare >= 0 && nAfterStar == 0 {
		p.fail(starBare, "named arguments must follow bare *")
	}
	if !end() {
		p.syntaxError()
	}
}

// annotated wraps a splat parameter in typed_parameter when ": type"
// follows (function parameters only).
func (p *parser) annotated(sp int32, lambda, star bool) int32 {
	if lambda || !p.isOp(":") {
		return sp
	}
	tp := p.newNode(kindOfText("typed_parameter"))
	p.add(tp, sp, 0)
	p.add(tp, p.tokLeaf(), 0)
	var e int32
	if star && p.isOp("*") && p.minor >= 11 {
		if p.peek(1).kind == tName && !isHardKeyword(p.text(p.peek(1))) && !p.isOpAt(2, ".") && !p.isOpAt(2, "[") && !p.isOpAt(2, "(") {
			// "*args: *Ts": tree-sitter's splat_type
			st := p.newNode(kindOfText("splat_type"))
			p.add(st, p.tokLeaf(), 0)
			p.add(st, p.name(), 0)
			t := p.newNode(kType)
			p.add(t, st, 0)
			p.add(tp, t, fType)
			return tp
		}
		start := p.p
		s := p.newNode(kListSplat)
		p.add(s, p.tokLeaf(), 0)
		p.add(s, p.bitOr(), 0)
		e = p.reparseSplat(start, s)
	} else {
		e = p.expression()
	}
	p.add(tp, p.typeOf(e), fType)
	return tp
}

func (p *parser) classDef() int32 {
	n := p.newNode(kindOfText("class_definition"))
	p.add(n, p.tokLeaf(), 0)
	p.add(n, p.name(), fName)
	if p.isOp("[") {
		if p.minor < 12 {
			p.syntaxError()
		}
		p.add(n, p.typeParams(), fTypeParameters)
	}
	if p.isOp("(") {
		p.add(n, p.argList(), fSuperclasses)
	}
	p.suite(n, fBody)
	return n
}

// looksLikeMatch tells a match statement from "match" used as a name: the
// logical line ends with ":" and is followed by an indented block.
func (p *parser) looksLikeMatch() bool {
	nt := p.peek(1)
	if nt.kind == tNewline || nt.kind == tEOF {
		return false
	}
	if nt.kind == tOp {
		switch p.text(nt) {
		case "=", ".", ",", ")", "]", "}", ":", ";", "+=", "-=", "*=", "/=", "|=", "&=", "%=", "^=", "<<=", ">>=", "**=", "//=", "@=", "==", "!=", "<", ">", "<=", ">=", "|", "&", "^", "%", "/", "//", "@", "<<", ">>", "if":
			return false
		}
	}
	if nt.kind == tName {
		switch p.text(nt) {
		case "in", "is", "and", "or", "if", "else", "not":
			if p.text(nt) != "not" {
				return false
			}
		}
	}
	depth, lambdas := 0, 0
	for i := p.p + 1; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.kind == tNewline || t.kind == tEOF {
			return false
		}
		if t.kind == tName && depth == 0 && p.text(t) == "lambda" {
			lambdas++ // its ":" is not the match statement's
		}
		if t.kind != tOp {
			continue
		}
		switch p.text(t) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 && lambdas > 0 {
				lambdas--
			} else if depth == 0 {
				return i+1 < len(p.toks) && p.toks[i+1].kind == tNewline
			}
		}
	}
	return false
}
