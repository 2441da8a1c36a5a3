// Package pyparse is a Python front end written in Go without cgo: a
// tokenizer and a recursive-descent parser for Python 3.8 through 3.14 that
// decide validity as CPython does (its tokenizer's and grammar's errors, at
// the first error) and build the flattened tree tree-sitter-python v0.23.6
// builds for the same source (the node kinds, fields, spans and comment
// placement of syntax.Tree), so that the rules can walk either.
//
// Sources of the behaviour reproduced: CPython's Parser/tokenizer.c and
// Grammar/python.gram (3.8-3.14) for validity; tree-sitter-python's
// grammar.js and src/scanner.c (v0.23.6) for the tree shape and for where
// the zero-width NEWLINE, INDENT and DEDENT tokens sit, which decides the
// span of a block and the parent of a comment.
package pyparse

import (
	"bytes"
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString  // a whole non-f string literal, prefix and quotes included
	tFStart  // f"/t" prefix and opening quote(s)
	tFMiddle // literal text inside an f-string (escapes {{ }} included)
	tFEnd    // closing quote(s) of an f-string
	tOp
	tNewline
	tIndent
	tDedent
	tErr // ends the token list where the tokenizer met an error
)

// token is one token of the source. Layout tokens (NEWLINE, INDENT, DEDENT)
// are zero-width, at the end of the token before them (comments included),
// where tree-sitter-python's scanner puts them.
type token struct {
	kind       tokKind
	start, end uint32
}

// extra is a comment or a line continuation: tree-sitter's extras, placed
// in the tree by position.
type extra struct {
	start, end uint32
	cont       bool // a line continuation ("\\\n"), else a comment
}

// Error is a syntax error: 1-based line, 1-based column in characters (as
// CPython's SyntaxError.offset), and a message. Col is below 1 only where
// CPython's offset is: the integer digit limit reports 0 from 3.10 (-1 and
// -2 inside a 3.9-3.11 f-string); callers that need a position clamp it.
type Error struct {
	Line, Col int
	Msg       string
	Byte      int // 0-based byte offset
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// fstate is an f-string (or t-string) being tokenized.
type fstate struct {
	quote  byte
	triple bool
	raw    bool
	depth  int      // bracket depth at the f-string's start
	frames []iframe // open interpolations, innermost last
}

// iframe is an open interpolation: the bracket depth once its "{" is
// open, and whether its format spec is being scanned.
type iframe struct {
	depth  int
	inSpec bool
}

func (f *fstate) inExpr() bool { return len(f.frames) > 0 && !f.frames[len(f.frames)-1].inSpec }
func (f *fstate) inSpec() bool { return len(f.frames) > 0 && f.frames[len(f.frames)-1].inSpec }

type lexer struct {
	src     []byte
	pos     int
	toks    []token
	extras  []extra
	err     *Error
	minor   int
	indents []int // CPython columns
	alt     []int // columns with tab size 1, for TabError
	parens  []byte
	parenAt []int
	fs      []fstate
	atBOL   bool
	lastEnd int // end of the last token or extra
	// comment-only lines since the last NEWLINE: indent and end offset
	cmts []cmtLine
	// eofErr: err is a bracket left open at the end of input, which
	// CPython reports only when the parser reaches the end
	eofErr bool
}

type cmtLine struct{ indent, end int }

func (lx *lexer) fail(pos int, format string, args ...any) {
	if lx.err == nil {
		lx.err = mkErr(lx.src, pos, fmt.Sprintf(format, args...))
	}
}

func mkErr(src []byte, pos int, msg string) *Error {
	if pos > len(src) {
		pos = len(src)
	}
	line, ls := 1, 0
	for i := 0; i < pos; i++ {
		// a lone "\r" ends a line too, as CPython reads it
		if src[i] == '\n' || src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			line++
			ls = i + 1
		}
	}
	return &Error{Line: line, Col: utf8.RuneCount(src[ls:pos]) + 1, Msg: msg, Byte: pos}
}

