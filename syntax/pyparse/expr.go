package pyparse

import (
	"bytes"
	"fmt"
)

// Expressions, following CPython's grammar (python.gram) for what is
// accepted and tree-sitter-python's grammar.js for the tree built.

// starExpressions: star_expression ("," star_expression)* [","], an
// expression_list when there is a comma.
func (p *parser) starExpressions() int32 {
	start := p.p
	e := p.starExpression()
	if !p.isOp(",") {
		return e
	}
	e = p.reparseSplat(start, e)
	l := p.newNode(kExprList)
	p.add(l, e, 0)
	for p.isOp(",") {
		p.add(l, p.tokLeaf(), 0)
		if !p.startsExpression() {
			break
		}
		start := p.p
		e := p.starExpression()
		if p.nodes[e].kind == kListSplat && (!p.oneTrailer(p.nodes[p.nodes[e].first].next) || !p.atFileEnd(e)) {
			// later elements: tree-sitter reads them as reparseSplat does
			// except "*name", and "*name.attr" or "*name[...]" as the
			// last element of the file's last statement (nothing but
			// blank lines and a comment on the same line after it)
			e = p.reparseSplat(start, e)
		}
		p.add(l, e, 0)
	}
	return l
}

// oneTrailer reports whether e is a name, or a name with one attribute or
// subscript trailer.
func (p *parser) oneTrailer(e int32) bool {
	switch p.nodes[e].kind {
	case kIdentifier:
		return true
	case kAttribute, kSubscript:
		return p.nodes[p.nodes[e].first].kind == kIdentifier
	}
	return false
}

// atFileEnd reports whether node e, just parsed, ends the file's last
// statement: no comma follows it, only NEWLINE, DEDENT and the end of input
// come after it, and no comment starts on a later line.
func (p *parser) atFileEnd(e int32) bool {
	for i := p.p; i < len(p.toks); i++ {
		switch p.toks[i].kind {
		case tNewline, tDedent, tEOF:
		default:
			return false
		}
	}
	end := p.nodes[e].end
	for i := len(p.extras) - 1; i >= 0 && p.extras[i].start >= end; i-- {
		if bytes.IndexByte(p.src[end:p.extras[i].start], '\n') >= 0 {
			return false
		}
	}
	return true
}

// reparseSplat rebuilds the star expression just parsed from token start
// (a list_splat whose operand CPython has accepted) the way tree-sitter
// does in some places: its primary-expression list_splat, "*name", with the
// trailers and operators after the name applied to it (so "*a.b" is
// attribute(list_splat(*a), b)). tree-sitter keeps that reading (one of
// its GLR alternatives) for the only element of a list or set, the first
// element of a bare tuple (expression_list) and subscript elements; it
// keeps the plain list_splat elsewhere. e is returned when the rebuilt
// expression does not end where e did.
//
// The rebuilt tree is made by moving the star down to the name (the first
// leaf of e's operand) rather than by parsing again, which made the time
// exponential in the depth of nested starred subscripts ("[*a[*a[...]]]").
func (p *parser) reparseSplat(start int, e int32) int32 {
	if p.nodes[e].kind != kListSplat || p.toks[start+1].kind != tName || isHardKeyword(p.text(p.toks[start+1])) {
		return e
	}
	if r, ok := p.sinkSplat(e, p.toks[start+1]); ok {
		return r
	}
	end, saveN := p.p, len(p.nodes)
	p.p = start
	p.splatAtom = true
	n, ok := p.attempt(p.expression)
	p.splatAtom = false
	if ok && p.p == end {
		return n
	}
	p.p, p.nodes = end, p.nodes[:saveN]
	return e
}

// sinkSplat rebuilds list_splat e ("*" operand, the operand starting with
// the name token) as reparseSplat's reading: the operand with the name,
// its leftmost leaf, replaced by list_splat("*" name), and the spans on the
// way down widened to the star. ok is false where the rebuilt tree would
// differ from a parse (a "print" name, whose call arguments get their
// shape from the name).
func (p *parser) sinkSplat(e int32, name token) (r int32, ok bool) {
	star := p.nodes[e].first
	x := p.nodes[star].next
	if x < 0 || p.nodes[x].kind == kIdentifier || p.text(name) == "print" {
		return e, x >= 0 && p.nodes[x].kind == kIdentifier
	}
	parent, c := int32(-1), x
	for p.nodes[c].first >= 0 {
		parent, c = c, p.nodes[c].first
	}
	if parent < 0 || p.nodes[c].kind != kIdentifier || p.nodes[c].start != name.start {
		return e, false
	}
	// e takes the name's place as its parent's first child
	ss := p.nodes[star].start
	nd := &p.nodes[e]
	nd.first, nd.last, nd.next, nd.field = star, c, p.nodes[c].next, p.nodes[c].field
	nd.start, nd.end = ss, p.nodes[c].end
	p.nodes[star].next = c
	p.nodes[c].next, p.nodes[c].field = -1, 0
	p.nodes[parent].first = e
	if p.nodes[parent].last == c {
		p.nodes[parent].last = e
	}
	for a := x; a != e; a = p.nodes[a].first {
		p.nodes[a].start = ss
	}
	p.nodes[x].field = 0
	return x, true
}

