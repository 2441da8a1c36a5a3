package pyparse

// match statements (3.10+): CPython's pattern grammar, tree-sitter's
// case_pattern shapes.

func (p *parser) matchStmt() int32 {
	n := p.newNode(kindOfText("match_statement"))
	p.add(n, p.leaf(kindOfText("match"), false), 0)
	for first := true; ; first = false {
		s := p.starNamedOrExpr()
		if first && p.nodes[s].kind == kListSplat && !p.isOp(",") {
			// subject_expr: a starred subject needs a comma
			p.syntaxError()
		}
		p.add(n, s, fSubject)
		if !p.isOp(",") {
			break
		}
		p.add(n, p.tokLeaf(), 0)
		if p.isOp(":") {
			break
		}
	}
	p.expectOp(n, ":")
	b := p.newNode(kBlock)
	if p.tok().kind != tNewline {
		p.syntaxError()
	}
	p.p++
	if p.tok().kind != tIndent {
		p.fail(p.atPos(), "expected an indented block after 'match' statement")
	}
	// tree-sitter's match block holds its INDENT: it starts there
	p.nodes[b].start = p.tok().start
	p.nodes[b].end = p.tok().start
	p.p++
	for p.tok().kind != tDedent && p.tok().kind != tEOF {
		if !p.isKw("case") {
			p.syntaxError()
		}
		p.add(b, p.caseClause(), fAlternative)
	}
	t := p.tok()
	p.p++
	if t.end > p.nodes[b].end {
		p.nodes[b].end = t.end
	}
	p.add(n, b, fBody)
	return n
}

func (p *parser) starNamedOrExpr() int32 {
	if p.isOp("*") {
		return p.starExpression()
	}
	return p.namedExpression()
}

func (p *parser) caseClause() int32 {
	c := p.newNode(kindOfText("case_clause"))
	p.add(c, p.leaf(kindOfText("case"), false), 0)
	for {
		p.add(c, p.casePattern(true), 0)
		if !p.isOp(",") {
			break
		}
		p.add(c, p.tokLeaf(), 0)
		if p.isOp(":") || p.isKw("if") {
			break
		}
	}
	if p.isKw("if") {
		g := p.newNode(kIfClause)
		p.add(g, p.tokLeaf(), 0)
		p.add(g, p.namedExpression(), 0)
		p.add(c, g, fGuard)
	}
	p.suite(c, fConsequence)
	return c
}

// casePattern parses pattern ["as" NAME] (or a star pattern when allowed).
func (p *parser) casePattern(allowStar bool) int32 {
	n := p.newNode(kindOfText("case_pattern"))
	if p.isOp("*") {
		if !allowStar {
			p.syntaxError()
		}
		p.add(n, p.splatPattern("*"), 0)
		return n
	}
	p.orPattern(n)
	for p.isKw("as") {
		as := p.newNode(kAsPattern)
		p.add(as, n, 0)
		p.add(as, p.tokLeaf(), 0)
		nm := p.tok()
		if nm.kind != tName || p.text(nm) == "_" {
			p.failTok("invalid pattern target")
		}
		p.add(as, p.name(), 0)
		n = p.newNode(kindOfText("case_pattern"))
		p.add(n, as, 0)
	}
	return n
}

func (p *parser) splatPattern(op string) int32 {
	s := p.newNode(kindOfText("splat_pattern"))
	p.add(s, p.tokLeaf(), 0)
	if p.isKw("_") {
		if op == "**" {
			// double_star_pattern: "**" pattern_capture_target, not "_"
			p.syntaxError()
		}
		p.add(s, p.leaf(kindOfText("_"), false), 0)
	} else {
		p.add(s, p.name(), 0)
	}
	return s
}

// orPattern adds closed_pattern ("|" closed_pattern)* to parent: a
// union_pattern when there is a "|", else the pattern's own nodes.
func (p *parser) orPattern(parent int32) {
	tmp := p.newNode(kindOfText("union_pattern"))
	p.simplePattern(tmp)
	if !p.isOp("|") {
		for c := p.nodes[tmp].first; c >= 0; {
			next := p.nodes[c].next
			p.add(parent, c, 0)
			c = next
		}
		return
	}
	for p.isOp("|") {
		p.add(tmp, p.tokLeaf(), 0)
		p.simplePattern(tmp)
	}
	p.add(parent, tmp, 0)
}

func (p *parser) signedNumber(parent int32) {
	if p.isOp("-") {
		p.add(parent, p.tokLeaf(), 0)
	}
	t := p.tok()
	if t.kind != tNumber {
		p.syntaxError()
	}
	if isFloatLit(p.src[t.start:t.end]) {
		p.add(parent, p.leaf(kFloat, true), 0)
	} else {
		p.checkIntDigits(t)
		p.add(parent, p.leaf(kInteger, true), 0)
	}
}

