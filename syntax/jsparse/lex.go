package jsparse

import (
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// token classes
const (
	tEOF  = iota
	tName // a word: identifier or keyword, by context
	tNum
	tStr
	tTmpl // the opening backtick of a template
	tPunct
	tPriv // #name
)

type token struct {
	t          uint8
	nl         bool // a line break between the previous token and this one
	start, end uint32
	v          string // the text (over the source, not copied)
	k          Kind   // a punctuator's kind, as an anonymous token
}

// puncts are the punctuators, longest first per first byte.
var puncts = [...]string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "<<", ">>",
	"{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!",
	"~", "?", ":", "=", ".", "@"}

var (
	punctByByte [128][]string
	punctKinds  [128][]Kind // the kinds of punctByByte's punctuators
)

func init() {
	for _, s := range puncts {
		punctByByte[s[0]] = append(punctByByte[s[0]], s)
		punctKinds[s[0]] = append(punctKinds[s[0]], kindOf(s))
	}
}

func (p *parser) str(s, e uint32) string {
	if e <= s {
		return ""
	}
	return unsafe.String(&p.src[s], int(e-s))
}

func (p *parser) at(i uint32) byte {
	if int(i) < len(p.src) {
		return p.src[i]
	}
	return 0
}

// isSpace is the C library's iswspace over ASCII, as tree-sitter's
// external scanner sees it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// identStart reports whether the rune at i may start an identifier, and
// its size; unicode whitespace outside strings and comments is declined.
func (p *parser) identRune(i uint32, start bool) (bool, uint32) {
	c := p.at(i)
	if c < 0x80 {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || (!start && isDigit(c)) {
			return true, 1
		}
		if c == '\\' {
			p.unsupported(i, "unicode escape in identifier")
		}
		return false, 1
	}
	r, n := utf8.DecodeRune(p.src[i:])
	if r == utf8.RuneError && n <= 1 {
		p.unsupported(i, "invalid UTF-8")
	}
	if unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || r == 0xFEFF || r == 0x2060 || r == 0x200B || r == 0x2028 || r == 0x2029 {
		p.unsupported(i, "unicode whitespace")
	}
	return true, uint32(n)
}

// next lexes the token after the current one (regular expressions,
// template parts and string contents are read by the parser).
func (p *parser) next() {
	p.prevEnd = p.tok.end
	i := p.tok.end
	nl := false
	src := p.src
	n := uint32(len(src))
	for i < n {
		c := src[i]
		if c == '\n' {
			nl = true
			i++
			continue
		}
		if isSpace(c) {
			i++
			continue
		}
		if c == '/' && i+1 < n {
			if src[i+1] == '/' {
				s := i
				i += 2
				for i < n && src[i] != '\n' && src[i] != '\r' && !(src[i] == 0xE2 && i+2 < n && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9)) {
					i++
				}
				p.extras = append(p.extras, span{s, i})
				continue
			}
			if src[i+1] == '*' {
				s := i
				i += 2
				for {
					if i+1 >= n {
						p.fail(s, "unterminated comment")
					}
					if src[i] == '*' && src[i+1] == '/' {
						i += 2
						break
					}
					if src[i] == '\n' {
						nl = true
					}
					i++
				}
				p.extras = append(p.extras, span{s, i})
				continue
			}
		}
		if c >= 0x80 {
			r, _ := utf8.DecodeRune(src[i:])
			if unicode.IsSpace(r) || r == 0xFEFF || unicode.Is(unicode.Zs, r) {
				p.unsupported(i, "unicode whitespace")
			}
		}
		if c == 0 {
			p.unsupported(i, "NUL byte")
		}
		break
	}
	p.tok = token{nl: nl, start: i}
	if i >= n {
		p.tok.t, p.tok.end = tEOF, n
		return
	}
	c := src[i]
	switch {
	case c == '"' || c == '\'':
		j := i + 1
		for {
			if j >= n || src[j] == '\n' || src[j] == '\r' {
				p.fail(i, "unterminated string")
			}
			if src[j] == c {
				break
			}
			if src[j] == '\\' {
				j += p.escapeLen(j)
				continue
			}
			j++
		}
		p.tok.t, p.tok.end = tStr, j+1
	case c == '`':
		p.tok.t, p.tok.end = tTmpl, i+1
	case isDigit(c) || c == '.' && isDigit(p.at(i+1)):
		p.tok.t, p.tok.end = tNum, p.numberEnd(i)
		if ok, _ := p.identRune(p.tok.end, false); ok {
			p.fail(p.tok.end, "identifier after number")
		}
	case c == '#':
		if ok, _ := p.identRune(i+1, true); !ok {
			p.unsupported(i, "#")
		}
		p.tok.t, p.tok.end = tPriv, p.wordEnd(i+1)
	case c < 0x80 && punctByByte[c] != nil:
		for pi, s := range punctByByte[c] {
			if uint32(len(s)) <= n-i && string(src[i:i+uint32(len(s))]) == s {
				if s == "?." && isDigit(p.at(i+2)) {
					continue
				}
				if s == "<" && p.at(i+1) == '!' && p.at(i+2) == '-' && p.at(i+3) == '-' {
					p.unsupported(i, "html comment")
				}
				p.tok.t, p.tok.end, p.tok.k = tPunct, i+uint32(len(s)), punctKinds[c][pi]
				break
			}
		}
		if p.tok.t != tPunct {
			p.fail(i, "bad character")
		}
	default:
		if ok, _ := p.identRune(i, true); !ok {
			p.fail(i, "bad character")
		}
		p.tok.t, p.tok.end = tName, p.wordEnd(i)
	}
	p.tok.v = p.str(p.tok.start, p.tok.end)
}