// startsExpression reports whether the current token can begin an
// expression.
func (p *parser) startsExpression() bool {
	t := p.tok()
	switch t.kind {
	case tName:
		s := p.text(t)
		if isHardKeyword(s) {
			switch s {
			case "not", "lambda", "await", "None", "True", "False", "yield":
				return s != "yield"
			}
			return false
		}
		return true
	case tNumber, tString, tFStart:
		return true
	case tOp:
		switch p.text(t) {
		case "(", "[", "{", "-", "+", "~", "*", "...", "**":
			return true
		}
	}
	return false
}

func (p *parser) starExpression() int32 {
	if p.isOp("*") {
		s := p.newNode(kListSplat)
		p.add(s, p.tokLeaf(), 0)
		p.add(s, p.bitOr(), 0)
		return s
	}
	return p.expression()
}

// namedExpression: NAME ":=" expression | expression.
//
// Tree shape: tree-sitter-python binds ":=" tighter than a conditional
// expression, so `x := a if c else b` (CPython: x := (a if c else b)) is
// conditional_expression(named_expression(x := a), c, b) in its tree. The
// flattened tree follows tree-sitter (the rules walk that shape); validity
// is unaffected.
func (p *parser) namedExpression() int32 {
	if p.tok().kind == tName && p.isOpAt(1, ":=") {
		nm := p.name()
		n := p.newNode(kNamed)
		p.add(n, nm, fName)
		p.add(n, p.tokLeaf(), 0)
		p.enter()
		defer p.leave()
		if p.isKw("lambda") {
			p.add(n, p.lambda(), fValue)
			return n
		}
		p.add(n, p.disjunction(), fValue)
		if p.isKw("if") {
			c := p.newNode(kCond)
			p.add(c, n, 0)
			p.add(c, p.tokLeaf(), 0)
			p.add(c, p.disjunction(), 0)
			if !p.isKw("else") {
				p.failTok("expected 'else' after 'if' expression")
			}
			p.add(c, p.tokLeaf(), 0)
			p.add(c, p.expression(), 0)
			return c
		}
		return n
	}
	e := p.expression()
	if p.isOp(":=") {
		if p.minor < 9 && p.nodes[p.unparen(e)].kind == kIdentifier {
			// 3.8 checks the target after the parse: "(x) := 1" is a name
			n := p.newNode(kNamed)
			p.add(n, e, fName)
			p.add(n, p.tokLeaf(), 0)
			p.add(n, p.expression(), fValue)
			return n
		}
		p.fail(int(p.nodes[e].start), "cannot use assignment expressions with %s", describe(p.nodes[e].kind))
	}
	return e
}

func (p *parser) expression() int32 {
	if p.startsPrimary() {
		// The levels from here to primary would look at this token only
		// to find that it starts none of theirs (lambda, not, a unary
		// operator, await): the primary is read first, and when no
		// operator follows it is the expression (issue 29). Otherwise it
		// is primed: disjunction's levels go down to primary without
		// looking at the token after it, and primary returns it.
		e := p.primary()
		if p.endsExpression() {
			return e
		}
		p.primed = e + 1
	} else if p.isKw("lambda") {
		return p.lambda()
	}
	e := p.disjunction()
	if p.isKw("if") {
		p.chain(1)
		p.enter()
		defer p.leave()
		c := p.newNode(kCond)
		p.add(c, e, 0)
		p.add(c, p.tokLeaf(), 0)
		p.add(c, p.disjunction(), 0)
		if !p.isKw("else") {
			p.failTok("expected 'else' after 'if' expression")
		}
		p.add(c, p.tokLeaf(), 0)
		p.add(c, p.expression(), 0)
		return c
	}
	return e
}