// simplePattern adds one closed pattern's nodes to parent.
func (p *parser) simplePattern(parent int32) {
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.numberPattern(parent)
		return
	case tString, tFStart:
		// an f-string is a compile error, not a syntax error: ast.parse
		// accepts it
		p.add(parent, p.strings(), 0)
		return
	case tName:
		switch p.text(t) {
		case "None":
			p.add(parent, p.leaf(kNone, true), 0)
			return
		case "True":
			p.add(parent, p.leaf(kTrue, true), 0)
			return
		case "False":
			p.add(parent, p.leaf(kFalse, true), 0)
			return
		case "_":
			if !p.isOpAt(1, ".") && !p.isOpAt(1, "(") {
				p.add(parent, p.leaf(kindOfText("_"), false), 0)
				return
			}
		}
		d := p.dottedName()
		if p.isOp("(") {
			cp := p.newNode(kindOfText("class_pattern"))
			p.add(cp, d, 0)
			p.add(cp, p.tokLeaf(), 0)
			sawKw := false
			for !p.isOp(")") {
				if p.tok().kind == tName && p.isOpAt(1, "=") {
					sawKw = true
					cpat := p.newNode(kindOfText("case_pattern"))
					kp := p.newNode(kindOfText("keyword_pattern"))
					p.add(kp, p.name(), 0)
					p.add(kp, p.tokLeaf(), 0)
					p.orPattern(kp)
					if p.isKw("as") {
						// "k=pat as name": tree-sitter wraps the keyword
						// pattern in an as_pattern
						inner := p.newNode(kindOfText("case_pattern"))
						p.add(inner, kp, 0)
						as := p.newNode(kAsPattern)
						p.add(as, inner, 0)
						p.add(as, p.tokLeaf(), 0)
						p.add(as, p.name(), 0)
						kp = as
					}
					p.add(cpat, kp, 0)
					p.add(cp, cpat, 0)
				} else {
					if sawKw {
						p.failTok("positional patterns follow keyword patterns")
					}
					p.add(cp, p.casePattern(false), 0)
				}
				if !p.isOp(",") {
					break
				}
				p.add(cp, p.tokLeaf(), 0)
			}
			p.expectOp(cp, ")")
			p.add(parent, cp, 0)
			return
		}
		p.add(parent, d, 0)
		return
	case tOp:
		switch p.text(t) {
		case "-":
			p.numberPattern(parent)
			return
		case "(", "[":
			open := p.text(t)
			close := ")"
			k := kTuplePat
			if open == "[" {
				close, k = "]", kListPat
			}
			n := p.newNode(k)
			p.add(n, p.tokLeaf(), 0)
			for !p.isOp(close) {
				p.add(n, p.casePattern(true), 0)
				if !p.isOp(",") {
					break
				}
				p.add(n, p.tokLeaf(), 0)
			}
			p.expectOp(n, close)
			p.add(parent, n, 0)
			return
		case "{":
			d := p.newNode(kindOfText("dict_pattern"))
			p.add(d, p.tokLeaf(), 0)
			rest := int32(-1)
			for !p.isOp("}") {
				if rest >= 0 {
					// CPython 3.10+: the rest pattern must come last
					p.syntaxError()
				}
				if p.isOp("**") {
					rest = p.splatPattern("**")
					p.add(d, rest, 0)
				} else {
					kt := p.tok()
					if kt.kind == tNumber || kt.kind == tString || p.isOp("-") || kt.kind == tName {
						tmp := p.newNode(kindOfText("union_pattern"))
						p.simplePattern(tmp)
						for c := p.nodes[tmp].first; c >= 0; {
							next := p.nodes[c].next
							p.add(d, c, fKey)
							c = next
						}
					} else {
						p.syntaxError()
					}
					if !p.isOp(":") {
						p.syntaxError()
					}
					p.add(d, p.tokLeaf(), 0)
					p.add(d, p.casePattern(false), fValue)
				}
				if !p.isOp(",") {
					break
				}
				p.add(d, p.tokLeaf(), 0)
			}
			p.expectOp(d, "}")
			p.add(parent, d, 0)
			return
		}
	}
	p.syntaxError()
}

func (p *parser) numberPattern(parent int32) {
	tmp := p.newNode(kindOfText("complex_pattern"))
	p.signedNumber(tmp)
	if p.isOp("+") || p.isOp("-") {
		// complex_number: signed_real_number ("+" | "-") imaginary_number
		if re := p.toks[p.p-1]; isImaginary(p.src[re.start:re.end]) {
			p.fail(int(re.start), "real number required in complex literal")
		}
		p.add(tmp, p.tokLeaf(), 0)
		t := p.tok()
		if t.kind != tNumber {
			p.syntaxError()
		}
		if !isImaginary(p.src[t.start:t.end]) {
			p.failTok("imaginary number required in complex literal")
		}
		p.signedNumber(tmp)
		p.add(parent, tmp, 0)
		return
	}
	for c := p.nodes[tmp].first; c >= 0; {
		next := p.nodes[c].next
		p.add(parent, c, 0)
		c = next
	}
}

// isImaginary reports whether the number literal b is imaginary ("2j").
func isImaginary(b []byte) bool { return len(b) > 0 && b[len(b)-1]|0x20 == 'j' }