func (p *parser) wordEnd(i uint32) uint32 {
	for {
		ok, sz := p.identRune(i, false)
		if !ok {
			return i
		}
		i += sz
	}
}

// digits reads \d(_?\d)* (with the digit class ok) from i and returns its
// end, i when there is none.
func (p *parser) digits(i uint32, ok func(byte) bool) uint32 {
	if !ok(p.at(i)) {
		return i
	}
	i++
	for {
		if ok(p.at(i)) {
			i++
		} else if p.at(i) == '_' && ok(p.at(i+1)) {
			i += 2
		} else {
			return i
		}
	}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isOct(c byte) bool { return c >= '0' && c <= '7' }
func isBin(c byte) bool { return c == '0' || c == '1' }

// numberEnd returns the end of the number token at i (tree-sitter's number
// pattern: hex, octal and binary integers, decimals with fraction and
// exponent, numeric separators, BigInt suffix).
func (p *parser) numberEnd(i uint32) uint32 {
	if p.at(i) == '0' {
		var ok func(byte) bool
		switch p.at(i + 1) {
		case 'x', 'X':
			ok = isHex
		case 'o', 'O':
			ok = isOct
		case 'b', 'B':
			ok = isBin
		}
		if ok != nil {
			e := p.digits(i+2, ok)
			if e == i+2 {
				p.fail(i, "bad number")
			}
			if p.at(e) == 'n' {
				e++
			}
			return e
		}
	}
	j := i
	intPart := false
	if p.at(j) == '0' {
		j++
		intPart = true
		if p.at(j) >= '1' && p.at(j) <= '9' {
			// "0"? [1-9] (_? \d(_?\d)*)?
			j = p.intTail(j)
		}
	} else if isDigit(p.at(j)) {
		j = p.intTail(j)
		intPart = true
	}
	if intPart && p.at(j) == 'n' {
		// BigInt: \d(_?\d)*n
		e := p.digits(i, isDigit)
		if e == j {
			return j + 1
		}
	}
	if p.at(j) == '.' {
		j++
		j = p.digits(j, isDigit)
	}
	if c := p.at(j); c == 'e' || c == 'E' {
		k := j + 1
		if p.at(k) == '+' || p.at(k) == '-' {
			k++
		}
		if e := p.digits(k, isDigit); e > k {
			j = e
		}
	}
	return j
}

// intTail reads [1-9] (_? \d(_?\d)*)? at j.
func (p *parser) intTail(j uint32) uint32 {
	j++
	k := j
	if p.at(k) == '_' {
		k++
	}
	if e := p.digits(k, isDigit); e > k {
		return e
	}
	return j
}

// escapeLen returns the length of the escape sequence at i (a backslash),
// as tree-sitter's escape_sequence token; a malformed one is an error.
func (p *parser) escapeLen(i uint32) uint32 {
	c := p.at(i + 1)
	switch {
	case c == 0 && int(i+1) >= len(p.src):
		p.fail(i, "bad escape")
	case isOct(c):
		k := uint32(2)
		for k < 4 && isOct(p.at(i+k)) {
			k++
		}
		return k
	case c == 'x':
		if isHex(p.at(i+2)) && isHex(p.at(i+3)) {
			return 4
		}
		p.fail(i, "bad escape")
	case c == 'u':
		if p.at(i+2) == '{' {
			k := i + 3
			for isHex(p.at(k)) {
				k++
			}
			if k > i+3 && p.at(k) == '}' {
				return k + 1 - i
			}
			p.fail(i, "bad escape")
		}
		for k := uint32(2); k < 6; k++ {
			if !isHex(p.at(i + k)) {
				p.fail(i, "bad escape")
			}
		}
		return 6
	case c == '\r' || c == '?':
		if p.at(i+2) == '\n' {
			return 3
		}
		if p.at(i+2) == 0xE2 && p.at(i+3) == 0x80 && (p.at(i+4) == 0xA8 || p.at(i+4) == 0xA9) {
			return 5
		}
	}
	if c < 0x80 {
		return 2
	}
	_, n := utf8.DecodeRune(p.src[i+1:])
	return 1 + uint32(n)
}

// asiAt reports whether tree-sitter-javascript's external scanner inserts
// an automatic semicolon at byte pos (the end of the last token or
// comment). cond is the scanner's comment condition: true where a "||"
// cannot follow (after a keyword rather than an expression). It follows
// the scanner's documented behaviour: a semicolon at the end of input and
// before "}", after a line break unless the next line continues the
// statement with an operator or bracket, and a line comment ending the
// line accepts it where cond holds.
func (p *parser) asiAt(pos uint32, cond bool) bool {
	i := pos
	for {
		if int(i) >= len(p.src) {
			return true
		}
		if p.src[i] == '/' {
			r, j := p.skipSpaceComments(i, false)
			if r == wsReject {
				return false
			}
			i = j
			if r == wsAccept && cond && p.at(i) != ',' && p.at(i) != '=' {
				return true
			}
		}
		c := p.at(i)
		if c == '}' {
			return true
		}
		if c == '\n' {
			break
		}
		if !isSpace(c) {
			return false
		}
		i++
	}
	i++
	r, j := p.skipSpaceComments(i, true)
	if r == wsReject {
		return false
	}
	i = j
	switch p.at(i) {
	case '`', ',', ':', ';', '*', '%', '>', '<', '=', '[', '(', '?', '^', '|', '&', '/':
		return false
	case '.':
		return isDigit(p.at(i + 1))
	case '+':
		return p.at(i+1) == '+'
	case '-':
		return p.at(i+1) == '-'
	case '!':
		return p.at(i+1) != '='
	case 'i':
		i++
		if p.at(i) != 'n' {
			return true
		}
		i++
		if !isAlpha(p.at(i)) {
			return false
		}
		for _, c := range []byte("stanceof") {
			if p.at(i) != c {
				return true
			}
			i++
		}
		return isAlpha(p.at(i))
	}
	return true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

const (
	wsReject = iota
	wsNoNewline
	wsAccept
)

// skipSpaceComments skips white space and comments from i as the scanner
// does; without consume it stops after a block comment on one line.
func (p *parser) skipSpaceComments(i uint32, consume bool) (int, uint32) {
	sawNL := false
	for {
		for isSpace(p.at(i)) {
			i++
		}
		if p.at(i) != '/' {
			return wsAccept, i
		}
		i++
		switch p.at(i) {
		case '/':
			i++
			for int(i) < len(p.src) && p.src[i] != '\n' && !p.isLS(i) {
				i++
			}
		case '*':
			i++
			for int(i) < len(p.src) {
				if p.src[i] == '*' {
					i++
					if p.at(i) == '/' {
						i++
						if p.at(i) != '/' && !consume {
							if sawNL {
								return wsAccept, i
							}
							return wsNoNewline, i
						}
						break
					}
				} else if p.src[i] == '\n' || p.isLS(i) {
					sawNL = true
					i++
				} else {
					i++
				}
			}
		default:
			return wsReject, i
		}
	}
}

// isLS reports a U+2028 or U+2029 at i.
func (p *parser) isLS(i uint32) bool {
	return p.at(i) == 0xE2 && p.at(i+1) == 0x80 && (p.at(i+2) == 0xA8 || p.at(i+2) == 0xA9)
}