// startsPrimary reports whether the current token starts a primary and
// nothing else: a name that is not a keyword (True, False and None
// aside), a number, a string or f-string, ( [ { or ... (not `*`, which
// atom reads as a splat where splatAtom says so).
func (p *parser) startsPrimary() bool {
	t := &p.toks[p.p]
	switch t.kind {
	case tNumber, tString, tFStart:
		return true
	case tName:
		s := p.text(*t)
		return s == "True" || s == "False" || s == "None" || !isHardKeyword(s)
	case tOp:
		switch p.text(*t) {
		case "(", "[", "{", "...":
			return true
		}
	}
	return false
}

// endsExpression reports whether the current token is one that no
// expression goes on with: `,` `)` `]` `}` `:` `=` `;` or the end of the
// line.
func (p *parser) endsExpression() bool {
	nx := &p.toks[p.p]
	switch nx.kind {
	case tNewline:
		return true
	case tOp:
		if nx.end-nx.start != 1 {
			return false
		}
		switch p.src[nx.start] {
		case ',', ')', ']', '}', ':', '=', ';':
			return true
		}
	}
	return false
}

func (p *parser) lambda() int32 {
	l := p.newNode(kLambda)
	p.enter()
	defer p.leave()
	p.add(l, p.tokLeaf(), 0)
	if !p.isOp(":") {
		lp := p.newNode(kLambdaParams)
		p.parameters(lp, true)
		p.add(l, lp, fParameters)
	}
	p.expectOp(l, ":")
	p.add(l, p.expression(), fBody)
	return l
}

// boolOp parses a chain of "or" (and false) or "and" (and true) over the
// next level (conjunction, inversion), called directly: the chain is
// entered for every expression.
func (p *parser) boolOp(and bool) int32 {
	op := "or"
	if and {
		op = "and"
	}
	e := p.boolOperand(and)
	if p.isKw(op) {
		// one BoolOp for the chain (CPython's AST is flat)
		p.chain(1)
		p.enter()
		defer p.leave()
	}
	for p.isKw(op) {
		b := p.newNode(kBool)
		p.add(b, e, fLeft)
		p.add(b, p.tokLeaf(), fOperator)
		p.add(b, p.boolOperand(and), fRight)
		e = b
	}
	return e
}

func (p *parser) boolOperand(and bool) int32 {
	if and {
		return p.inversion()
	}
	return p.conjunction()
}

func (p *parser) disjunction() int32 { return p.boolOp(false) }

func (p *parser) conjunction() int32 { return p.boolOp(true) }

func (p *parser) inversion() int32 {
	if p.primed == 0 && p.isKw("not") {
		n := p.newNode(kNot)
		p.add(n, p.tokLeaf(), 0)
		p.enter()
		p.add(n, p.inversion(), fArgument)
		p.leave()
		return n
	}
	return p.comparison()
}

// compOp returns the comparison operator at the current token, "" if none.
func (p *parser) compOp() string {
	t := p.tok()
	if t.kind == tOp {
		switch s := p.text(t); s {
		case "<", ">", "==", ">=", "<=", "!=":
			return s
		}
		return ""
	}
	if t.kind == tName {
		switch p.text(t) {
		case "in":
			return "in"
		case "is":
			if p.isKwAt(1, "not") {
				return "is not"
			}
			return "is"
		case "not":
			if p.isKwAt(1, "in") {
				return "not in"
			}
		}
	}
	return ""
}

func (p *parser) comparison() int32 {
	e := p.bitOr()
	op := p.compOp()
	if op == "" {
		return e
	}
	p.chain(1)
	p.enter()
	defer p.leave()
	c := p.newNode(kCompare)
	p.add(c, e, 0)
	for op != "" {
		if op == "not in" || op == "is not" {
			t1 := p.tok()
			o := p.put(kindOfText(op), false, t1.start, t1.start)
			p.add(o, p.tokLeaf(), 0)
			p.add(o, p.tokLeaf(), 0)
			p.add(c, o, fOperators)
		} else {
			p.add(c, p.tokLeaf(), fOperators)
		}
		p.add(c, p.bitOr(), 0)
		op = p.compOp()
	}
	return c
}

// The levels of the left-associative binary operators, loosest first, in
// tree-sitter-python's order: it ranks "^" above "&" (PREC.xor 16,
// bitwise_and 15), where Python ranks "&" above "^": the operands are the
// same for validity, and the tree follows tree-sitter.
const (
	levelOr    = 1 + iota // |
	levelAnd              // &
	levelXor              // ^
	levelShift            // << >>
	levelArith            // + -
	levelTerm             // * / // % @
)

