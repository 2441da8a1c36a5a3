package pyparse

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

// strings parses one or more adjacent string literals: a string, or a
// concatenated_string of them.
func (p *parser) strings() int32 {
	outer, outerSpecs := p.fstrErr, p.specs
	p.fstrErr, p.specs = fstrPending{}, 0
	defer func() { p.fstrErr, p.specs = outer, outerSpecs }() // also when an error unwinds
	n := p.concatenation()
	if p.fstrErr.kind != 0 {
		p.raiseFstr(n)
	}
	return n
}

// fstrPending is the first error the f-string parser of CPython 3.8-3.11
// finds in a run of adjacent literals: CPython reports it once the run is
// read, at a position computed from the whole run.
type fstrPending struct {
	kind int // 0 none, fstrStarred, fstrDeep
	at   int // fstrStarred: offset of the "*"
}

const (
	fstrStarred = 1 + iota // f'{*a}' (3.9-3.11)
	fstrDeep               // f'{x:{y:{z}}}' (3.8-3.11)
)

// raiseFstr reports p.fstrErr for the literals of node n, where CPython
// puts it: a starred expression on the line of its "*", column 2 (the
// offset in the "(*a)" the old f-string parser compiles); expressions
// nested too deeply at the start of the run (3.8) or one past its end
// (3.9-3.11).
func (p *parser) raiseFstr(n int32) {
	e := p.fstrErr
	p.fstrErr = fstrPending{}
	switch e.kind {
	case fstrStarred:
		msg := "f-string: cannot use starred expression here"
		if p.minor == 9 {
			msg = "f-string: can't use starred expression here"
		}
		err := mkErr(p.src, e.at, msg)
		err.Col = 2
		panic(syntaxErr{err})
	default:
		if p.minor < 9 {
			p.fail(int(p.nodes[n].start), "f-string: expressions nested too deeply")
		}
		p.fail(int(p.nodes[n].end), "f-string: expressions nested too deeply")
	}
}

// concatenation parses adjacent literals (see strings).
func (p *parser) concatenation() int32 {
	first := p.oneString()
	t := p.tok()
	if t.kind != tString && t.kind != tFStart {
		return first
	}
	c := p.newNode(kConcat)
	p.add(c, first, 0)
	bytesSeen := p.isBytes(first)
	tmpl, prev := p.isTemplate(first), first
	for t.kind == tString || t.kind == tFStart {
		s := p.oneString()
		if p.isTemplate(s) != tmpl {
			// 3.14 invalid_string_tstring_concat: at the last literal
			// before the change
			p.fail(int(p.nodes[prev].start), "cannot mix t-string literals with string or bytes literals")
		}
		prev = s
		if p.isBytes(s) != bytesSeen {
			p.fail(int(p.nodes[first].start), "cannot mix bytes and nonbytes literals")
		}
		p.add(c, s, 0)
		t = p.tok()
	}
	return c
}

func (p *parser) isBytes(s int32) bool {
	for i := p.nodes[s].start; i < p.nodes[s].end; i++ {
		c := p.src[i]
		if c == '\'' || c == '"' {
			return false
		}
		if c|0x20 == 'b' {
			return true
		}
	}
	return false
}

// isTemplate reports whether the literal s is a t-string (PEP 750).
func (p *parser) isTemplate(s int32) bool {
	for i := p.nodes[s].start; i < p.nodes[s].end; i++ {
		c := p.src[i]
		if c == '\'' || c == '"' {
			return false
		}
		if c|0x20 == 't' {
			return true
		}
	}
	return false
}

// strFlags reads a literal's prefix.
func strFlags(prefix []byte) (raw, bytes, format bool) {
	for _, c := range prefix {
		switch c | 0x20 {
		case 'r':
			raw = true
		case 'b':
			bytes = true
		case 'f', 't':
			format = true
		}
	}
	return
}

