package doc

import (
	"strings"
	"unicode/utf8"
)

// surelyParses is DOC-P04's shortcut in the other direction from
// cannotParse: it recognizes a small subset of Python statements that
// CPython parses without an error, so that parsesAsPython is true for them
// without running the parse.
// Anything outside the subset answers false and is left to the parser.
//
// The subset, on valid UTF-8 that is printable ASCII outside strings (a tab
// counts as a space; `#` starts a trailing comment) and has no control
// character inside them, one statement:
//   - `import a.b [as c], ...` and `from a.b import c [as d], ...` (also
//     `from __future__ import ...`, and `from a import *`);
//   - `return [expressions]`;
//   - `print(arguments)` as the whole statement;
//   - a comma-separated list of expressions, optionally preceded by one or
//     more `targets =`, where a target is a name or an attribute or
//     subscript of a primary that starts with a name;
//   - `name: expression` (one expression, no `=` or `[` anywhere in the text):
//     an annotation, or prose in grammar notation such as
//     `stmt: simple_stmt | compound_stmt`.
//
// Expressions follow Python's precedence (so that `a < not b` or `a + not b`
// are rejected as Python rejects them): `or`, `and`, `not`,
// comparisons (`< > == >= <= != in not in is is not`), the binary operators
// `+ - * / // % @ ** << >> & | ^`, the unary `+ - ~`, and primaries: a name
// (not a keyword, soft keyword, `_`, `print`, `exec` or `__future__`), a
// decimal number (`0`, or digits without a leading zero, with an optional
// fraction of digits), None, True, False, one or more adjacent strings
// without a backslash or a triple quote (no prefix or one of r, u, b, br,
// rb in any case), `( )` (empty, one expression or a tuple), `[ ]` and
// `{ }` (list, dict, set) displays, followed (strings, names and displays
// only) by `.name`, calls with positional and `name=` arguments, and
// subscripts with slices. Lambdas, conditional expressions, comprehensions,
// splats, walrus, ellipsis, yield and f-strings are outside the subset.
func surelyParses(s string) bool {
	// the tokens' storage apart from r: r.toks pointing into r itself
	// moved r to the heap on every call (1.5 kB each)
	var buf [maxCodeTokens]codeToken
	r := codeRecognizer{toks: buf[:0]}
	if !r.tokenize(s) || len(r.toks) == 0 {
		return false
	}
	if len(r.toks) > 2 && r.toks[0].kind == tkName && r.toks[1].kind == tkOp && r.toks[1].op == ":" {
		// An annotation `name: expression`. Text with a `=` (an annotated
		// assignment) or a `[` is left to the parser: the subset models
		// neither.
		if strings.IndexByte(s, '=') >= 0 || strings.IndexByte(s, '[') >= 0 {
			return false
		}
		r.pos = 2
		_, ok := r.expression()
		return ok && r.pos == len(r.toks)
	}
	return r.statement() && r.pos == len(r.toks)
}

// Token kinds of codeRecognizer.
const (
	tkName     = iota // an identifier that is not a keyword
	tkConst           // None, True, False
	tkNumber          // a decimal integer or float
	tkString          // a simple string literal
	tkOp              // an operator, delimiter or keyword (text in op)
	tkPrintKw         // print
	tkFutureKw        // __future__
)

type codeToken struct {
	kind uint8
	op   string
}

// maxCodeTokens bounds the statements surelyParses looks at (and the
// recursion of its parser): longer comments go to the parser.
const maxCodeTokens = 64

// codeRecognizer tokenizes and parses one statement for surelyParses.
type codeRecognizer struct {
	toks []codeToken // up to maxCodeTokens, in storage of that capacity
	pos  int
}

// operators are the tokens of two or one characters the subset uses;
// anything else made of these characters (`+=`, `->`, `:=`, `<>`, ...)
// is outside it.
var twoCharOps = [...]string{"**", "//", "<<", ">>", "<=", ">=", "==", "!="}

// wordOps are the keywords the subset uses, as operator tokens.
var wordOps = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true,
	"import": true, "from": true, "as": true, "return": true,
}