// binLevel returns the level of the binary operator t (0: t is none).
func (p *parser) binLevel(t token) int {
	if t.kind != tOp {
		return 0
	}
	switch t.end - t.start {
	case 1:
		switch p.src[t.start] {
		case '|':
			return levelOr
		case '&':
			return levelAnd
		case '^':
			return levelXor
		case '+', '-':
			return levelArith
		case '*', '/', '%', '@':
			return levelTerm
		}
	case 2:
		c := p.src[t.start]
		if p.src[t.start+1] == c {
			switch c {
			case '<', '>':
				return levelShift
			case '/':
				return levelTerm
			}
		}
	}
	return 0
}

// binFrom parses the operators of levels from through levelTerm over
// factors, each level left-nested: a + b - c is binary(binary(a + b) - c).
// It is the recursive descent bitOr -> bitAnd -> ... -> term -> factor
// unrolled: the descent does nothing before the factor, so that the levels'
// loops run innermost first once it is parsed, each right operand parsed
// from the next level down.
func (p *parser) binFrom(from int) int32 {
	e := p.factor()
	for level := levelTerm; level >= from; level-- {
		for k := 1; p.binLevel(p.tok()) == level; k++ {
			p.chain(k)
			b := p.newNode(kBinary)
			p.add(b, e, fLeft)
			p.add(b, p.tokLeaf(), fOperator)
			p.enter()
			if level == levelTerm {
				p.add(b, p.factor(), fRight)
			} else {
				p.add(b, p.binFrom(level+1), fRight)
			}
			p.leave()
			e = b
		}
	}
	return e
}

func (p *parser) bitOr() int32  { return p.binFrom(levelOr) }
func (p *parser) bitAnd() int32 { return p.binFrom(levelAnd) }
func (p *parser) bitXor() int32 { return p.binFrom(levelXor) }
func (p *parser) shift() int32  { return p.binFrom(levelShift) }
func (p *parser) arith() int32  { return p.binFrom(levelArith) }
func (p *parser) term() int32   { return p.binFrom(levelTerm) }

func (p *parser) factor() int32 {
	if p.primed == 0 && (p.isOp("-") || p.isOp("+") || p.isOp("~")) {
		u := p.newNode(kUnary)
		p.add(u, p.tokLeaf(), fOperator)
		p.enter()
		p.add(u, p.factor(), fArgument)
		p.leave()
		return u
	}
	return p.power()
}

func (p *parser) power() int32 {
	var e int32
	if p.primed == 0 && p.isKw("await") {
		a := p.newNode(kAwait)
		p.add(a, p.tokLeaf(), 0)
		if p.isKw("await") {
			// CPython: await_primary is "await" primary
			p.syntaxError()
		}
		// tree-sitter: await binds looser than "**"
		p.enter()
		p.add(a, p.power(), 0)
		p.leave()
		return a
	}
	e = p.primary()
	if p.isOp("**") {
		p.chain(1)
		b := p.newNode(kBinary)
		p.add(b, e, fLeft)
		p.add(b, p.tokLeaf(), fOperator)
		p.enter()
		p.add(b, p.factor(), fRight)
		p.leave()
		return b
	}
	return e
}

func (p *parser) primary() int32 {
	if e := p.primed - 1; e >= 0 {
		p.primed = 0
		return e
	}
	e := p.atom()
	for k := 1; ; k++ {
		t := p.tok()
		if t.kind != tOp {
			return e
		}
		switch p.text(t) {
		case ".", "(", "[":
			p.chain(k)
		}
		switch p.text(t) {
		case ".":
			a := p.newNode(kAttribute)
			p.add(a, e, fObject)
			p.add(a, p.tokLeaf(), 0)
			p.add(a, p.name(), fAttribute)
			e = a
		case "(":
			c := p.newNode(kCall)
			isPrint := p.nodes[e].kind == kIdentifier && string(p.src[p.nodes[e].start:p.nodes[e].end]) == "print"
			p.add(c, e, fFunction)
			p.enter()
			args := p.callArgs()
			p.leave()
			if isPrint && p.nodes[args].kind == kArgList {
				p.printSplats(args)
			}
			p.add(c, args, fArguments)
			e = c
		case "[":
			s := p.newNode(kSubscript)
			p.add(s, e, fValue)
			p.add(s, p.tokLeaf(), 0)
			p.enter()
			for {
				p.add(s, p.sliceItem(), fSubscript)
				if !p.isOp(",") {
					break
				}
				p.add(s, p.tokLeaf(), 0)
				if p.isOp("]") {
					break
				}
			}
			p.leave()
			p.expectOp(s, "]")
			e = s
		default:
			return e
		}
	}
}