func (p *parser) oneString() int32 {
	t := p.tok()
	s := p.newNode(kString)
	q := t.start
	for p.src[q] != '\'' && p.src[q] != '"' {
		q++
	}
	raw, bytes, _ := strFlags(p.src[t.start:q])
	if t.kind == tString {
		ql := uint32(1)
		if t.end-q >= 6 && p.src[q+1] == p.src[q] && p.src[q+2] == p.src[q] {
			ql = 3
		}
		p.tokenNode(s, kStringStart, true, t.start, q+ql)
		content := int32(-1)
		es := p.endStart(q+ql, t.end-ql, p.src[q], raw, bytes, false)
		p.content(s, &content, q+ql, es, p.src[q], raw, bytes, false, true)
		p.tokenNode(s, kStringEnd, true, es, t.end)
		p.p++
		if bytes {
			for i := q + ql; i < t.end-ql; i++ {
				if p.src[i] >= 0x80 {
					p.fail(int(t.start), "bytes can only contain ASCII literal characters")
				}
			}
		}
		p.checkEscapes(q+ql, t.end-ql, raw, bytes)
		return s
	}
	// f-string / t-string
	p.tokenNode(s, kStringStart, true, t.start, t.end)
	p.p++
	content := int32(-1)
	for {
		t := p.tok()
		switch t.kind {
		case tFMiddle:
			e := t.end
			if p.peek(1).kind == tFEnd {
				e = p.endStart(t.start, t.end, p.src[q], raw, bytes, true)
			}
			p.content(s, &content, t.start, e, p.src[q], raw, bytes, true, p.peek(1).kind == tFEnd)
			p.checkEscapes(t.start, t.end, raw, bytes)
			p.p++
			if e < t.end {
				et := p.tok()
				p.tokenNode(s, kStringEnd, true, e, et.end)
				p.p++
				return s
			}
		case tFEnd:
			p.tokenNode(s, kStringEnd, true, t.start, t.end)
			p.p++
			return s
		case tOp: // "{"
			content = -1
			p.add(s, p.interpolation(kInterpolation), 0)
		default:
			p.syntaxError()
		}
	}
}

func (p *parser) tokenNode(parent int32, k Kind, named bool, a, b uint32) int32 {
	id := p.put(k, named, a, b)
	p.add(parent, id, 0)
	return id
}

// content adds the literal text [a, b) of a string to s as string_content
// (continuing *cur when set), with escape_sequence, escape_interpolation
// and lone "\" children as tree-sitter-python's scanner splits them.
func (p *parser) content(s int32, cur *int32, a, b uint32, quote byte, raw, bytes, format, final bool) {
	if a >= b {
		return
	}
	if *cur < 0 {
		*cur = p.newNode(kStringContent)
		p.nodes[*cur].start = a
		p.nodes[*cur].end = a
		p.add(s, *cur, 0)
	}
	c := *cur
	src := p.src
	// raw f-strings: a scan that meets "{" or "}" having seen only
	// backslash pairs returns nothing, and tree-sitter's own lexer then
	// reads them as escape_sequence / "\\" tokens
	r, has := a, false
	flush := func(end uint32) {
		if !raw || !format || has || r >= end {
			return
		}
		for j := r; j < end; {
			if src[j] != '\\' {
				j++
				continue
			}
			n := escapeLen(src[j:end], bytes)
			if n > 0 {
				p.tokenNode(c, kEscape, true, j, j+uint32(n))
				j += uint32(n)
				continue
			}
			p.tokenNode(c, kindOfText("\\"), false, j, j+1)
			j++
		}
	}
	for i := a; i < b; {
		ch := src[i]
		if ch == '\\' && !raw {
			n := escapeLen(src[i:b], bytes)
			if n > 0 {
				p.tokenNode(c, kEscape, true, i, i+uint32(n))
				i += uint32(n)
				continue
			}
			if bytes && i+1 < b && (src[i+1] == 'N' || src[i+1] == 'u' || src[i+1] == 'U') {
				i += 2
				continue
			}
			p.tokenNode(c, kindOfText("\\"), false, i, i+1)
			i++
			continue
		}
		if ch == '\\' && raw {
			i++
			if i < b && (src[i] == quote || src[i] == '\\') {
				i++
			}
			if i < b && src[i] == '\r' {
				i++
			}
			if i < b && src[i] == '\n' {
				i++
			}
			continue
		}
		if format && (ch == '{' || ch == '}') && i+1 < b && src[i+1] == ch {
			flush(i)
			p.tokenNode(c, kEscInterp, true, i, i+2)
			i += 2
			r, has = i, false
			continue
		}
		has = true
		i++
	}
	if !final {
		flush(b)
	}
	if b > p.nodes[c].end {
		p.nodes[c].end = b
	}
	if b > p.nodes[s].end {
		p.nodes[s].end = b
	}
}