func (lx *lexer) emit(k tokKind, s, e int) {
	// written in place: a token composed as a value and appended was
	// copied through the stack
	n := len(lx.toks)
	if n == cap(lx.toks) {
		lx.toks = slices.Grow(lx.toks, 1)
	}
	lx.toks = lx.toks[:n+1]
	t := &lx.toks[n]
	t.kind, t.start, t.end = k, uint32(s), uint32(e)
	if k != tNewline && k != tIndent && k != tDedent {
		lx.lastEnd = e
	}
}

// tokenize splits src into tokens and extras; it stops at the first error.
func tokenize(src []byte, minor int, bufs *buffers, anyBytes bool) *lexer {
	lx := &lexer{src: src, minor: minor, indents: []int{0}, alt: []int{0}, atBOL: true}
	lx.toks = bufs.toks[:0]
	if cap(lx.toks) < len(src)/4 {
		lx.toks = make([]token, 0, len(src)/4+16)
	}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.pos = 3
		lx.lastEnd = 3
	}
	valid := anyBytes || utf8.Valid(src)
	for lx.err == nil {
		if !lx.next() {
			break
		}
	}
	if !valid {
		// CPython decodes identifiers and strings, never comments: bytes
		// that are not UTF-8 are an error outside comments only
		if i, bad := invalidOutsideComments(src, lx.extras); bad && (lx.err == nil || i <= lx.err.Byte) {
			lx.err, lx.eofErr = nil, false
			lx.fail(i, "(unicode error) 'utf-8' codec can't decode byte")
		}
	}
	if lx.err != nil {
		lx.toks = append(lx.toks, token{kind: tErr, start: uint32(len(src)), end: uint32(len(src))})
	}
	return lx
}

// invalidOutsideComments returns the offset of the first byte of src that
// does not decode as UTF-8 and lies outside the comments among extras
// (sorted by start), and whether there is one.
func invalidOutsideComments(src []byte, extras []extra) (int, bool) {
	k := 0
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			for k < len(extras) && int(extras[k].end) <= i {
				k++
			}
			if k == len(extras) || extras[k].cont || int(extras[k].start) > i {
				return i, true
			}
		}
		i += n
	}
	return 0, false
}

func isIDStart(r rune) bool {
	if r < 0x80 {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// asciiIDStart is isIDStart of the ASCII characters.
var asciiIDStart = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isIDStart(rune(c))
	}
	return t
}()

// asciiIDCont is isIDCont of the ASCII characters.
var asciiIDCont = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isIDCont(rune(c))
	}
	return t
}()

