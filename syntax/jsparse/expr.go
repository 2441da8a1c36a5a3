package jsparse

// expressions parses an expression or a sequence_expression (a flat
// list: a, b, c).
func (p *parser) expressions() int32 {
	e := p.assign()
	if !p.is(",") || p.endsHere() {
		return e
	}
	n := p.wrap(kSeq, e, 0)
	for p.is(",") {
		p.add(n, p.anon(), 0)
		p.add(n, p.assign(), 0)
	}
	return n
}

func isAssignOp(s string) bool {
	switch s {
	case "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", ">>=", ">>>=", "<<=", "**=", "&&=", "||=", "??=":
		return true
	}
	return false
}

// assign parses an expression without commas: yield, assignment,
// ternary and below.
func (p *parser) assign() int32 {
	p.enter()
	defer func() { p.depth-- }()
	if p.is("yield") {
		n := p.mk(kYield)
		p.add(n, p.anon(), 0)
		if p.is("*") {
			p.add(n, p.anon(), 0)
			p.add(n, p.assign(), 0)
			return n
		}
		if p.tok.nl {
			p.unsupported(p.tok.start, "yield before a line break")
		}
		if p.startsExpr() {
			p.add(n, p.assign(), 0)
		}
		return n
	}
	if p.is("[") || p.is("{") {
		// a destructuring assignment: [a, b] = c
		if n := p.try(tryPattern, func() int32 {
			l := p.bindingTarget()
			if !p.is("=") {
				p.fail(p.tok.start, "not an assignment")
			}
			return l
		}); n >= 0 {
			a := p.wrap(kAssign, n, fLeft)
			p.add(a, p.anon(), 0)
			p.add(a, p.assign(), fRight)
			return a
		}
	}
	c := p.ternary()
	if p.tok.t != tPunct || p.endsHere() {
		return c
	}
	if p.tok.v == "=" {
		switch p.nodes[c].kind {
		case kIdent, kUndefined, kMember, kSubscript, kParen:
		default:
			p.fail(p.tok.start, "bad assignment target")
		}
		a := p.wrap(kAssign, c, fLeft)
		p.add(a, p.anon(), 0)
		p.add(a, p.assign(), fRight)
		return a
	}
	if isAssignOp(p.tok.v) {
		switch p.nodes[c].kind {
		case kIdent, kMember, kSubscript, kParen:
		default:
			p.fail(p.tok.start, "bad assignment target")
		}
		a := p.wrap(kAugAssign, c, fLeft)
		p.add(a, p.anon(), fOperator)
		p.add(a, p.assign(), fRight)
		return a
	}
	return c
}

// endsHere reports whether tree-sitter's scanner inserts an automatic
// semicolon before the current token, which follows a line break: the
// scanner runs before the lexer wherever a statement may end, and so ends
// the expression even where the next token could continue it (the scanner
// and the lexer may also disagree on where a comment ends). Where no
// statement may end, the parse then fails and the file is declined.
func (p *parser) endsHere() bool {
	if !p.tok.nl {
		return false
	}
	_, ok := p.asi(false)
	return ok
}

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	switch p.tok.t {
	case tEOF:
		return false
	case tPunct:
		switch p.tok.v {
		case ")", "]", "}", ",", ";", ":", "=>", "?", "?.", "=", "==", "===", "!=", "!==", "*", "**", "%",
			"<<", ">>", ">>>", "&", "|", "^", "&&", "||", "??", "<=", ">=", ">", ".":
			return false
		}
		return true
	case tName:
		switch p.tok.v {
		case "in", "instanceof", "of":
			return false
		}
	}
	return true
}

func (p *parser) ternary() int32 {
	c := p.binary(0)
	if !p.is("?") || p.endsHere() {
		return c
	}
	n := p.wrap(kTernary, c, fCondition)
	p.add(n, p.anon(), 0)
	p.add(n, p.assign(), fConsequence)
	p.expect(n, ":", 0)
	p.add(n, p.assign(), fAlternative)
	return n
}