func (p *parser) sliceItem() int32 {
	var lo int32 = -1
	if !p.isOp(":") {
		if p.isOp("*") && p.minor >= 11 {
			start := p.p
			return p.reparseSplat(start, p.starExpression())
		}
		if p.minor < 10 && p.tok().kind == tName && p.isOpAt(1, ":=") {
			// before 3.10 a subscript is an expression, not a named one
			p.fail(int(p.peek(1).start), "invalid syntax")
		}
		lo = p.namedExpression()
		if !p.isOp(":") {
			return lo
		}
		if p.bareWalrus(lo) >= 0 {
			// slice: [expression] ":" ...
			p.syntaxError()
		}
	}
	s := p.newNode(kSlice)
	p.add(s, lo, 0)
	p.add(s, p.tokLeaf(), 0)
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		p.add(s, p.expression(), 0)
	}
	if p.isOp(":") {
		p.add(s, p.tokLeaf(), 0)
		if !p.isOp("]") && !p.isOp(",") {
			p.add(s, p.expression(), 0)
		}
	}
	return s
}

// printSplats gives print(...)'s arguments tree-sitter's shape: its
// print_statement reading of "print(" makes a later "*f.g(...)" argument
// call(list_splat(*, f.g), (...)), the star taking the name and its
// attribute and subscript trailers, the call applied to that.
func (p *parser) printSplats(l int32) {
	prev := int32(-1)
	for c, i := p.nodes[l].first, 0; c >= 0; c = p.nodes[c].next {
		if !p.nodes[c].named {
			prev = c
			continue
		}
		i++
		if i == 1 || p.nodes[c].kind != kListSplat {
			prev = c
			continue
		}
		star := p.nodes[c].first
		call := p.nodes[star].next
		if p.nodes[call].kind != kCall || !p.nameChain(p.nodes[call].first) {
			prev = c
			continue
		}
		callee := p.nodes[call].first
		args := p.nodes[callee].next
		next := p.nodes[c].next
		nl := p.newNode(kListSplat)
		p.add(nl, star, 0)
		p.add(nl, callee, 0)
		nc := p.newNode(kCall)
		p.add(nc, nl, fFunction)
		p.add(nc, args, fArguments)
		// put nc where c was
		p.nodes[nc].next = next
		p.nodes[prev].next = nc
		if p.nodes[l].last == c {
			p.nodes[l].last = nc
		}
		c = nc
		prev = c
	}
}

// nameChain reports whether e is a name with only attribute and subscript
// trailers.
func (p *parser) nameChain(e int32) bool {
	for {
		switch p.nodes[e].kind {
		case kIdentifier:
			return true
		case kAttribute, kSubscript:
			e = p.nodes[e].first
		default:
			return false
		}
	}
}

// callArgs parses "(...)" after a callee: an argument_list, or a
// generator_expression when a lone generator is the only argument.
func (p *parser) callArgs() int32 {
	open := p.tokLeaf()
	first := int32(-1)
	if !p.isOp(")") && !p.isOp("*") && !p.isOp("**") && !(p.tok().kind == tName && p.isOpAt(1, "=")) {
		// the first argument is parsed once: parsing it again as an
		// argument made the time exponential in the depth of calls
		// nested in first arguments ("f(f(f(...)))")
		e := p.namedExpression()
		if p.isKw("for") || p.isKw("async") && p.isKwAt(1, "for") {
			g := p.newNode(kGenExpr)
			p.add(g, open, 0)
			p.add(g, e, fBody)
			p.compClauses(g)
			if !p.isOp(")") {
				p.fail(int(p.nodes[e].start), "Generator expression must be parenthesized")
			}
			p.add(g, p.tokLeaf(), 0)
			return g
		}
		first = e
	}
	return p.argListFrom(open, first)
}

func (p *parser) argList() int32 { return p.argListFrom(p.tokLeaf(), -1) }