// endStart is where tree-sitter's string_end starts for the literal text
// [a, b) before a closing quote: b, unless the scanner's last scan of the
// text saw only characters it steps over without marking content (in a raw
// string a backslash with the character after it; in a bytes string \N,
// \u, \U), in which case the string_end token takes them in.
func (p *parser) endStart(a, b uint32, quote byte, raw, bytes, format bool) uint32 {
	src := p.src
	r, has := a, false
	for i := a; i < b; {
		c := src[i]
		if format && (c == '{' || c == '}') && i+1 < b && src[i+1] == c {
			i += 2
			r, has = i, false
			continue
		}
		if c == '\\' {
			if raw {
				i++
				if i < b && (src[i] == quote || src[i] == '\\') {
					i++
				}
				if i < b && src[i] == '\r' {
					i++
					if i < b && src[i] == '\n' {
						i++
					}
				} else if i < b && src[i] == '\n' {
					i++
				}
				continue
			}
			if bytes && i+1 < b && (src[i+1] == 'N' || src[i+1] == 'u' || src[i+1] == 'U') {
				i += 2
				continue
			}
			n := escapeLen(src[i:b], bytes)
			if n == 0 {
				n = 1
			}
			i += uint32(n)
			r, has = i, false
			continue
		}
		has = true
		i++
	}
	if has || r == b {
		return b
	}
	return r
}