// binPrec is the precedence of a binary operator (0: not one); ** is
// right-associative.
func binPrec(t token) int {
	if t.t == tName {
		if t.v == "in" || t.v == "instanceof" {
			return 8
		}
		return 0
	}
	if t.t != tPunct {
		return 0
	}
	switch t.v {
	case "??":
		return 1
	case "||":
		return 2
	case "&&":
		return 3
	case "|":
		return 4
	case "^":
		return 5
	case "&":
		return 6
	case "==", "!=", "===", "!==":
		return 7
	case "<", ">", "<=", ">=":
		return 8
	case "<<", ">>", ">>>":
		return 9
	case "+", "-":
		return 10
	case "*", "/", "%":
		return 11
	case "**":
		return 12
	}
	return 0
}

func (p *parser) binary(min int) int32 {
	left := p.unary()
	for {
		pr := binPrec(p.tok)
		if pr == 0 || pr < min || p.endsHere() {
			return left
		}
		n := p.wrap(kBinary, left, fLeft)
		p.add(n, p.anon(), fOperator)
		next := pr + 1
		if pr == 12 {
			next = pr
		}
		p.add(n, p.binary(next), fRight)
		left = n
	}
}

func (p *parser) unary() int32 {
	p.enter()
	defer func() { p.depth-- }()
	t := p.tok
	switch {
	case t.t == tPunct && (t.v == "!" || t.v == "~" || t.v == "-" || t.v == "+") ||
		t.t == tName && (t.v == "typeof" || t.v == "void" || t.v == "delete"):
		n := p.mk(kUnary)
		p.add(n, p.anon(), fOperator)
		p.add(n, p.unary(), fArg)
		return n
	case t.t == tPunct && (t.v == "++" || t.v == "--"):
		return p.postfix(p.prefixUpdate())
	case t.t == tName && t.v == "await":
		n := p.mk(kAwait)
		p.add(n, p.anon(), 0)
		p.add(n, p.unary(), 0)
		return n
	}
	return p.postfix(p.lhs())
}

// prefixUpdate parses a prefix ++ or -- without a postfix operator:
// update_expression is left-associative, so --a++ and ----a++ apply the
// postfix operator to the whole prefix chain.
func (p *parser) prefixUpdate() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kUpdate)
	p.add(n, p.anon(), fOperator)
	switch t := p.tok; {
	case t.t == tPunct && (t.v == "++" || t.v == "--"):
		p.add(n, p.prefixUpdate(), fArg)
	case t.t == tPunct && (t.v == "!" || t.v == "~" || t.v == "-" || t.v == "+") ||
		t.t == tName && (t.v == "typeof" || t.v == "void" || t.v == "delete" || t.v == "await"):
		p.add(n, p.unary(), fArg)
	default:
		p.add(n, p.lhs(), fArg)
	}
	return n
}

// postfix applies postfix ++ and -- operators to e (a++-- is (a++)--).
func (p *parser) postfix(e int32) int32 {
	for p.is("++") || p.is("--") {
		if p.tok.nl {
			// tree-sitter inserts a semicolon where one may end the
			// statement, else reads a postfix operator
			if _, ok := p.asi(false); !ok {
				p.unsupported(p.tok.start, "++ after a line break")
			}
			return e
		}
		n := p.wrap(kUpdate, e, fArg)
		p.add(n, p.anon(), fOperator)
		e = n
	}
	return e
}

// lhs parses new, call and member expressions over a primary.
func (p *parser) lhs() int32 {
	var e int32
	if p.is("new") {
		e = p.newExpr()
	} else {
		e = p.primary()
	}
	return p.chain(e, true)
}