func isIDCont(r rune) bool {
	if r < 0x80 {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return isIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// CPython's tokenizer limits (Parser/tokenizer.c, 3.8-3.14): MAXLEVEL
// open brackets, MAXINDENT indentation levels, MAXFSTRINGLEVEL nested
// f-strings (3.12+, PEP 701).
const (
	maxLevel        = 200
	maxIndent       = 100
	maxFStringLevel = 150
)

// openBracket checks, before the bracket at pos is pushed, that it is not
// one too many ("too many nested parentheses"); it reports false after
// recording the error. Before 3.12 an f-string's expression is tokenized
// on its own, wrapped in parentheses (its "{"): its brackets count from
// there, and CPython's column is counted from that "{".
func (lx *lexer) openBracket(pos int) bool {
	level, from := len(lx.parens), -1
	if lx.minor < 12 && len(lx.fs) > 0 {
		f := &lx.fs[len(lx.fs)-1]
		if f.inExpr() {
			level -= f.depth
			from = lx.parenAt[f.depth]
		}
	}
	if level < maxLevel {
		return true
	}
	lx.fail(pos, "too many nested parentheses")
	if from >= 0 && lx.err != nil && lx.err.Byte == pos {
		lx.err.Col = utf8.RuneCount(lx.src[from:pos]) + 1
	}
	return false
}

// newline ends a logical line: NEWLINE at the end of the last token.
func (lx *lexer) newline() {
	lx.emit(tNewline, lx.lastEnd, lx.lastEnd)
	lx.atBOL = true
	lx.cmts = lx.cmts[:0]
}

// indentation handles the start of a line outside brackets: it skips blank
// and comment-only lines (recording comments) and emits INDENT/DEDENT.
// It returns false at the end of input.
func (lx *lexer) indentation() bool {
	src := lx.src
	for {
		col, alt, i := 0, 0, lx.pos
		for i < len(src) {
			c := src[i]
			if c == ' ' {
				col++
				alt++
			} else if c == '\t' {
				col = (col/8 + 1) * 8
				alt++
			} else if c == '\f' {
				col, alt = 0, 0
			} else {
				break
			}
			i++
		}
		if i >= len(src) {
			lx.pos = i
			return false
		}
		c := src[i]
		if c == '#' {
			j := commentEnd(src, i)
			lx.extras = append(lx.extras, extra{start: uint32(i), end: uint32(j)})
			lx.cmts = append(lx.cmts, cmtLine{indent: col, end: j})
			lx.lastEnd = j
			lx.pos = lineEnd(src, j)
			continue
		}
		if c == '\n' || c == '\r' {
			lx.pos = lineEnd(src, i)
			continue
		}
		if c == '\\' {
			// a continuation at the start of a line: CPython joins it to
			// the next line; treat the line's indent as measured here.
			if e, ok := contEnd(src, i); ok {
				lx.extras = append(lx.extras, extra{start: uint32(i), end: uint32(e), cont: true})
				lx.pos = e
				if lx.minor == 9 {
					// 3.9 takes the line for a blank one: the joined line
					// keeps the current indentation
					return true
				}
				// CPython: the indentation is that of the physical line
				lx.setIndent(col, alt, e)
				return true
			}
		}
		lx.pos = i
		lx.setIndent(col, alt, i)
		return true
	}
}

// contEnd returns the end of the line continuation whose backslash is at
// i: the backslash and its line end ("\n", "\r\n" or a lone "\r", which
// CPython reads as "\n"), and false when no line end follows.
func contEnd(src []byte, i int) (int, bool) {
	j := i + 1
	switch {
	case j+1 < len(src) && src[j] == '\r' && src[j+1] == '\n':
		return j + 2, true
	case j < len(src) && (src[j] == '\n' || src[j] == '\r'):
		return j + 1, true
	}
	return 0, false
}

// commentEnd is where a comment starting at i ends: at the "\n" (tree-sitter's
// comment token, "#.*", takes in a "\r" before it; a lone "\r" ends the
// line for CPython and for tree-sitter's row count alike).
func commentEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		if src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			return i
		}
		i++
	}
	return i
}

func lineEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		if src[i] == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				return i + 2
			}
			return i + 1
		}
		i++
	}
	if i < len(src) {
		i++
	}
	return i
}

func (lx *lexer) setIndent(col, alt, at int) {
	top := lx.indents[len(lx.indents)-1]
	if col == top {
		if alt != lx.alt[len(lx.alt)-1] {
			lx.fail(at, "inconsistent use of tabs and spaces in indentation")
		}
		return
	}
	if col > top {
		if alt <= lx.alt[len(lx.alt)-1] {
			lx.fail(at, "inconsistent use of tabs and spaces in indentation")
			return
		}
		if len(lx.indents) >= maxIndent {
			// CPython's IndentationError, at the start of the line
			ls := at
			for ls > 0 && lx.src[ls-1] != '\n' && lx.src[ls-1] != '\r' {
				ls--
			}
			lx.fail(ls, "too many levels of indentation")
			return
		}
		lx.indents = append(lx.indents, col)
		lx.alt = append(lx.alt, alt)
		lx.emit(tIndent, lx.indentPos(), lx.indentPos())
		return
	}
	// dedent: place each DEDENT where tree-sitter's scanner does
	n := 0
	for n < len(lx.indents) && lx.indents[len(lx.indents)-1-n] > col {
		n++
	}
	if lx.indents[len(lx.indents)-1-n] != col {
		lx.fail(at, "unindent does not match any outer indentation level")
		return
	}
	if lx.alt[len(lx.alt)-1-n] != alt {
		lx.fail(at, "inconsistent use of tabs and spaces in indentation")
		return
	}
	lx.dedentTo(col)
}

// indentPos is where the scanner puts an INDENT: the end of the token
// before the comment lines that precede it.
func (lx *lexer) indentPos() int {
	if len(lx.cmts) > 0 {
		return lx.newlinePos()
	}
	return lx.lastEnd
}