func (r *codeRecognizer) add(kind uint8, op string) bool {
	if len(r.toks) == maxCodeTokens {
		return false
	}
	// a reslice, not an append: escape analysis then keeps the storage
	// on surelyParses's stack
	r.toks = r.toks[:len(r.toks)+1]
	r.toks[len(r.toks)-1] = codeToken{kind, op}
	return true
}

// tokenize splits s into tokens; false means s has something outside the
// subset's lexicon.
func (r *codeRecognizer) tokenize(s string) bool {
	r.toks = r.toks[:0]
	if !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '#':
			return true // a trailing comment
		case c < 0x20 || c > 0x7e:
			return false
		case c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
			j := i + 1
			for j < len(s) && isASCIIWord(s[j]) {
				j++
			}
			word := s[i:j]
			if j < len(s) && (s[j] == '\'' || s[j] == '"') {
				if !isStringPrefix(word) {
					return false
				}
				k, ok := r.addString(s, j, strings.ContainsAny(word, "bB"))
				if !ok {
					return false
				}
				i = k
				continue
			}
			var ok bool
			switch {
			case word == "None" || word == "True" || word == "False":
				ok = r.add(tkConst, "")
			case word == "print":
				ok = r.add(tkPrintKw, "")
			case word == "__future__":
				ok = r.add(tkFutureKw, "")
			case wordOps[word]:
				ok = r.add(tkOp, word)
			case notAtomWords[word]:
				return false
			default:
				ok = r.add(tkName, "")
			}
			if !ok {
				return false
			}
			i = j
			continue
		case c >= '0' && c <= '9':
			j := i + 1
			if c != '0' {
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			if j+1 < len(s) && s[j] == '.' && s[j+1] >= '0' && s[j+1] <= '9' {
				j += 2
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			if j < len(s) && (isASCIIWord(s[j]) || s[j] == '.' || s[j] == '\'' || s[j] == '"') {
				return false // 01, 1e5, 1j, 0x1, 1., 1.5.real, ...
			}
			if !r.add(tkNumber, "") {
				return false
			}
			i = j
			continue
		case c == '\'' || c == '"':
			k, ok := r.addString(s, i, false)
			if !ok {
				return false
			}
			i = k
			continue
		}
		if i+1 < len(s) {
			two := s[i : i+2]
			matched := false
			for _, op := range twoCharOps {
				if two == op {
					matched = true
					break
				}
			}
			if matched {
				if i+2 < len(s) && s[i+2] == '=' {
					return false // **=, //=, <<=, >>=, and === or !== (not Python)
				}
				if !r.add(tkOp, two) {
					return false
				}
				i += 2
				continue
			}
		}
		switch c {
		case '+', '-', '*', '/', '%', '@', '&', '|', '^', '<', '>', ':', '=':
			if i+1 < len(s) && (s[i+1] == '=' || (c == '-' && s[i+1] == '>')) {
				return false // augmented assignment, :=, ->
			}
		case '.':
			if i+1 < len(s) && (s[i+1] == '.' || (s[i+1] >= '0' && s[i+1] <= '9')) {
				return false // ellipsis, .5
			}
		case '~', '(', ')', '[', ']', '{', '}', ',':
		default:
			return false // ; ! ? $ ` \ and the like
		}
		if !r.add(tkOp, s[i:i+1]) {
			return false
		}
		i++
	}
	return true
}

// addString adds the string literal whose opening quote is s[i] (a bytes
// literal when bytes) and returns the index after it; false means a string
// outside the subset. The token's op is "b" for bytes, "" for str: adjacent
// literals of both kinds do not parse ("cannot mix bytes and nonbytes
// literals").
func (r *codeRecognizer) addString(s string, i int, bytes bool) (end int, ok bool) {
	end, res := scanSimpleString(s, i)
	if res != stringOK {
		return 0, false
	}
	for _, c := range []byte(s[i+1 : end-1]) {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return 0, false
		}
	}
	op := ""
	if bytes {
		op = "b"
	}
	return end, r.add(tkString, op)
}

// isStringPrefix reports the Python string prefixes of the subset: none of
// them makes an f-string.
func isStringPrefix(w string) bool {
	switch len(w) {
	case 1:
		switch w[0] | 0x20 {
		case 'r', 'u', 'b':
			return true
		}
	case 2:
		a, b := w[0]|0x20, w[1]|0x20
		return a == 'r' && b == 'b' || a == 'b' && b == 'r'
	}
	return false
}