// chain applies member, subscript, call and template suffixes to e.
func (p *parser) chain(e int32, calls bool) int32 {
	for {
		if p.endsHere() {
			return e
		}
		switch {
		case p.is("."):
			n := p.wrap(kMember, e, fObject)
			p.add(n, p.anon(), 0)
			p.add(n, p.memberName(), fProperty)
			e = n
		case p.is("?."):
			if !calls {
				p.unsupported(p.tok.start, "?. in new")
			}
			oc := p.tokLeaf(kOptChain, true)
			switch {
			case p.is("("):
				n := p.wrap(kCall, e, fFunction)
				p.add(n, oc, fOptChain)
				p.add(n, p.arguments(), fArguments)
				e = n
			case p.is("["):
				n := p.wrap(kSubscript, e, fObject)
				p.add(n, oc, fOptChain)
				p.add(n, p.anon(), 0)
				p.add(n, p.expressions(), fIndex)
				p.expect(n, "]", 0)
				e = n
			default:
				n := p.wrap(kMember, e, fObject)
				p.add(n, oc, fOptChain)
				p.add(n, p.memberName(), fProperty)
				e = n
			}
		case p.is("["):
			n := p.wrap(kSubscript, e, fObject)
			p.add(n, p.anon(), 0)
			p.add(n, p.expressions(), fIndex)
			p.expect(n, "]", 0)
			e = n
		case p.is("(") && calls:
			n := p.wrap(kCall, e, fFunction)
			p.add(n, p.arguments(), fArguments)
			e = n
		case p.tok.t == tTmpl:
			if !calls {
				p.unsupported(p.tok.start, "tagged template in new")
			}
			n := p.wrap(kCall, e, fFunction)
			p.add(n, p.template(), fArguments)
			e = n
		default:
			return e
		}
	}
}

func (p *parser) memberName() int32 {
	switch p.tok.t {
	case tName:
		return p.tokLeaf(kPropIdent, true)
	case tPriv:
		return p.tokLeaf(kPrivProp, true)
	}
	p.fail(p.tok.start, "expected property name")
	return -1
}

func (p *parser) newExpr() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kNew)
	p.add(n, p.anon(), 0)
	if p.is(".") {
		p.nodes[n].kind = kMeta
		p.add(n, p.anon(), 0)
		if !p.is("target") {
			p.fail(p.tok.start, "expected target")
		}
		p.add(n, p.anon(), 0)
		return n
	}
	var c int32
	if p.is("new") {
		c = p.newExpr()
	} else {
		c = p.chain(p.primary(), false)
	}
	p.add(n, c, fConstructor)
	if p.is("(") {
		p.add(n, p.arguments(), fArguments)
	}
	return n
}

func (p *parser) arguments() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kArgs)
	p.expect(n, "(", 0)
	p.commaList(n, ")", false, func() {
		if p.is(",") {
			p.fail(p.tok.start, "hole in arguments")
		}
		p.add(n, p.spreadOrAssign(), 0)
	})
	return n
}

func (p *parser) spreadOrAssign() int32 {
	if p.is("...") {
		n := p.mk(kSpread)
		p.add(n, p.anon(), 0)
		p.add(n, p.assign(), 0)
		return n
	}
	return p.assign()
}