// newlinePos is the position of the last NEWLINE.
func (lx *lexer) newlinePos() int {
	for i := len(lx.toks) - 1; i >= 0; i-- {
		if lx.toks[i].kind == tNewline {
			return int(lx.toks[i].start)
		}
	}
	return 0
}

// dedentTo pops indents above col. tree-sitter emits a DEDENT before a run
// of comment lines while the current indent exceeds the next comment's
// indent, the rest after the last comment.
func (lx *lexer) dedentTo(col int) {
	pos := lx.newlinePos()
	if len(lx.toks) == 0 {
		pos = lx.lastEnd
	}
	for _, c := range lx.cmts {
		for len(lx.indents) > 1 && lx.indents[len(lx.indents)-1] > col && lx.indents[len(lx.indents)-1] > c.indent {
			lx.pop(pos)
		}
		pos = c.end
	}
	for len(lx.indents) > 1 && lx.indents[len(lx.indents)-1] > col {
		lx.pop(pos)
	}
}

func (lx *lexer) pop(pos int) {
	lx.indents = lx.indents[:len(lx.indents)-1]
	lx.alt = lx.alt[:len(lx.alt)-1]
	lx.toks = append(lx.toks, token{kind: tDedent, start: uint32(pos), end: uint32(pos)})
}

// next scans one token; it returns false at the end of input.
func (lx *lexer) next() bool {
	src := lx.src
	if len(lx.fs) > 0 && !lx.fs[len(lx.fs)-1].inExpr() {
		lx.fstringBody()
		return lx.err == nil
	}
	if lx.atBOL && len(lx.parens) == 0 && len(lx.fs) == 0 {
		lx.atBOL = false
		if !lx.indentation() {
			return lx.finish()
		}
	}
	// skip blanks
	for lx.pos < len(src) {
		c := src[lx.pos]
		if c == ' ' || c == '\t' || c == '\f' {
			lx.pos++
			continue
		}
		if c == '\\' {
			if len(lx.fs) > 0 && lx.minor < 12 {
				lx.fail(lx.pos, "f-string expression part cannot include a backslash")
				return false
			}
			j := lx.pos + 1
			if e, ok := contEnd(src, lx.pos); ok {
				lx.extras = append(lx.extras, extra{start: uint32(lx.pos), end: uint32(e), cont: true})
				bs := lx.pos
				lx.pos = e
				if lx.pos >= len(src) {
					if lx.minor < 12 && e-bs == 3 {
						// before 3.12 "\\\r\n" may end the input (not
						// "\\\n" or "\\\r")
						return lx.finish()
					}
					lx.fail(bs+1, "unexpected EOF while parsing")
					return false
				}
				continue
			}
			if j >= len(src) {
				lx.fail(lx.pos, "unexpected EOF while parsing")
				return false
			}
			lx.fail(lx.pos+1, "unexpected character after line continuation character")
			return false
		}
		break
	}
	if lx.pos >= len(src) {
		return lx.finish()
	}
	s := lx.pos
	c := src[s]
	switch {
	case c == '#':
		j := commentEnd(src, s)
		if len(lx.fs) > 0 && lx.minor < 12 {
			lx.fail(s, "f-string expression part cannot include '#'")
			return false
		}
		lx.extras = append(lx.extras, extra{start: uint32(s), end: uint32(j)})
		lx.lastEnd = j
		lx.pos = j
		return true
	case c == '\n' || c == '\r':
		lx.pos = lineEnd(src, s)
		if len(lx.parens) == 0 && len(lx.fs) == 0 {
			lx.newline()
		} else if len(lx.fs) > 0 && !lx.fs[len(lx.fs)-1].triple && lx.minor < 12 {
			lx.fail(s, "unterminated f-string literal")
			return false
		}
		return true
	case c >= '0' && c <= '9' || c == '.' && s+1 < len(src) && src[s+1] >= '0' && src[s+1] <= '9':
		return lx.number(s)
	case c == '"' || c == '\'':
		return lx.str(s, s)
	}
	if c < utf8.RuneSelf && !asciiIDStart[c] {
		return lx.op(s)
	}
	n := 1 // an ASCII name start, most names: no decoding
	if c >= utf8.RuneSelf {
		var r rune
		r, n = utf8.DecodeRune(src[s:])
		if !isIDStart(r) {
			if r == 0xFEFF {
				lx.fail(s, "invalid non-printable character U+FEFF")
			} else {
				lx.fail(s, "invalid character '%c' (U+%04X)", r, r)
			}
			return false
		}
	}
	e := s + n
	for e < len(src) {
		if c := src[e]; c < utf8.RuneSelf {
			// ASCII, most names: isIDCont without decoding
			if !asciiIDCont[c] {
				break
			}
			e++
			continue
		}
		r, n := utf8.DecodeRune(src[e:])
		if !isIDCont(r) {
			break
		}
		e += n
	}
	if e < len(src) && (src[e] == '"' || src[e] == '\'') && isStrPrefix(src[s:e], lx.minor) {
		return lx.str(s, e)
	}
	lx.emit(tName, s, e)
	lx.pos = e
	return true
}