// is reports whether the current token is the operator op.
func (r *codeRecognizer) is(op string) bool {
	return r.pos < len(r.toks) && r.toks[r.pos].kind == tkOp && r.toks[r.pos].op == op
}

// accept consumes the operator op if it is the current token.
func (r *codeRecognizer) accept(op string) bool {
	if r.is(op) {
		r.pos++
		return true
	}
	return false
}

func (r *codeRecognizer) kindIs(kind uint8) bool {
	return r.pos < len(r.toks) && r.toks[r.pos].kind == kind
}

func (r *codeRecognizer) statement() bool {
	switch {
	case r.accept("import"):
		for {
			if !r.dottedName() {
				return false
			}
			if r.accept("as") && !r.name() {
				return false
			}
			if !r.accept(",") {
				return true
			}
		}
	case r.accept("from"):
		future := r.kindIs(tkFutureKw)
		if future {
			r.pos++
		} else if !r.dottedName() {
			return false
		}
		if !r.accept("import") {
			return false
		}
		if !future && r.accept("*") {
			return true
		}
		for {
			if !r.name() {
				return false
			}
			if r.accept("as") && !r.name() {
				return false
			}
			if !r.accept(",") {
				return true
			}
		}
	case r.accept("return"):
		if r.pos == len(r.toks) {
			return true
		}
		_, ok := r.expressions()
		return ok
	case r.kindIs(tkPrintKw):
		r.pos++
		return r.accept("(") && r.arguments()
	}
	for {
		targets, ok := r.expressions()
		if !ok {
			return false
		}
		if !r.is("=") {
			return true
		}
		if !targets {
			return false
		}
		r.pos++
	}
}

func (r *codeRecognizer) name() bool {
	if r.kindIs(tkName) {
		r.pos++
		return true
	}
	return false
}

func (r *codeRecognizer) dottedName() bool {
	if !r.name() {
		return false
	}
	for r.accept(".") {
		if !r.name() {
			return false
		}
	}
	return true
}

// expressions parses `expression (, expression)* [,]`; targets reports
// that every expression is an assignment target.
func (r *codeRecognizer) expressions() (targets, ok bool) {
	targets = true
	for {
		t, ok := r.expression()
		if !ok {
			return false, false
		}
		targets = targets && t
		if !r.accept(",") || r.atExpressionsEnd() {
			return targets, true
		}
	}
}

// atExpressionsEnd reports a token that cannot start an expression after a
// trailing comma: the end, `=` or a closing bracket.
func (r *codeRecognizer) atExpressionsEnd() bool {
	return r.pos == len(r.toks) || r.is("=") || r.is(")") || r.is("]") || r.is("}")
}

// expression parses an `or` expression; target reports a bare name,
// attribute or subscript.
func (r *codeRecognizer) expression() (target, ok bool) {
	target, ok = r.conjunction()
	for ok && r.accept("or") {
		target = false
		_, ok = r.conjunction()
	}
	return target && ok, ok
}

func (r *codeRecognizer) conjunction() (target, ok bool) {
	target, ok = r.inversion()
	for ok && r.accept("and") {
		target = false
		_, ok = r.inversion()
	}
	return target && ok, ok
}

func (r *codeRecognizer) inversion() (target, ok bool) {
	if r.accept("not") {
		_, ok := r.inversion()
		return false, ok
	}
	return r.comparison()
}

func (r *codeRecognizer) comparison() (target, ok bool) {
	target, ok = r.arithmetic()
	for ok {
		switch {
		case r.accept("<"), r.accept(">"), r.accept("=="), r.accept(">="), r.accept("<="),
			r.accept("!="), r.accept("in"):
		case r.accept("is"):
			r.accept("not")
		case r.is("not") && r.pos+1 < len(r.toks) && r.toks[r.pos+1].kind == tkOp && r.toks[r.pos+1].op == "in":
			r.pos += 2
		default:
			return target, true
		}
		target = false
		_, ok = r.arithmetic()
	}
	return false, false
}

// binaryOps are the binary operators of arithmetic and bitwise expressions.
var binaryOps = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "//": true, "%": true, "@": true,
	"**": true, "<<": true, ">>": true, "&": true, "|": true, "^": true,
}