// primary parses a primary expression (arrow functions included, as in
// tree-sitter-javascript).
func (p *parser) primary() int32 {
	p.enter()
	defer func() { p.depth-- }()
	t := p.tok
	switch t.t {
	case tNum:
		return p.tokLeaf(kNumber, true)
	case tStr:
		return p.stringLit()
	case tTmpl:
		return p.template()
	case tPriv:
		p.unsupported(t.start, "private name in expression")
	case tEOF:
		p.fail(t.start, "unexpected end of input")
	case tPunct:
		switch t.v {
		case "(":
			if p.maybeArrow() {
				if a := p.try(tryArrow, p.arrowParams); a >= 0 {
					return p.arrowBody(a)
				}
			}
			return p.parenExpr()
		case "[":
			return p.array()
		case "{":
			return p.object()
		case "/", "/=":
			return p.regex()
		case "<":
			p.unsupported(t.start, "JSX")
		case "@":
			p.unsupported(t.start, "decorator")
		}
		p.fail(t.start, "unexpected "+t.v)
	}
	// a word
	switch t.v {
	case "this":
		return p.tokLeaf(kThis, true)
	case "super":
		return p.tokLeaf(kSuper, true)
	case "true":
		return p.tokLeaf(kTrue, true)
	case "false":
		return p.tokLeaf(kFalse, true)
	case "null":
		return p.tokLeaf(kNull, true)
	case "undefined":
		return p.arrowOr(p.tokLeaf(kUndefined, true))
	case "function":
		return p.function(false)
	case "class":
		return p.class(false)
	case "import":
		s := p.save()
		p.next()
		if p.is(".") {
			p.restore(s)
			n := p.mk(kMeta)
			p.add(n, p.anon(), 0)
			p.add(n, p.anon(), 0)
			if !p.is("meta") {
				p.fail(p.tok.start, "expected meta")
			}
			p.add(n, p.anon(), 0)
			return n
		}
		p.restore(s)
		im := p.mk(kImport)
		p.add(im, p.anon(), 0)
		if !p.is("(") {
			p.fail(p.tok.start, "expected (")
		}
		return im
	case "async":
		s := p.save()
		p.next()
		if p.tok.nl {
			p.restore(s)
			break
		}
		if p.is("function") {
			p.restore(s)
			return p.function(false)
		}
		if p.tok.t == tName && !isKeyword(p.tok.v) {
			// async x => ...
			p.restore(s)
			n := p.mk(kArrow)
			p.add(n, p.anon(), 0)
			p.add(n, p.tokLeaf(kIdent, true), fParameter)
			if !p.is("=>") {
				p.fail(p.tok.start, "expected =>")
			}
			return p.arrowBody(n)
		}
		if p.is("(") {
			p.restore(s)
			if a := p.try(tryArrow, p.arrowParams); a >= 0 {
				return p.arrowBody(a)
			}
		}
		p.restore(s)
	}
	if isKeyword(t.v) {
		p.fail(t.start, "unexpected "+t.v)
	}
	return p.arrowOr(p.tokLeaf(kIdent, true))
}

// arrowOr makes identifier id an arrow function's parameter when "=>"
// follows.
func (p *parser) arrowOr(id int32) int32 {
	if !p.is("=>") {
		return id
	}
	n := p.wrap(kArrow, id, fParameter)
	return p.arrowBody(n)
}

// maybeArrow reports whether the "(" at the current token may start arrow
// function parameters, by the tokens after it: ")", "...", "[", "{", or a
// name followed by ",", ")" or "=". It saves trying (and failing) to read
// every parenthesized expression as parameters.
func (p *parser) maybeArrow() bool {
	s := p.save()
	defer p.restore(s)
	p.next()
	if p.is(")") || p.is("...") || p.is("[") || p.is("{") {
		return true
	}
	if p.tok.t != tName {
		return false
	}
	p.next()
	return p.is(",") || p.is(")") || p.is("=")
}

// arrowParams parses [async] (params) up to "=>", failing when no "=>"
// follows; arrowBody parses the rest.
func (p *parser) arrowParams() int32 {
	n := p.mk(kArrow)
	if p.is("async") {
		p.add(n, p.anon(), 0)
	}
	p.add(n, p.formalParams(), fParameters)
	if !p.is("=>") {
		p.fail(p.tok.start, "expected =>")
	}
	return n
}

func (p *parser) arrowBody(n int32) int32 {
	p.add(n, p.anon(), 0)
	if p.is("{") {
		p.add(n, p.block(asiCondFalse), fBody)
		if p.is("(") || p.is("[") || p.is(".") || p.is("?.") || p.tok.t == tTmpl {
			p.unsupported(p.tok.start, "suffix after an arrow function's block")
		}
		return n
	}
	p.add(n, p.assign(), fBody)
	return n
}

func (p *parser) array() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kArray)
	p.add(n, p.anon(), 0)
	p.commaList(n, "]", true, func() { p.add(n, p.spreadOrAssign(), 0) })
	return n
}