// argListFrom parses an argument_list after its "(" (open); first, when
// not -1, is its first argument, a named expression already parsed.
func (p *parser) argListFrom(open, first int32) int32 {
	l := p.newNode(kArgList)
	p.add(l, open, 0)
	sawKw, sawKwSplat := false, false
	for !p.isOp(")") || first >= 0 {
		var a int32
		switch {
		case first >= 0:
			e := first
			first = -1
			if p.isOp("=") {
				p.fail(int(p.nodes[e].start), "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			a = e
		case p.isOp("*"):
			if sawKwSplat {
				p.failTok("iterable argument unpacking follows keyword argument unpacking")
			}
			a = p.newNode(kListSplat)
			p.add(a, p.tokLeaf(), 0)
			p.add(a, p.expression(), 0)
		case p.isOp("**"):
			sawKwSplat = true
			a = p.newNode(kDictSplat)
			p.add(a, p.tokLeaf(), 0)
			p.add(a, p.expression(), 0)
		case p.tok().kind == tName && p.isOpAt(1, "="):
			sawKw = true
			a = p.newNode(kKeywordArg)
			p.add(a, p.name(), fName)
			p.add(a, p.tokLeaf(), 0)
			p.add(a, p.expression(), fValue)
		default:
			e := p.namedExpression()
			if p.isOp("=") {
				p.fail(int(p.nodes[e].start), "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			if p.isKw("for") || p.isKw("async") && p.isKwAt(1, "for") {
				p.fail(int(p.nodes[e].start), "Generator expression must be parenthesized")
			}
			if sawKwSplat {
				p.fail(int(p.nodes[e].start), "positional argument follows keyword argument unpacking")
			}
			if sawKw {
				p.fail(int(p.nodes[e].start), "positional argument follows keyword argument")
			}
			a = e
		}
		p.add(l, a, 0)
		if !p.isOp(",") {
			break
		}
		p.add(l, p.tokLeaf(), 0)
	}
	p.expectOp(l, ")")
	return l
}

// compClauses parses for/if clauses of a comprehension into n.
func (p *parser) compClauses(n int32) {
	for {
		switch {
		case p.isKw("for") || p.isKw("async") && p.isKwAt(1, "for"):
			f := p.newNode(kForIn)
			if p.isKw("async") {
				p.add(f, p.tokLeaf(), 0)
			}
			p.add(f, p.tokLeaf(), 0)
			p.add(f, p.targetList(), fLeft)
			p.expectKw(f, "in")
			p.add(f, p.disjunction(), fRight)
			p.add(n, f, 0)
		case p.isKw("if"):
			c := p.newNode(kIfClause)
			p.add(c, p.tokLeaf(), 0)
			if p.minor < 9 && p.isKw("lambda") {
				// 3.8: comp_if is 'if' test_nocond, which takes a
				// lambdef_nocond (its body a test_nocond: no "if else")
				l := p.newNode(kLambda)
				p.add(l, p.tokLeaf(), 0)
				if !p.isOp(":") {
					lp := p.newNode(kLambdaParams)
					p.parameters(lp, true)
					p.add(l, lp, fParameters)
				}
				p.expectOp(l, ":")
				p.add(l, p.disjunction(), fBody)
				p.add(c, l, 0)
			} else {
				p.add(c, p.disjunction(), 0)
			}
			p.add(n, c, 0)
		default:
			return
		}
	}
}

func (p *parser) yieldExpr() int32 {
	y := p.newNode(kYield)
	p.add(y, p.tokLeaf(), 0)
	if p.isKw("from") {
		p.add(y, p.tokLeaf(), 0)
		p.add(y, p.expression(), 0)
		return y
	}
	if p.startsExpression() {
		p.add(y, p.starExpressions(), 0)
	}
	return y
}

func (p *parser) atom() int32 {
	if p.splatAtom {
		// tree-sitter's primary list_splat: "*name" as an atom that
		// trailers and operators then wrap (see reparseSplat)
		p.splatAtom = false
		if p.isOp("*") && p.peek(1).kind == tName {
			s := p.newNode(kListSplat)
			p.add(s, p.tokLeaf(), 0)
			p.add(s, p.name(), 0)
			return s
		}
	}
	t := p.tok()
	switch t.kind {
	case tName:
		s := p.text(t)
		switch s {
		case "True":
			return p.leaf(kTrue, true)
		case "False":
			return p.leaf(kFalse, true)
		case "None":
			return p.leaf(kNone, true)
		}
		if isHardKeyword(s) {
			p.syntaxError()
		}
		return p.leaf(kIdentifier, true)
	case tNumber:
		if isFloatLit(p.src[t.start:t.end]) {
			return p.leaf(kFloat, true)
		}
		p.checkIntDigits(t)
		return p.leaf(kInteger, true)
	case tString, tFStart:
		return p.strings()
	case tOp:
		switch p.text(t) {
		case "(":
			return p.parenAtom()
		// no defer for leave: atom's many returns keep the compiler from
		// open-coding a defer, and the runtime's deferreturn cost 0.6% of
		// site-packages' CPU; after a syntax error attempt restores the
		// depth, or the parse is over
		case "[":
			p.enter()
			n := p.listAtom()
			p.leave()
			return n
		case "{":
			p.enter()
			n := p.braceAtom()
			p.leave()
			return n
		case "...":
			return p.leaf(kEllipsis, true)
		}
	}
	p.syntaxError()
	return -1
}

// maxStrDigits is CPython's default limit on the digits of a decimal
// integer literal (sys.int_info.default_max_str_digits, the
// CVE-2020-10735 fix of 3.8.14, 3.9.14, 3.10.7 and 3.11).
const maxStrDigits = 4300

// checkIntDigits fails the parse, as CPython's int() conversion of the
// literal does, when the NUMBER token t is a decimal integer of more than
// maxStrDigits digits (underscores not counted; binary, octal and
// hexadecimal literals, floats and imaginary numbers have no limit). The
// position is CPython's: the token's column (1-based) in 3.8, column 1 in
// 3.9 and 0 from 3.10; inside an f-string 3.9-3.11 prefix "f-string: " and
// report columns -1 (3.9) and -2.
func (p *parser) checkIntDigits(t token) {
	b := p.src[t.start:t.end]
	if len(b) <= maxStrDigits || len(b) > 1 && b[0] == '0' {
		return // short, or 0, 0x.., 0o.., 0b.., or only zeros
	}
	n := 0
	for _, c := range b {
		switch {
		case isDigit(c):
			n++
		case c != '_':
			return // float or imaginary
		}
	}
	if n <= maxStrDigits {
		return
	}
	limit := "(4300 digits)"
	if p.minor < 11 {
		limit = "(4300)"
	}
	msg := fmt.Sprintf("Exceeds the limit %s for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.", limit, n)
	e := mkErr(p.src, int(t.start), msg)
	switch {
	case p.minor >= 12 || p.minor >= 10 && p.fstr == 0:
		e.Col = 0
	case p.minor == 9 && p.fstr == 0:
		e.Col = 1
	case p.minor == 9:
		e.Col = -1
	case p.minor >= 10:
		e.Col = -2
	}
	if p.minor >= 9 && p.minor < 12 && p.fstr > 0 {
		e.Msg = "f-string: " + e.Msg
	}
	panic(fatalErr{e})
}

// isFloatLit tells tree-sitter's float from its integer: a "." or an
// exponent outside a hex literal ("1j" is an integer).
func isFloatLit(b []byte) bool {
	if len(b) > 1 && b[0] == '0' && (b[1]|0x20 == 'x' || b[1]|0x20 == 'o' || b[1]|0x20 == 'b') {
		return false
	}
	for _, c := range b {
		if c == '.' || c|0x20 == 'e' {
			return true
		}
	}
	return false
}

// elements parses the rest of a collection after its first element into
// n, up to the closing bracket.
func (p *parser) elements(n int32, close string) {
	for p.isOp(",") {
		p.add(n, p.tokLeaf(), 0)
		if p.isOp(close) {
			break
		}
		p.add(n, p.collElem(), 0)
	}
	p.expectOp(n, close)
}

func (p *parser) collElem() int32 {
	if p.isOp("*") {
		return p.starExpression()
	}
	return p.namedExpression()
}

func (p *parser) isCompFor() bool {
	return p.isKw("for") || p.isKw("async") && p.isKwAt(1, "for")
}

func (p *parser) noStarComp(first int32) {
	if p.nodes[first].kind == kListSplat {
		p.fail(int(p.nodes[first].start), "iterable unpacking cannot be used in comprehension")
	}
}

func (p *parser) parenAtom() int32 {
	open := p.tokLeaf()
	if p.isOp(")") {
		t := p.newNode(kTuple)
		p.add(t, open, 0)
		p.add(t, p.tokLeaf(), 0)
		return t
	}
	if p.isKw("yield") {
		n := p.newNode(kParen)
		p.add(n, open, 0)
		p.add(n, p.yieldExpr(), 0)
		p.expectOp(n, ")")
		return n
	}
	first := p.collElem()
	if p.isCompFor() {
		if p.nodes[first].kind == kListSplat {
			p.fail(int(p.nodes[first].start), "iterable unpacking cannot be used in comprehension")
		}
		g := p.newNode(kGenExpr)
		p.add(g, open, 0)
		p.add(g, first, fBody)
		p.compClauses(g)
		p.expectOp(g, ")")
		return g
	}
	if p.isOp(",") {
		t := p.newNode(kTuple)
		p.add(t, open, 0)
		p.add(t, first, 0)
		p.elements(t, ")")
		return t
	}
	if p.nodes[first].kind == kListSplat && p.minor >= 9 {
		// 3.8's parser accepts "(*a)": its compiler rejects it
		p.fail(int(p.nodes[first].start), "cannot use starred expression here")
	}
	n := p.newNode(kParen)
	p.add(n, open, 0)
	p.add(n, first, 0)
	p.expectOp(n, ")")
	return n
}

func (p *parser) listAtom() int32 {
	open := p.tokLeaf()
	if p.isOp("]") {
		l := p.newNode(kList)
		p.add(l, open, 0)
		p.add(l, p.tokLeaf(), 0)
		return l
	}
	start := p.p
	first := p.collElem()
	if p.isOp("]") {
		first = p.reparseSplat(start, first)
	}
	if p.isCompFor() {
		p.noStarComp(first)
		c := p.newNode(kListComp)
		p.add(c, open, 0)
		p.add(c, first, fBody)
		p.compClauses(c)
		p.expectOp(c, "]")
		return c
	}
	l := p.newNode(kList)
	p.add(l, open, 0)
	p.add(l, first, 0)
	p.elements(l, "]")
	return l
}

func (p *parser) braceAtom() int32 {
	open := p.tokLeaf()
	if p.isOp("}") {
		d := p.newNode(kDict)
		p.add(d, open, 0)
		p.add(d, p.tokLeaf(), 0)
		return d
	}
	if p.isOp("**") {
		d := p.newNode(kDict)
		p.add(d, open, 0)
		p.dictRest(d)
		return d
	}
	start := p.p
	first := p.collElem()
	if p.isOp("}") {
		first = p.reparseSplat(start, first)
	}
	p.setWalrus38(first)
	if p.isOp(":") && (p.bareWalrus(first) >= 0 || p.nodes[first].kind == kListSplat) {
		// a dictionary key is an expression, not a named one
		p.syntaxError()
	}
	if p.isOp(":") {
		pair := p.newNode(kPair)
		p.add(pair, first, fKey)
		p.add(pair, p.tokLeaf(), 0)
		p.add(pair, p.expression(), fValue)
		if p.isCompFor() {
			c := p.newNode(kDictComp)
			p.add(c, open, 0)
			p.add(c, pair, fBody)
			p.compClauses(c)
			p.expectOp(c, "}")
			return c
		}
		d := p.newNode(kDict)
		p.add(d, open, 0)
		p.add(d, pair, 0)
		if p.isOp(",") {
			p.add(d, p.tokLeaf(), 0)
		}
		p.dictRest(d)
		return d
	}
	if p.isCompFor() {
		p.noStarComp(first)
		c := p.newNode(kSetComp)
		p.add(c, open, 0)
		p.add(c, first, fBody)
		p.compClauses(c)
		p.expectOp(c, "}")
		return c
	}
	s := p.newNode(kSet)
	p.add(s, open, 0)
	p.add(s, first, 0)
	p.elements(s, "}")
	for c := p.nodes[s].first; c >= 0; c = p.nodes[c].next {
		p.setWalrus38(c)
	}
	return s
}

// bareWalrus returns the ":=" operator node of e when e is an
// unparenthesized assignment expression (named_expression, or the
// conditional_expression tree-sitter wraps around one), else -1.
func (p *parser) bareWalrus(e int32) int32 {
	if e < 0 {
		return -1
	}
	if p.nodes[e].kind == kCond {
		e = p.nodes[e].first
	}
	if p.nodes[e].kind != kNamed {
		return -1
	}
	return p.nodes[p.nodes[e].first].next
}

// setWalrus38 rejects an unparenthesized assignment expression as a set
// element before 3.9 (3.8's dictorsetmaker takes test, not
// namedexpr_test), at its ":=" as CPython 3.8 does.
func (p *parser) setWalrus38(e int32) {
	if p.minor < 9 {
		if op := p.bareWalrus(e); op >= 0 {
			p.fail(int(p.nodes[op].start), "invalid syntax")
		}
	}
}

// dictRest parses dictionary items up to "}" (after any first item and
// its comma).
func (p *parser) dictRest(d int32) {
	for !p.isOp("}") {
		if p.isOp("**") {
			s := p.newNode(kDictSplat)
			p.add(s, p.tokLeaf(), 0)
			p.add(s, p.bitOr(), 0)
			p.add(d, s, 0)
		} else {
			pair := p.newNode(kPair)
			p.add(pair, p.expression(), fKey)
			if !p.isOp(":") {
				p.failTok("':' expected after dictionary key")
			}
			p.add(pair, p.tokLeaf(), 0)
			p.add(pair, p.expression(), fValue)
			p.add(d, pair, 0)
		}
		if !p.isOp(",") {
			break
		}
		p.add(d, p.tokLeaf(), 0)
	}
	p.expectOp(d, "}")
}