func isStrPrefix(p []byte, minor int) bool {
	if len(p) > 2 {
		return false
	}
	var r, b, u, f, t int
	for _, c := range p {
		switch c | 0x20 {
		case 'r':
			r++
		case 'b':
			b++
		case 'u':
			u++
		case 'f':
			f++
		case 't':
			t++
		default:
			return false
		}
	}
	if r > 1 || b > 1 || u > 1 || f > 1 || t > 1 {
		return false
	}
	if u == 1 && len(p) > 1 {
		return false
	}
	if t == 1 && minor < 14 {
		return false
	}
	return b+f+t <= 1
}

// finish ends the input: NEWLINE if a line is open, DEDENTs, and errors for
// open brackets and strings.
func (lx *lexer) finish() bool {
	if len(lx.fs) > 0 {
		lx.fail(len(lx.src), "unterminated f-string literal")
		return false
	}
	if len(lx.parens) > 0 {
		lx.eofErr = lx.err == nil
		lx.fail(lx.parenAt[len(lx.parenAt)-1], "'%c' was never closed", lx.parens[len(lx.parens)-1])
		return false
	}
	n := len(lx.toks)
	if n > 0 && lx.toks[n-1].kind != tNewline && lx.toks[n-1].kind != tDedent && lx.toks[n-1].kind != tIndent {
		lx.emit(tNewline, lx.lastEnd, lx.lastEnd)
		lx.cmts = lx.cmts[:0]
	}
	lx.dedentTo(0)
	lx.toks = append(lx.toks, token{kind: tEOF, start: uint32(len(lx.src)), end: uint32(len(lx.src))})
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits scans digits accepted by ok with single underscores between them;
// it returns the end and whether a bad underscore was met.
func (lx *lexer) digits(i int, ok func(byte) bool) (int, bool) {
	src := lx.src
	for i < len(src) {
		if ok(src[i]) {
			i++
			continue
		}
		if src[i] == '_' {
			if i+1 < len(src) && ok(src[i+1]) {
				i++
				continue
			}
			lx.fail(i, "invalid decimal literal")
			return i, false
		}
		break
	}
	return i, true
}

func (lx *lexer) number(s int) bool {
	src := lx.src
	i := s
	isHex := func(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
	if src[i] == '0' && i+1 < len(src) && (src[i+1]|0x20 == 'x' || src[i+1]|0x20 == 'o' || src[i+1]|0x20 == 'b') {
		var ok func(byte) bool
		name := "hexadecimal"
		switch src[i+1] | 0x20 {
		case 'x':
			ok = isHex
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
			name = "octal"
		default:
			ok = func(c byte) bool { return c == '0' || c == '1' }
			name = "binary"
		}
		i += 2
		if i < len(src) && src[i] == '_' {
			i++
		}
		if i >= len(src) || !ok(src[i]) {
			if i < len(src) && isDigit(src[i]) {
				lx.fail(i, "invalid digit '%c' in %s literal", src[i], name)
			} else {
				lx.fail(i, "invalid %s literal", name)
			}
			return false
		}
		var good bool
		if i, good = lx.digits(i, ok); !good {
			return false
		}
		if i < len(src) && isDigit(src[i]) {
			lx.fail(i, "invalid digit '%c' in %s literal", src[i], name)
			return false
		}
		return lx.numEnd(s, i)
	}
	isFloat := false
	if src[i] != '.' {
		var good bool
		if i, good = lx.digits(i, isDigit); !good {
			return false
		}
	}
	if i < len(src) && src[i] == '.' {
		isFloat = true
		i++
		if i < len(src) && isDigit(src[i]) {
			var good bool
			if i, good = lx.digits(i, isDigit); !good {
				return false
			}
		}
	}
	if i < len(src) && src[i]|0x20 == 'e' {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			var good bool
			if i, good = lx.digits(j, isDigit); !good {
				return false
			}
			isFloat = true
		} else if j == i+1 && src[i] == 'e' && bytes.HasPrefix(src[j:], []byte("lse")) {
			// "1else": CPython ends the number before the "e" of "else"
			// (tokenizer.c verify_end_of_number)
		} else {
			lx.fail(i, "invalid decimal literal")
			return false
		}
	}
	if i < len(src) && src[i]|0x20 == 'j' {
		i++
	} else if !isFloat {
		// leading zeros in a non-zero decimal integer
		t := src[s:i]
		if len(t) > 1 && t[0] == '0' {
			for _, c := range t {
				if c != '0' && c != '_' {
					lx.fail(s, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
					return false
				}
			}
		}
	}
	return lx.numEnd(s, i)
}

func (lx *lexer) numEnd(s, i int) bool {
	src := lx.src
	if i < len(src) {
		r, _ := utf8.DecodeRune(src[i:])
		if isIDCont(r) && !(r == '_') {
			// CPython accepts "1if x else y" (a keyword right after a
			// number, with a warning) but not other names
			if !lx.kwAfterNumber(i) {
				lx.fail(i, "invalid decimal literal")
				return false
			}
		} else if r == '_' {
			lx.fail(i, "invalid decimal literal")
			return false
		}
	}
	lx.emit(tNumber, s, i)
	lx.pos = i
	return true
}

func (lx *lexer) kwAfterNumber(i int) bool {
	for _, kw := range []string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if hasWord(lx.src[i:], kw) {
			return true
		}
	}
	return false
}

func hasWord(b []byte, w string) bool {
	if len(b) < len(w) || string(b[:len(w)]) != w {
		return false
	}
	if len(b) == len(w) {
		return true
	}
	r, _ := utf8.DecodeRune(b[len(w):])
	return !isIDCont(r)
}

// str scans a string literal starting at s whose quote is at q.
func (lx *lexer) str(s, q int) bool {
	src := lx.src
	raw, fmtStr := false, false
	for _, c := range src[s:q] {
		switch c | 0x20 {
		case 'r':
			raw = true
		case 'f', 't':
			fmtStr = true
		}
	}
	// tree-sitter's scanner swallows line continuations right before a
	// string's start: they make no node
	for n := len(lx.extras); n > 0 && lx.extras[n-1].cont && onlyBlanks(src[lx.extras[n-1].end:s]); n-- {
		lx.extras = lx.extras[:n-1]
	}
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	if len(lx.fs) > 0 && lx.minor < 12 {
		// before PEP 701 a nested string may not use the quote that
		// ends the enclosing f-string
		for _, f := range lx.fs {
			if f.quote == quote && (!f.triple || triple) {
				lx.fail(q, "f-string: expecting '}'")
				return false
			}
		}
	}
	open := q + 1
	if triple {
		open = q + 3
	}
	if fmtStr {
		lx.emit(tFStart, s, open)
		if lx.minor >= 12 && len(lx.fs)+1 >= maxFStringLevel {
			lx.fail(open-1, "too many nested f-strings")
			return false
		}
		lx.fs = append(lx.fs, fstate{quote: quote, triple: triple, raw: raw, depth: len(lx.parens)})
		lx.pos = open
		return true
	}
	i := open
	for {
		if i >= len(src) {
			if triple {
				lx.fail(s, "unterminated triple-quoted string literal (detected at line %d)", lineOf(src, len(src)))
			} else {
				lx.fail(s, "unterminated string literal (detected at line %d)", lineOf(src, s))
			}
			return false
		}
		c := src[i]
		if c == '\\' {
			i += 2
			if i > len(src) {
				i = len(src)
			}
			if src[i-1] == '\r' && i < len(src) && src[i] == '\n' {
				i++
			}
			continue
		}
		if (c == '\n' || c == '\r') && !triple {
			lx.fail(s, "unterminated string literal (detected at line %d)", lineOf(src, s))
			return false
		}
		if c == quote {
			if !triple {
				i++
				break
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				i += 3
				break
			}
		}
		i++
	}
	if len(lx.fs) > 0 && lx.minor < 12 && bytes.IndexByte(src[s:i], '\\') >= 0 {
		lx.fail(s, "f-string expression part cannot include a backslash")
		return false
	}
	lx.emit(tString, s, i)
	lx.pos = i
	return true
}

func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\f' && c != '\\' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

func lineOf(src []byte, pos int) int {
	n := 1
	for _, c := range src[:pos] {
		if c == '\n' {
			n++
		}
	}
	return n
}

// fstringBody scans literal text of the innermost f-string up to an
// interpolation, the closing quote, or the end of a format spec.
func (lx *lexer) fstringBody() {
	src := lx.src
	f := &lx.fs[len(lx.fs)-1]
	s := lx.pos
	i := s
	for {
		if i >= len(src) {
			lx.fail(s, "unterminated f-string literal")
			return
		}
		c := src[i]
		if !f.inSpec() && c == f.quote && (!f.triple || i+2 < len(src) && src[i+1] == c && src[i+2] == c) {
			if i > s {
				lx.emit(tFMiddle, s, i)
			}
			n := 1
			if f.triple {
				n = 3
			}
			lx.emit(tFEnd, i, i+n)
			lx.pos = i + n
			lx.fs = lx.fs[:len(lx.fs)-1]
			return
		}
		if c == '\\' && !f.raw {
			if i+2 < len(src) && src[i+1] == 'N' && src[i+2] == '{' {
				// \N{NAME} is an escape, not an interpolation
				j := i + 3
				for j < len(src) && src[j] != '}' && src[j] != f.quote && src[j] != '\n' {
					j++
				}
				if j < len(src) && src[j] == '}' {
					i = j + 1
					continue
				}
			}
			if i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '}') {
				i++ // "\{" is a backslash then an interpolation
				continue
			}
			i += 2
			continue
		}
		if c == '\\' && f.raw {
			// a backslash keeps the next character in the literal,
			// except an interpolation's brace
			if i+1 < len(src) && src[i+1] != '{' && src[i+1] != '}' && src[i+1] != '\n' {
				i += 2
				continue
			}
			i++
			continue
		}
		if (c == '\n' || c == '\r') && !f.triple {
			lx.fail(s, "unterminated f-string literal (detected at line %d)", lineOf(src, s))
			return
		}
		if c == '{' {
			if i+1 < len(src) && src[i+1] == '{' && !f.inSpec() {
				i += 2
				continue
			}
			if i > s {
				lx.emit(tFMiddle, s, i)
			}
			if lx.minor >= 12 && !lx.openBracket(i) {
				// before 3.12 the "{" starts a sub-tokenizer's count
				return
			}
			lx.emit(tOp, i, i+1)
			lx.parens = append(lx.parens, '{')
			lx.parenAt = append(lx.parenAt, i)
			f.frames = append(f.frames, iframe{depth: len(lx.parens)})
			lx.pos = i + 1
			return
		}
		if c == '}' {
			if f.inSpec() {
				if i > s {
					lx.emit(tFMiddle, s, i)
				}
				// closes the interpolation that holds the spec
				lx.emit(tOp, i, i+1)
				lx.closeBracket(i)
				f.frames = f.frames[:len(f.frames)-1]
				lx.pos = i + 1
				return
			}
			if i+1 < len(src) && src[i+1] == '}' {
				i += 2
				continue
			}
			lx.fail(i, "f-string: single '}' is not allowed")
			return
		}
		i++
	}
}