func isHex(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

// escapeLen is the length of tree-sitter's escape_sequence at b[0] == '\\',
// 0 when none matches.
func escapeLen(b []byte, bytes bool) int {
	if len(b) < 2 {
		return 0
	}
	hexN := func(n int) int {
		if len(b) < 2+n {
			return 0
		}
		for _, c := range b[2 : 2+n] {
			if !isHex(c) {
				return 0
			}
		}
		return 2 + n
	}
	switch c := b[1]; c {
	case 'u':
		if bytes {
			return 0
		}
		return hexN(4)
	case 'U':
		if bytes {
			return 0
		}
		return hexN(8)
	case 'x':
		return hexN(2)
	case '\n':
		return 2
	case '\r':
		if len(b) > 2 && b[2] == '\n' {
			return 3
		}
		return 0
	case '\'', '"', 'a', 'b', 'f', 'r', 'n', 't', 'v', '\\':
		return 2
	case 'N':
		if bytes || len(b) < 4 || b[2] != '{' || b[3] == '}' {
			return 0
		}
		for i := 3; i < len(b); i++ {
			if b[i] == '}' {
				return i + 1
			}
		}
		return 0
	default:
		if isDigit(c) {
			n := 2
			for n < 4 && n < len(b) && isDigit(b[n]) {
				n++
			}
			return n
		}
	}
	return 0
}

// checkEscapes reports CPython's errors for malformed escapes in [a, b):
// truncated \x, \u, \U and bad \N{...}.
func (p *parser) checkEscapes(a, b uint32, raw, isBytes bool) {
	if raw {
		return
	}
	src := p.src
	for i := a; i < b; i++ {
		// to the next backslash (most strings have none)
		k := bytes.IndexByte(src[i:b], '\\')
		if k < 0 {
			return
		}
		i += uint32(k)
		if i+1 >= b {
			continue
		}
		c := src[i+1]
		need := 0
		switch c {
		case 'x':
			need = 2
		case 'u':
			if !isBytes {
				need = 4
			}
		case 'U':
			if !isBytes {
				need = 8
			}
		case 'N':
			if !isBytes {
				j := i + 2
				if j >= b || src[j] != '{' {
					p.fail(int(i), "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape")
				}
				k := j + 1
				for k < b && src[k] != '}' {
					k++
				}
				if k >= b || k == j+1 || !validUnicodeName(string(src[j+1:k])) {
					p.fail(int(i), "(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name")
				}
			}
		}
		if need > 0 {
			for k := 0; k < need; k++ {
				if int(i)+2+k >= int(b) || !isHex(src[int(i)+2+k]) {
					if isBytes {
						p.fail(int(i), "(value error) invalid \\x escape at position %d", i-a)
					}
					p.fail(int(i), "(unicode error) 'unicodeescape' codec can't decode bytes: truncated escape")
				}
			}
		}
		i++ // skip the escaped character
	}
}

var (
	runeNamesOnce sync.Once
	runeNames     map[string]bool
)

// validUnicodeName reports whether \N{s} names a character, as CPython's
// unicodedata lookup does (case-insensitively; CJK unified ideographs and
// Hangul syllables by their computed names). The table of names
// (golang.org/x/text/unicode/runenames) is built on first use, some
// 100 ms; aliases come from nameAliases.
func validUnicodeName(s string) bool {
	s = strings.ToUpper(s)
	if h, ok := strings.CutPrefix(s, "CJK UNIFIED IDEOGRAPH-"); ok {
		v, err := strconv.ParseUint(h, 16, 32)
		return err == nil && (len(h) == 4 || len(h) == 5) && runenames.Name(rune(v)) == "<CJK Ideograph>"
	}
	if strings.HasPrefix(s, "HANGUL SYLLABLE ") {
		return true
	}
	runeNamesOnce.Do(func() {
		runeNames = make(map[string]bool, 40000)
		for r := rune(0); r < 0x110000; r++ {
			if n := runenames.Name(r); n != "" && n[0] != '<' {
				runeNames[n] = true
			}
		}
	})
	return runeNames[s] || nameAliases[s]
}

// nameAliases are Unicode name aliases (NameAliases.txt) that CPython's
// \N{} accepts: the control-character names and abbreviations, format
// character abbreviations and the corrections, each checked with
// unicodedata.lookup of CPython 3.11 when the list was written. Not the
// whole file: an alias missing here is rejected.
var nameAliases = map[string]bool{
	"NULL":                        true,
	"NUL":                         true,
	"START OF HEADING":            true,
	"SOH":                         true,
	"START OF TEXT":               true,
	"STX":                         true,
	"END OF TEXT":                 true,
	"ETX":                         true,
	"END OF TRANSMISSION":         true,
	"EOT":                         true,
	"ENQUIRY":                     true,
	"ENQ":                         true,
	"ACKNOWLEDGE":                 true,
	"ACK":                         true,
	"ALERT":                       true,
	"BEL":                         true,
	"BACKSPACE":                   true,
	"BS":                          true,
	"CHARACTER TABULATION":        true,
	"HORIZONTAL TABULATION":       true,
	"HT":                          true,
	"TAB":                         true,
	"LINE FEED":                   true,
	"NEW LINE":                    true,
	"END OF LINE":                 true,
	"LF":                          true,
	"NL":                          true,
	"EOL":                         true,
	"LINE TABULATION":             true,
	"VERTICAL TABULATION":         true,
	"VT":                          true,
	"FORM FEED":                   true,
	"FF":                          true,
	"CARRIAGE RETURN":             true,
	"CR":                          true,
	"SHIFT OUT":                   true,
	"SO":                          true,
	"SHIFT IN":                    true,
	"SI":                          true,
	"DATA LINK ESCAPE":            true,
	"DLE":                         true,
	"DEVICE CONTROL ONE":          true,
	"DC1":                         true,
	"DEVICE CONTROL TWO":          true,
	"DC2":                         true,
	"DEVICE CONTROL THREE":        true,
	"DC3":                         true,
	"DEVICE CONTROL FOUR":         true,
	"DC4":                         true,
	"NEGATIVE ACKNOWLEDGE":        true,
	"NAK":                         true,
	"SYNCHRONOUS IDLE":            true,
	"SYN":                         true,
	"END OF TRANSMISSION BLOCK":   true,
	"ETB":                         true,
	"CANCEL":                      true,
	"CAN":                         true,
	"END OF MEDIUM":               true,
	"EOM":                         true,
	"SUBSTITUTE":                  true,
	"SUB":                         true,
	"ESCAPE":                      true,
	"ESC":                         true,
	"INFORMATION SEPARATOR FOUR":  true,
	"FILE SEPARATOR":              true,
	"FS":                          true,
	"INFORMATION SEPARATOR THREE": true,
	"GROUP SEPARATOR":             true,
	"GS":                          true,
	"INFORMATION SEPARATOR TWO":   true,
	"RECORD SEPARATOR":            true,
	"RS":                          true,
	"INFORMATION SEPARATOR ONE":   true,
	"UNIT SEPARATOR":              true,
	"US":                          true,
	"SP":                          true,
	"DELETE":                      true,
	"DEL":                         true,
	"PADDING CHARACTER":           true,
	"PAD":                         true,
	"HIGH OCTET PRESET":           true,
	"HOP":                         true,
	"BREAK PERMITTED HERE":        true,
	"BPH":                         true,
	"NO BREAK HERE":               true,
	"NBH":                         true,
	"INDEX":                       true,
	"IND":                         true,
	"NEXT LINE":                   true,
	"NEL":                         true,
	"START OF SELECTED AREA":      true,
	"SSA":                         true,
	"END OF SELECTED AREA":        true,
	"ESA":                         true,
	"CHARACTER TABULATION SET":    true,
	"HTS":                         true,
	"CHARACTER TABULATION WITH JUSTIFICATION": true,
	"HTJ":                                 true,
	"LINE TABULATION SET":                 true,
	"VTS":                                 true,
	"PARTIAL LINE FORWARD":                true,
	"PLD":                                 true,
	"PARTIAL LINE BACKWARD":               true,
	"PLU":                                 true,
	"REVERSE LINE FEED":                   true,
	"RI":                                  true,
	"SINGLE SHIFT TWO":                    true,
	"SS2":                                 true,
	"SINGLE SHIFT THREE":                  true,
	"SS3":                                 true,
	"DEVICE CONTROL STRING":               true,
	"DCS":                                 true,
	"PRIVATE USE ONE":                     true,
	"PU1":                                 true,
	"PRIVATE USE TWO":                     true,
	"PU2":                                 true,
	"SET TRANSMIT STATE":                  true,
	"STS":                                 true,
	"CANCEL CHARACTER":                    true,
	"CCH":                                 true,
	"MESSAGE WAITING":                     true,
	"MW":                                  true,
	"START OF GUARDED AREA":               true,
	"SPA":                                 true,
	"END OF GUARDED AREA":                 true,
	"EPA":                                 true,
	"START OF STRING":                     true,
	"SOS":                                 true,
	"SINGLE GRAPHIC CHARACTER INTRODUCER": true,
	"SGC":                                 true,
	"SINGLE CHARACTER INTRODUCER":         true,
	"SCI":                                 true,
	"CONTROL SEQUENCE INTRODUCER":         true,
	"CSI":                                 true,
	"STRING TERMINATOR":                   true,
	"ST":                                  true,
	"OPERATING SYSTEM COMMAND":            true,
	"OSC":                                 true,
	"PRIVACY MESSAGE":                     true,
	"PM":                                  true,
	"APPLICATION PROGRAM COMMAND":         true,
	"APC":                                 true,
	"NBSP":                                true,
	"SHY":                                 true,
	"CGJ":                                 true,
	"ALM":                                 true,
	"MVS":                                 true,
	"FVS1":                                true,
	"FVS2":                                true,
	"FVS3":                                true,
	"FVS4":                                true,
	"ZWSP":                                true,
	"ZWNJ":                                true,
	"ZWJ":                                 true,
	"LRM":                                 true,
	"RLM":                                 true,
	"LRE":                                 true,
	"RLE":                                 true,
	"PDF":                                 true,
	"LRO":                                 true,
	"RLO":                                 true,
	"NNBSP":                               true,
	"MMSP":                                true,
	"WJ":                                  true,
	"LRI":                                 true,
	"RLI":                                 true,
	"FSI":                                 true,
	"PDI":                                 true,
	"VS1":                                 true,
	"VS2":                                 true,
	"VS3":                                 true,
	"VS4":                                 true,
	"VS5":                                 true,
	"VS6":                                 true,
	"VS7":                                 true,
	"VS8":                                 true,
	"VS9":                                 true,
	"VS10":                                true,
	"VS11":                                true,
	"VS12":                                true,
	"VS13":                                true,
	"VS14":                                true,
	"VS15":                                true,
	"VS16":                                true,
	"BYTE ORDER MARK":                     true,
	"BOM":                                 true,
	"ZWNBSP":                              true,
	"LATIN CAPITAL LETTER GHA":            true,
	"LATIN SMALL LETTER GHA":              true,
	"WEIERSTRASS ELLIPTIC FUNCTION":       true,
	"SYRIAC SUBLINEAR COLON SKEWED LEFT":  true,
	"KANNADA LETTER LLLA":                 true,
	"LAO LETTER FO FON":                   true,
	"LAO LETTER FO FAY":                   true,
	"LAO LETTER RO":                       true,
	"LAO LETTER LO":                       true,
	"TIBETAN MARK BKA- SHOG GI MGO RGYAN": true,
	"YI SYLLABLE ITERATION MARK":          true,
	"PRESENTATION FORM FOR VERTICAL RIGHT WHITE LENTICULAR BRACKET": true,
	"BYZANTINE MUSICAL SYMBOL FTHORA SKLIRON CHROMA VASIS":          true,
}

// walrusSpec handles f'{x:=10}': CPython reads x with the format spec
// "=10", tree-sitter a named_expression x := 10. When the spec is "="
// followed by an expression and nothing else, it builds tree-sitter's
// reading in the interpolation n, whose expression e is the name x (e is
// re-added as the named_expression's name), and returns true.
func (p *parser) walrusSpec(n, e int32) bool {
	colon, mid, end := p.tok(), p.peek(1), p.peek(2)
	if mid.kind != tFMiddle || mid.start != colon.end || p.src[mid.start] != '=' ||
		end.kind != tOp || p.text(end) != "}" {
		return false
	}
	sub := tokenize(p.src[mid.start+1:mid.end], p.minor, &buffers{}, false)
	if sub.err != nil || len(sub.extras) > 0 {
		return false
	}
	sp := &parser{src: p.src[:mid.end], minor: p.minor, nodes: p.nodes}
	for _, t := range sub.toks {
		if t.kind == tNewline || t.kind == tIndent || t.kind == tDedent {
			continue
		}
		t.start += mid.start + 1
		t.end += mid.start + 1
		sp.toks = append(sp.toks, t)
	}
	v, ok := sp.attempt(sp.expression)
	if !ok || sp.toks[sp.p].kind != tEOF {
		return false
	}
	p.nodes = sp.nodes
	// e is n's last child: unlink it
	p.nodes[n].last = -1
	for c := p.nodes[n].first; c >= 0; c = p.nodes[c].next {
		if p.nodes[c].next == e {
			p.nodes[c].next = -1
			p.nodes[n].last = c
		}
	}
	ne := p.newNode(kNamed)
	p.add(ne, e, fName)
	p.add(ne, p.put(kindOfText(":="), false, colon.start, mid.start+1), 0)
	p.add(ne, v, fValue)
	p.add(n, ne, fExpression)
	p.p += 2
	p.add(n, p.tokLeaf(), 0) // "}"
	return true
}

// interpolation parses "{" expression ["="] ["!" conv] [":" spec] "}".
func (p *parser) interpolation(k Kind) int32 {
	p.fstr++
	defer func() { p.fstr-- }()
	n := p.newNode(k)
	p.add(n, p.tokLeaf(), 0) // "{"
	// JoinedStr, FormattedValue: two AST levels above the expression
	p.enter()
	p.enter()
	p.fstr++
	defer func() { p.open -= 2; p.fstr-- }()
	var e int32
	if p.isKw("yield") {
		e = p.yieldExpr()
	} else {
		e = p.starExpressions()
	}
	if p.minor >= 9 && p.minor < 12 && p.nodes[e].kind == kListSplat && p.fstrErr.kind == 0 {
		p.fstrErr = fstrPending{kind: fstrStarred, at: int(p.nodes[e].start)}
	}
	p.add(n, e, fExpression)
	if p.isOp("=") {
		if p.minor < 8 {
			p.syntaxError()
		}
		p.add(n, p.tokLeaf(), 0)
	}
	if p.isOp("!") {
		bang := p.tok()
		nt := p.peek(1)
		if nt.kind != tName || nt.start != bang.end {
			p.fail(int(bang.start), "f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		if c := p.text(nt); c != "s" && c != "r" && c != "a" {
			p.fail(int(nt.start), "f-string: invalid conversion character %q: expected 's', 'r', or 'a'", c)
		}
		p.add(n, p.put(kTypeConv, true, bang.start, nt.end), fTypeConversion)
		p.p += 2
	}
	if p.isOp(":") && p.nodes[e].kind == kIdentifier && p.walrusSpec(n, e) {
		return n
	}
	if p.isOp(":") {
		fs := p.newNode(kFormatSpec)
		p.add(fs, p.tokLeaf(), 0)
		p.specs++
		defer func() { p.specs-- }()
		for {
			t := p.tok()
			if t.kind == tFMiddle {
				if t.end > p.nodes[fs].end {
					p.nodes[fs].end = t.end
				}
				p.p++
				continue
			}
			if t.kind == tOp && p.isOp("{") {
				if p.specs >= 3 && p.minor >= 12 {
					// 3.12+ tokenizer: a fourth level of fields, reported
					// one column before its "{"
					p.fail(int(t.start)-1, "f-string: expressions nested too deeply")
				}
				if k == kFormatExpr && p.minor < 12 && p.fstrErr.kind == 0 {
					// before PEP 701 a format spec's field may not hold
					// another
					p.fstrErr = fstrPending{kind: fstrDeep}
				}
				p.add(fs, p.interpolation(kFormatExpr), 0)
				continue
			}
			break
		}
		p.add(n, fs, fFormatSpecifier)
	}
	if !p.isOp("}") {
		p.failTok("f-string: expecting '}'")
	}
	p.add(n, p.tokLeaf(), 0)
	return n
}