func (p *parser) object() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kObject)
	p.expect(n, "{", 0)
	p.commaList(n, "}", true, func() {
		switch {
		case p.is("..."):
			p.add(n, p.spreadOrAssign(), 0)
		case p.is("*"):
			p.member(n, false)
		case p.tok.t == tName && !isKeyword(p.tok.v) && p.shorthandNext():
			p.add(n, p.tokLeaf(kShorthand, true), 0)
		default:
			s := p.save()
			key := p.propertyName()
			if p.is(":") {
				pr := p.wrap(kPair, key, fKey)
				p.add(pr, p.anon(), 0)
				p.add(pr, p.assign(), fValue)
				p.add(n, pr, 0)
			} else {
				p.restore(s)
				p.member(n, false)
			}
		}
	})
	return n
}

// shorthandNext reports whether "," or "}" follows the current token.
func (p *parser) shorthandNext() bool {
	s := p.save()
	p.next()
	ok := p.is(",") || p.is("}")
	p.restore(s)
	return ok
}

// --- patterns

// patternElem parses a pattern or assignment_pattern (param: a formal
// parameter).
func (p *parser) patternElem(param bool) int32 {
	var e int32
	switch {
	case p.is("["):
		e = p.arrayPattern()
	case p.is("{"):
		e = p.objectPattern()
	case p.is("..."):
		n := p.mk(kRest)
		p.add(n, p.anon(), 0)
		switch {
		case p.is("["):
			p.add(n, p.arrayPattern(), 0)
		case p.is("{"):
			p.add(n, p.objectPattern(), 0)
		default:
			p.add(n, p.lhsTarget(), 0)
		}
		return n
	default:
		e = p.lhsTarget()
	}
	if p.is("=") {
		a := p.wrap(kAssignPat, e, fLeft)
		p.add(a, p.anon(), 0)
		p.add(a, p.assign(), fRight)
		return a
	}
	return e
}

// lhsTarget is an identifier, member or subscript expression.
func (p *parser) lhsTarget() int32 {
	if p.tok.t == tName && !isKeyword(p.tok.v) {
		s := p.save()
		p.next()
		simple := !p.is(".") && !p.is("[") && !p.is("(") && !p.is("?.") && p.tok.t != tTmpl
		p.restore(s)
		if simple {
			return p.tokLeaf(kIdent, true)
		}
	}
	e := p.lhs()
	switch p.nodes[e].kind {
	case kIdent, kUndefined, kMember, kSubscript:
		return e
	}
	p.fail(p.tok.start, "bad pattern")
	return -1
}

func (p *parser) arrayPattern() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kArrayPat)
	p.add(n, p.anon(), 0)
	p.commaList(n, "]", true, func() { p.add(n, p.patternElem(false), 0) })
	return n
}

func (p *parser) objectPattern() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kObjPat)
	p.add(n, p.anon(), 0)
	p.commaList(n, "}", true, func() {
		switch {
		case p.is("..."):
			r := p.mk(kRest)
			p.add(r, p.anon(), 0)
			p.add(r, p.lhsTarget(), 0)
			p.add(n, r, 0)
		default:
			s := p.save()
			isName := p.tok.t == tName && !isKeyword(p.tok.v)
			key := p.propertyName()
			switch {
			case p.is(":"):
				pr := p.wrap(kPairPat, key, fKey)
				p.add(pr, p.anon(), 0)
				p.add(pr, p.patternElem(false), fValue)
				p.add(n, pr, 0)
			case isName && p.is("="):
				p.nodes[key].kind = kShorthandPat
				a := p.wrap(kObjAssignPat, key, fLeft)
				p.add(a, p.anon(), 0)
				p.add(a, p.assign(), fRight)
				p.add(n, a, 0)
			case isName && (p.is(",") || p.is("}")):
				p.nodes[key].kind = kShorthandPat
				p.add(n, key, 0)
			default:
				p.restore(s)
				p.fail(p.tok.start, "bad object pattern")
			}
		}
	})
	return n
}

// --- literals