func (lx *lexer) closeBracket(i int) {
	if n := len(lx.parens); n > 0 {
		lx.parens = lx.parens[:n-1]
		lx.parenAt = lx.parenAt[:n-1]
	}
}

// opLen is the length of the operator at the start of rest (0 when none of
// the multi-character operators): the longest match, as CPython's tokenizer.
func opLen(rest []byte) int {
	if len(rest) < 2 {
		return 0
	}
	c, d := rest[0], rest[1]
	three := len(rest) >= 3 && rest[2] == '='
	switch c {
	case '*':
		if d == '*' {
			if three {
				return 3
			}
			return 2
		}
		if d == '=' {
			return 2
		}
	case '/':
		if d == '/' {
			if three {
				return 3
			}
			return 2
		}
		if d == '=' {
			return 2
		}
	case '>':
		if d == '>' {
			if three {
				return 3
			}
			return 2
		}
		if d == '=' {
			return 2
		}
	case '<':
		if d == '<' {
			if three {
				return 3
			}
			return 2
		}
		if d == '=' {
			return 2
		}
	case '.':
		if d == '.' && len(rest) >= 3 && rest[2] == '.' {
			return 3
		}
	case '-':
		if d == '=' || d == '>' {
			return 2
		}
	case ':':
		if d == '=' {
			return 2
		}
	case '!', '%', '&', '+', '=', '@', '^', '|':
		if d == '=' {
			return 2
		}
	}
	return 0
}