// arithmetic parses unary operands joined by binary operators: every such
// sequence is valid Python, whatever the operators.
func (r *codeRecognizer) arithmetic() (target, ok bool) {
	target, ok = r.unary()
	for ok && r.pos < len(r.toks) && r.toks[r.pos].kind == tkOp && binaryOps[r.toks[r.pos].op] {
		r.pos++
		target = false
		_, ok = r.unary()
	}
	return target && ok, ok
}

func (r *codeRecognizer) unary() (target, ok bool) {
	if r.accept("+") || r.accept("-") || r.accept("~") {
		_, ok := r.unary()
		return false, ok
	}
	return r.primary()
}

// primary parses an atom and its trailers; target reports a name alone or
// a name followed by trailers of which the last is an attribute or a
// subscript.
func (r *codeRecognizer) primary() (target, ok bool) {
	if r.pos == len(r.toks) {
		return false, false
	}
	tok := r.toks[r.pos]
	r.pos++
	switch tok.kind {
	case tkNumber, tkConst:
		return false, true // no trailers: `1 .real`, `None.x` are left to the parser
	case tkName:
		target = true
	case tkString:
		for r.kindIs(tkString) {
			if r.toks[r.pos].op != tok.op {
				return false, false // bytes next to str
			}
			r.pos++
		}
	case tkOp:
		switch tok.op {
		case "(":
			if !r.accept(")") {
				if _, ok := r.expressions(); !ok || !r.accept(")") {
					return false, false
				}
			}
		case "[":
			if !r.accept("]") {
				if _, ok := r.expressions(); !ok || !r.accept("]") {
					return false, false
				}
			}
		case "{":
			if !r.accept("}") && !r.braces() {
				return false, false
			}
		default:
			return false, false
		}
	default:
		return false, false
	}
	root := tok.kind == tkName
	for {
		switch {
		case r.accept("."):
			if !r.name() {
				return false, false
			}
			target = root
		case r.accept("("):
			if !r.arguments() {
				return false, false
			}
			target = false
		case r.accept("["):
			if !r.subscripts() {
				return false, false
			}
			target = root
		default:
			return target, true
		}
	}
}

// braces parses the inside of a non-empty dict or set display and its
// closing brace.
func (r *codeRecognizer) braces() bool {
	if _, ok := r.expression(); !ok {
		return false
	}
	if !r.accept(":") { // a set
		if r.accept(",") && !r.is("}") {
			if _, ok := r.expressions(); !ok {
				return false
			}
		}
		return r.accept("}")
	}
	for {
		if _, ok := r.expression(); !ok {
			return false
		}
		if !r.accept(",") || r.is("}") {
			return r.accept("}")
		}
		if _, ok := r.expression(); !ok || !r.accept(":") {
			return false
		}
	}
}

// arguments parses a call's arguments after `(`, and the `)`.
func (r *codeRecognizer) arguments() bool {
	for !r.accept(")") {
		if r.kindIs(tkName) && r.pos+1 < len(r.toks) && r.toks[r.pos+1].kind == tkOp && r.toks[r.pos+1].op == "=" {
			r.pos += 2
		}
		if _, ok := r.expression(); !ok {
			return false
		}
		if !r.accept(",") && !r.is(")") {
			return false
		}
	}
	return true
}

// subscripts parses a subscript's items (expressions and slices) after
// `[`, and the `]`.
func (r *codeRecognizer) subscripts() bool {
	if r.is("]") {
		return false
	}
	for !r.accept("]") {
		// an item: [expr] [: [expr] [: [expr]]], not empty
		item := false
		if !r.is(":") {
			if _, ok := r.expression(); !ok {
				return false
			}
			item = true
		}
		if r.accept(":") {
			item = true
			if !r.is(":") && !r.is(",") && !r.is("]") {
				if _, ok := r.expression(); !ok {
					return false
				}
			}
			if r.accept(":") && !r.is(",") && !r.is("]") {
				if _, ok := r.expression(); !ok {
					return false
				}
			}
		}
		if !item {
			return false
		}
		if !r.accept(",") && !r.is("]") {
			return false
		}
	}
	return true
}