// stringLit builds a string node from the current string token.
func (p *parser) stringLit() int32 {
	t := p.tok
	n := p.mk(kString)
	q := p.src[t.start]
	p.add(n, p.leaf(kindOf(string(q)), false, t.start, t.start+1), 0)
	i := t.start + 1
	end := t.end - 1
	for i < end {
		if p.src[i] == '\\' {
			l := p.escapeLen(i)
			p.add(n, p.leaf(kEscape, true, i, i+l), 0)
			i += l
			continue
		}
		j := i
		for j < end && p.src[j] != '\\' {
			j++
		}
		p.add(n, p.leaf(kFragment, true, i, j), 0)
		i = j
	}
	p.add(n, p.leaf(kindOf(string(q)), false, end, t.end), 0)
	p.next()
	return n
}

// template builds a template_string from the backtick at the current token.
func (p *parser) template() int32 {
	p.enter()
	defer func() { p.depth-- }()
	n := p.mk(kTemplate)
	p.add(n, p.leaf(p.anonKind("`"), false, p.tok.start, p.tok.end), 0)
	i := p.tok.end
	src := p.src
	for {
		j := i
		for int(j) < len(src) && src[j] != '`' && src[j] != '\\' && !(src[j] == '$' && p.at(j+1) == '{') {
			j++
		}
		if j > i {
			p.add(n, p.leaf(kFragment, true, i, j), 0)
		}
		i = j
		if int(i) >= len(src) {
			p.fail(i, "unterminated template")
		}
		switch src[i] {
		case '`':
			p.add(n, p.leaf(p.anonKind("`"), false, i, i+1), 0)
			p.tok = token{t: tPunct, start: i, end: i + 1, v: "`"}
			p.next()
			return n
		case '\\':
			l := p.escapeLen(i)
			p.add(n, p.leaf(kEscape, true, i, i+l), 0)
			i += l
		default:
			s := p.mk(kSubst)
			p.add(s, p.leaf(p.anonKind("${"), false, i, i+2), 0)
			p.tok = token{t: tPunct, start: i, end: i + 2, v: "${"}
			p.next()
			p.add(s, p.expressions(), 0)
			if !p.is("}") {
				p.fail(p.tok.start, "expected }")
			}
			p.add(s, p.leaf(p.anonKind("}"), false, p.tok.start, p.tok.end), 0)
			p.add(n, s, 0)
			i = p.tok.end
		}
	}
}

// regex re-reads the "/" or "/=" token as a regular expression literal.
func (p *parser) regex() int32 {
	s := p.tok.start
	n := p.mk(kRegex)
	p.add(n, p.leaf(p.anonKind("/"), false, s, s+1), 0)
	i := s + 1
	if isSpace(p.at(i)) {
		// tree-sitter's lexer may skip the white space at the start of a
		// pattern as a separator and read a comment after it (the longer
		// token)
		j := i
		for isSpace(p.at(j)) {
			j++
		}
		if p.at(j) == '/' && (p.at(j+1) == '/' || p.at(j+1) == '*') {
			p.unsupported(s, "regex starting with white space and /")
		}
	}
	inClass := false
	for {
		c := p.at(i)
		if int(i) >= len(p.src) || c == '\n' {
			p.fail(s, "unterminated regex")
		}
		if c == '\\' {
			if p.at(i+1) == '\n' || int(i+1) >= len(p.src) {
				p.fail(i, "bad regex escape")
			}
			i += 2
			if p.at(i-1) >= 0x80 {
				for p.at(i)&0xC0 == 0x80 {
					i++
				}
			}
			continue
		}
		if inClass {
			if c == ']' {
				inClass = false
			}
		} else if c == '[' {
			inClass = true
		} else if c == '/' {
			break
		}
		i++
	}
	if i == s+1 {
		p.fail(s, "empty regex")
	}
	p.add(n, p.leaf(kRegexPat, true, s+1, i), fPattern)
	p.add(n, p.leaf(p.anonKind("/"), false, i, i+1), 0)
	e := i + 1
	for c := p.at(e); c >= 'a' && c <= 'z'; c = p.at(e) {
		e++
	}
	if e > i+1 {
		p.add(n, p.leaf(kRegexFlags, true, i+1, e), fFlags)
	}
	p.tok = token{t: tPunct, start: s, end: e, v: "/"}
	p.next()
	return n
}