func (lx *lexer) op(s int) bool {
	src := lx.src
	rest := src[s:]
	if src[s] == ':' && len(lx.fs) > 0 {
		// at an interpolation's own depth ":" always opens the format
		// spec, even before "=" (f'{x:=10}' formats x with "=10")
		f := &lx.fs[len(lx.fs)-1]
		if f.inExpr() && len(lx.parens) == f.frames[len(f.frames)-1].depth {
			lx.emit(tOp, s, s+1)
			f.frames[len(f.frames)-1].inSpec = true
			lx.pos = s + 1
			return true
		}
	}
	n := opLen(rest)
	c := src[s]
	if n == 0 {
		switch c {
		case '(', '[', '{':
			if !lx.openBracket(s) {
				return false
			}
			lx.parens = append(lx.parens, c)
			lx.parenAt = append(lx.parenAt, s)
			n = 1
		case ')', ']', '}':
			if len(lx.fs) > 0 {
				f := &lx.fs[len(lx.fs)-1]
				if f.inExpr() && len(lx.parens) == f.frames[len(f.frames)-1].depth {
					if c != '}' {
						lx.fail(s, "f-string: unmatched '%c'", c)
						return false
					}
					lx.emit(tOp, s, s+1)
					lx.closeBracket(s)
					f.frames = f.frames[:len(f.frames)-1]
					lx.pos = s + 1
					return true
				}
			}
			if len(lx.parens) == 0 {
				lx.fail(s, "unmatched '%c'", c)
				return false
			}
			open := lx.parens[len(lx.parens)-1]
			if open == '(' && c != ')' || open == '[' && c != ']' || open == '{' && c != '}' {
				lx.fail(s, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open)
				return false
			}
			lx.closeBracket(s)
			n = 1
		case ':', '!':
			if len(lx.fs) > 0 {
				f := &lx.fs[len(lx.fs)-1]
				if f.inExpr() && len(lx.parens) == f.frames[len(f.frames)-1].depth {
					if c == ':' && !(s+1 < len(src) && src[s+1] == '=') {
						lx.emit(tOp, s, s+1)
						f.frames[len(f.frames)-1].inSpec = true
						lx.pos = s + 1
						return true
					}
				}
			}
			if c == '!' {
				if s+1 < len(src) && src[s+1] == '=' {
					n = 2
				} else if len(lx.fs) > 0 {
					n = 1
				} else {
					lx.fail(s, "invalid syntax")
					return false
				}
			} else {
				n = 1
			}
		case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '=', '.', ',', ';':
			n = 1
		default:
			r, _ := utf8.DecodeRune(rest)
			if r == '$' || r == '?' || r == '`' {
				lx.fail(s, "invalid syntax")
			} else if unicode.IsPrint(r) {
				lx.fail(s, "invalid character '%c' (U+%04X)", r, r)
			} else {
				lx.fail(s, "invalid non-printable character U+%04X", r)
			}
			return false
		}
	}
	lx.emit(tOp, s, s+n)
	lx.pos = s + n
	return true
}
