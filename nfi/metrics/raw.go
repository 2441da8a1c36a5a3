package metrics

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/polynfi/polynfi/syntax"
)

// Raw holds radon's raw line counts of one Python file. SLOC + Multi +
// SingleComments + Blank = LOC always holds.
//
// Source: radon 6.0.1 radon/raw.py analyze; radon docs "Raw metrics"
// (https://radon.readthedocs.io/en/latest/intro.html#raw-metrics).
type Raw struct {
	// LOC is the total number of lines (the sum of the four kinds below;
	// lines are split as Python's str.splitlines splits them, so a form
	// feed also ends a line).
	LOC int `json:"loc"`
	// LLOC is the number of logical lines: statements, where a compound
	// statement with its body on the same line (`if x: y`) counts 2 and
	// statements separated by `;` count one each.
	LLOC int `json:"lloc"`
	// SLOC is the number of source lines: non-blank lines of every
	// statement that is not a lone comment or a lone string.
	SLOC int `json:"sloc"`
	// Comments is the number of comment tokens (a comment after code counts).
	Comments int `json:"comments"`
	// Multi is the number of non-blank lines of statements that are a lone
	// string spanning several lines (docstrings and the like).
	Multi int `json:"multi"`
	// Blank is the number of blank (whitespace-only) lines, including blank
	// lines inside multi-line strings.
	Blank int `json:"blank"`
	// SingleComments is the number of lines holding only a comment or only
	// a one-line string statement.
	SingleComments int `json:"single_comments"`
}

// token kinds the raw analysis needs to tell apart
const (
	rtOther = iota
	rtComment
	rtString
	rtColon
	rtSemi
)

// rawGroup accumulates, token by token, what radon derives from the token
// list of one group of lines: the number of tokens, the first token, the
// comments and the logical lines (radon's _logical, computed as the tokens
// come rather than over a stored list).
type rawGroup struct {
	ntoks    int
	first    uint8 // kind of the first token
	firstRow int   // start and end rows of the first token
	firstEnd int
	comments int
	lloc     int // logical lines of the finished `;`-separated parts
	n        int // tokens of the current part, comments excluded
	colon    int // index in the part of its last `:`, -1 when none
}

// addOther records one token on row that is not a comment, string, `:` or
// `;` (the most common case of add, kept small enough to inline).
func (g *rawGroup) addOther(row int) {
	if g.ntoks == 0 {
		g.first, g.firstRow, g.firstEnd = rtOther, row, row
	}
	g.ntoks++
	g.n++
}

// saturated reports whether more tokens other than comments, strings,
// `:` and `;` can no longer change what the group contributes: the group
// is not a lone comment or string (it has two tokens, or its first is a
// name, number or operator other than `:` and `;`: finishGroup looks at
// ntoks only when the first token is a comment or string), its current part
// has one token (it counts; n ≥ 1 also means the group has one), and two
// follow the part's last `:` if it has one (endPart compares the colon's
// index only with the part's last two). Tokens may then go uncounted: ntoks
// and n stay at or above these bounds and n−colon exact where it matters.
func (g *rawGroup) saturated() bool {
	return (g.ntoks >= 2 || g.first == rtOther) && g.n >= 1 && (g.colon < 0 || g.n-g.colon >= 3)
}

// add records one token of kind spanning rows startRow to endRow.
func (g *rawGroup) add(kind uint8, startRow, endRow int) {
	if g.ntoks == 0 {
		g.first, g.firstRow, g.firstEnd = kind, startRow, endRow
	}
	g.ntoks++
	switch kind {
	case rtComment:
		g.comments++
	case rtSemi:
		g.endPart(false)
	case rtColon:
		g.colon = g.n
		g.n++
	default:
		g.n++
	}
}

// endPart is radon's _logical for one `;`-separated part: 1 when the
// part's last `:` is its final token, 2 when code follows that `:`, else 1
// for a part with any code and 0 for an empty one. The final part carries
// tokenize's ENDMARKER, which the "final token" test counts.
func (g *rawGroup) endPart(last bool) {
	size := g.n
	if last {
		size++ // ENDMARKER
	}
	switch {
	case g.colon >= 0 && g.colon == size-2:
		g.lloc++
	case g.colon >= 0:
		g.lloc += 2
	case g.n > 0:
		g.lloc++
	}
	g.n, g.colon = 0, -1
}

// rawScanner reproduces, for one logical group of stripped lines, what
// Python's tokenize module reports to radon.
type rawScanner struct {
	g        rawGroup
	triple   byte // quote char of an open triple-quoted string, 0 if none
	single   byte // quote char of an open backslash-continued string
	strStart int
	parenlev int
	cont     bool // backslash continuation
}

// RawMetrics computes radon's raw metrics of Python source (UTF-8; "\r\n"
// and "\r" count as newlines). Like radon, it re-tokenizes the source one
// group of stripped lines at a time (a group extends while a string, bracket
// or backslash continuation is open). It returns an error naming the line
// when a group never closes or holds a character Python cannot tokenize,
// where radon raises SyntaxError.
//
// Source: radon 6.0.1 radon/raw.py (analyze, _get_all_tokens, _logical,
// is_single_token); CPython 3.11 Lib/tokenize.py for the token grammar.
func RawMetrics(src []byte) (Raw, error) { return rawMetrics(src, nil) }

// RawMetricsTree is RawMetrics(t.Source), which it computes with the line
// starts the tree already knows (syntax.Tree.LineStarts) when "\n" is the
// source's only line break.
func RawMetricsTree(t *syntax.Tree) (Raw, error) { return rawMetrics(t.Source, t.LineStarts()) }

// rawMetrics is RawMetrics; starts, when not empty, holds the offset of the
// start of every "\n"-separated line of src.
func rawMetrics(src []byte, starts []uint32) (Raw, error) {
	var r Raw
	var sc rawScanner
	groupStart, nonEmpty, empty := 0, 0, 0
	row := 0
	pos := 0
	// Only \n ends lines in most files: then the next line break is the
	// next \n, found without looking at every byte.
	onlyLF := true
	for _, sep := range otherLineBreaks {
		if bytes.Contains(src, sep) {
			onlyLF = false
			break
		}
	}
	for pos < len(src) {
		var end, next int
		switch {
		case onlyLF && row+1 < len(starts): // (row counts the lines before this one)
			next = int(starts[row+1])
			end = next - 1
		case onlyLF && len(starts) > 0: // the last line
			end, next = len(src), len(src)
		case onlyLF:
			if k := bytes.IndexByte(src[pos:], '\n'); k >= 0 {
				end, next = pos+k, pos+k+1
			} else {
				end, next = len(src), len(src)
			}
		default:
			end, next = nextLine(src, pos)
		}
		line := pyStrip(src[pos:end])
		pos = next
		row++
		if sc.closed() {
			groupStart = row
			nonEmpty, empty = 0, 0
			sc.g = rawGroup{colon: -1}
		}
		if len(line) == 0 {
			empty++
		} else {
			nonEmpty++
		}
		if err := sc.line(line, row); err != nil {
			return r, fmt.Errorf("line %d: %w", row, err)
		}
		if !sc.closed() {
			continue
		}
		r.finishGroup(&sc.g, nonEmpty, empty)
	}
	if row > 0 && !sc.closed() {
		return r, fmt.Errorf("line %d: statement or string starting here never ends", groupStart)
	}
	r.LOC = r.SLOC + r.Blank + r.Multi + r.SingleComments
	return r, nil
}

func (sc *rawScanner) closed() bool {
	return sc.triple == 0 && sc.single == 0 && sc.parenlev == 0 && !sc.cont
}

func (r *Raw) finishGroup(g *rawGroup, nonEmpty, empty int) {
	r.Comments += g.comments
	switch {
	case g.ntoks == 1 && g.first == rtComment:
		r.SingleComments++
	case g.ntoks == 1 && g.first == rtString:
		if g.firstRow == g.firstEnd {
			r.SingleComments++
		} else {
			r.Multi += nonEmpty
			r.Blank += empty
		}
	default:
		r.SLOC += nonEmpty
		r.Blank += empty
	}
	g.endPart(true)
	r.LLOC += g.lloc
}

// line tokenizes one stripped line of the current group.
func (sc *rawScanner) line(s []byte, row int) error {
	i := 0
	switch {
	case sc.triple != 0:
		end, ok := scanTriple(s, 0, sc.triple)
		if !ok {
			return nil
		}
		sc.g.add(rtString, sc.strStart, row)
		sc.triple = 0
		i = end
	case sc.single != 0:
		end, ok, _ := scanSingle(s, 0, sc.single)
		if !ok {
			if len(s) > 0 && s[len(s)-1] == '\\' {
				return nil
			}
			return fmt.Errorf("unterminated string")
		}
		sc.g.add(rtString, sc.strStart, row)
		sc.single = 0
		i = end
	case sc.parenlev == 0 && !sc.cont:
		if len(s) > 0 && s[0] == '#' {
			sc.g.add(rtComment, row, row)
			return nil
		}
	default:
		sc.cont = false
	}
	for i < len(s) {
		if sc.g.saturated() {
			// Only brackets, colons, semicolons, strings, comments,
			// continuations and bytes that may not tokenize can change the
			// counts now: skip the names, numbers, operators and spaces
			// before the next of those. Brackets, the commonest of those,
			// keep the group saturated (addOther only raises the counts):
			// they are counted here, without the dispatch below and a
			// new saturation test.
		skip:
			for {
				for i < len(s) && plainByte[s[i]] {
					i++
				}
				if i == len(s) {
					return nil
				}
				switch rawClass[s[i]] {
				case rcOpen:
					sc.parenlev++
				case rcClose:
					sc.parenlev--
				default:
					break skip
				}
				sc.g.addOther(row)
				i++
			}
		}
		c := s[i]
		class := rawClass[c]
		switch class {
		case rcSpace:
			i++
			continue
		case rcHash:
			sc.g.add(rtComment, row, row)
			return nil
		case rcBackslash:
			if i == len(s)-1 {
				sc.cont = true
				return nil
			}
			return fmt.Errorf("unexpected character after line continuation")
		case rcOpen: // ( [ {: always a one-byte operator
			sc.parenlev++
			sc.g.addOther(row)
			i++
			continue
		case rcClose: // ) ] }
			sc.parenlev--
			sc.g.addOther(row)
			i++
			continue
		case rcComma:
			sc.g.addOther(row)
			i++
			continue
		case rcDot:
			if !(i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
				break // an operator
			}
			fallthrough
		case rcDigit:
			i = scanNumber(s, i)
			sc.g.addOther(row)
			continue
		case rcQuote, rcPrefix:
			q, n := stringPrefix(s, i)
			if q == 0 {
				break // a name starting with b, r, u or f
			}
			start := i + n
			if start+2 < len(s) && s[start+1] == q && s[start+2] == q {
				end, ok := scanTriple(s, start+3, q)
				if !ok {
					sc.triple, sc.strStart = q, row
					return nil
				}
				sc.g.add(rtString, row, row)
				i = end
				continue
			}
			end, ok, cont := scanSingle(s, start+1, q)
			switch {
			case ok:
				sc.g.add(rtString, row, row)
				i = end
				continue
			case cont:
				sc.single, sc.strStart = q, row
				return nil
			}
			return fmt.Errorf("unterminated string")
		}
		if class == rcWord || class == rcPrefix || class == rcHigh && startsWord(s[i:]) {
			if class == rcHigh {
				_, size := utf8.DecodeRune(s[i:])
				i += size
			} else {
				i++
			}
			for {
				for i < len(s) && wordByte[s[i]] {
					i++
				}
				if i == len(s) || s[i] < utf8.RuneSelf {
					break
				}
				r, size := utf8.DecodeRune(s[i:])
				if !isWordRune(r) {
					break
				}
				i += size
			}
			sc.g.addOther(row)
			continue
		}
		n := operatorLen(s, i)
		if n == 0 {
			r, _ := utf8.DecodeRune(s[i:])
			return fmt.Errorf("character %q cannot be tokenized", r)
		}
		kind := uint8(rtOther) // (brackets and commas are handled above)
		switch {
		case n == 1 && c == ':':
			kind = rtColon
		case n == 1 && c == ';':
			kind = rtSemi
		}
		sc.g.add(kind, row, row)
		i += n
	}
	return nil
}

// wordByte marks the ASCII bytes isWordRune accepts (bytes ≥ 0x80 are
// false: they start a multi-byte rune that needs decoding).
var wordByte = func() (t [256]bool) {
	copy(t[:], asciiWord[:])
	return t
}()

// plainByte marks the bytes that a saturated group skips (see
// rawGroup.saturated): ASCII letters, digits and _, spaces, tabs and form
// feeds, and the operator bytes + - * / % & | ^ ~ < > = . , @. Any run of
// them tokenizes without error into names, numbers and operators other than
// brackets, `:` and `;`; a quote after name letters (a string prefix)
// starts a string either way.
var plainByte = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = asciiWord[c] || strings.IndexByte(" \t\f+-*/%&|^~<>=.,@", byte(c)) >= 0
	}
	return t
}()

// byte classes of rawScanner.line's dispatch
const (
	rcOther     = iota // operators, delimiters and bytes that cannot start a token
	rcSpace            // space, tab, form feed
	rcHash             // #
	rcBackslash        // \
	rcDigit            // 0-9
	rcDot              // .
	rcQuote            // ' and "
	rcPrefix           // b r u f in either case: a string prefix or a name
	rcWord             // the other ASCII letters and _
	rcHigh             // a byte of a multi-byte UTF-8 sequence
	rcOpen             // ( [ {
	rcClose            // ) ] }
	rcComma            // ,
)

// rawClass maps each byte to its rc class.
var rawClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = rcHigh
		case c == ' ' || c == '\t' || c == '\f':
			t[c] = rcSpace
		case c == '#':
			t[c] = rcHash
		case c == '\\':
			t[c] = rcBackslash
		case c >= '0' && c <= '9':
			t[c] = rcDigit
		case c == '.':
			t[c] = rcDot
		case c == '\'' || c == '"':
			t[c] = rcQuote
		case strings.IndexByte("bBrRuUfF", byte(c)) >= 0:
			t[c] = rcPrefix
		case asciiWord[c]:
			t[c] = rcWord
		case c == '(' || c == '[' || c == '{':
			t[c] = rcOpen
		case c == ')' || c == ']' || c == '}':
			t[c] = rcClose
		case c == ',':
			t[c] = rcComma
		}
	}
	return t
}()

// scanTriple finds the end of a triple-quoted string body starting at i;
// a backslash escapes the next character on the same line. It looks for the
// next quote with bytes.IndexByte and then for a backslash before it, the
// first of the two that a byte-by-byte scan would meet (most lines of a
// docstring hold neither).
func scanTriple(s []byte, i int, q byte) (int, bool) {
	for i < len(s) {
		j := bytes.IndexByte(s[i:], q)
		if j < 0 {
			return 0, false
		}
		if k := bytes.IndexByte(s[i:i+j], '\\'); k >= 0 {
			i += k + 2 // (≤ the quote's index: the loop looks at it again)
			continue
		}
		j += i
		if j+2 < len(s) && s[j+1] == q && s[j+2] == q {
			return j + 3, true
		}
		i = j + 1
	}
	return 0, false
}

// scanSingle finds the closing quote of a one-quote string body starting at
// i. cont reports a backslash as the line's last character, which continues
// the string on the next line. (One-line strings are short: a byte loop
// beats scanTriple's bytes.IndexByte calls here.)
func scanSingle(s []byte, i int, q byte) (end int, ok, cont bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			if i == len(s)-1 {
				return 0, false, true
			}
			i += 2
			continue
		case q:
			return i + 1, true, false
		}
		i++
	}
	return 0, false, false
}

// stringPrefix reports the quote of a string literal starting at i (after a
// valid prefix of n bytes: b, r, u, f, br, rb, fr, rf in any case), or 0.
func stringPrefix(s []byte, i int) (q byte, n int) {
	for n = 0; n <= 2 && i+n < len(s); n++ {
		c := s[i+n]
		if c == '\'' || c == '"' {
			if validPrefix(s[i : i+n]) {
				return c, n
			}
			return 0, 0
		}
		switch c | 0x20 {
		case 'b', 'r', 'u', 'f':
		default:
			return 0, 0
		}
	}
	return 0, 0
}

func validPrefix(p []byte) bool {
	switch len(p) {
	case 0, 1:
		return true
	case 2:
		a, b := p[0]|0x20, p[1]|0x20
		return a == 'r' && (b == 'b' || b == 'f') || b == 'r' && (a == 'b' || a == 'f')
	}
	return false
}

// startsWord reports whether s starts with a rune isWordRune accepts.
func startsWord(s []byte) bool {
	r, _ := utf8.DecodeRune(s)
	return isWordRune(r)
}

// asciiWord marks the ASCII bytes isWordRune accepts.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isWordRune(rune(c))
	}
	return t
}()

// isWordRune reports a rune that can be part of a name token: the
// characters of Python identifiers (XID_Continue: letters, letter and
// decimal numbers, combining marks Mn and Mc, connector punctuation Pc and
// Unicode's Other_ID_Start/Other_ID_Continue, e.g. U+00B7), plus other
// numbers (No), which NFKC may turn into digits. Source: Python reference
// "Identifiers and keywords"; issue #18 (names with combining marks, which
// CPython and radon cc accept, failed the raw analysis).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsNumber(r) ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc, unicode.Other_ID_Start, unicode.Other_ID_Continue))
}

// operatorLen returns the length of the Python operator or delimiter at i
// (longest match), 0 when there is none.
func operatorLen(s []byte, i int) int {
	next := func(k int) byte { // s[i+k], 0 past the end
		if i+k < len(s) {
			return s[i+k]
		}
		return 0
	}
	switch c := s[i]; c {
	case '(', ')', '[', ']', '{', '}', ',', ';', '~':
		return 1
	case ':', '=':
		if next(1) == '=' { // := ==
			return 2
		}
		return 1
	case '.':
		if next(1) == '.' && next(2) == '.' {
			return 3
		}
		return 1
	case '*', '/', '<', '>':
		// ** // << >> with an optional =, or the operator with =
		if next(1) == c {
			if next(2) == '=' {
				return 3
			}
			return 2
		}
		if next(1) == '=' {
			return 2
		}
		return 1
	case '-':
		if n := next(1); n == '=' || n == '>' {
			return 2
		}
		return 1
	case '!':
		if next(1) == '=' {
			return 2
		}
		return 0
	case '%', '&', '+', '@', '^', '|':
		if next(1) == '=' {
			return 2
		}
		return 1
	}
	return 0
}

// scanNumber returns the end of the number literal at i, following the
// alternation order of tokenize's Number pattern (imaginary, float, int).
func scanNumber(s []byte, i int) int {
	digits := func(j int) int { // [0-9](?:_?[0-9])*, -1 when absent
		if j >= len(s) || s[j] < '0' || s[j] > '9' {
			return -1
		}
		j++
		for j < len(s) {
			if s[j] >= '0' && s[j] <= '9' {
				j++
			} else if s[j] == '_' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' {
				j += 2
			} else {
				break
			}
		}
		return j
	}
	exponent := func(j int) int {
		if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
			k := j + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if e := digits(k); e >= 0 {
				return e
			}
		}
		return -1
	}
	float := func(j int) int {
		// Pointfloat
		if d := digits(j); d >= 0 && d < len(s) && s[d] == '.' {
			end := d + 1
			if f := digits(end); f >= 0 {
				end = f
			}
			if e := exponent(end); e >= 0 {
				end = e
			}
			return end
		}
		if j < len(s) && s[j] == '.' {
			if f := digits(j + 1); f >= 0 {
				if e := exponent(f); e >= 0 {
					return e
				}
				return f
			}
		}
		// Expfloat
		if d := digits(j); d >= 0 {
			if e := exponent(d); e >= 0 {
				return e
			}
		}
		return -1
	}
	isJ := func(j int) bool { return j >= 0 && j < len(s) && (s[j] == 'j' || s[j] == 'J') }
	if d := digits(i); isJ(d) {
		return d + 1
	}
	if f := float(i); f >= 0 {
		if isJ(f) {
			return f + 1
		}
		return f
	}
	if s[i] == '0' && i+1 < len(s) {
		var ok func(byte) bool
		switch s[i+1] | 0x20 {
		case 'x':
			ok = func(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }
		case 'b':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		}
		if ok != nil {
			j := i + 2
			for j < len(s) {
				if ok(s[j]) {
					j++
				} else if s[j] == '_' && j+1 < len(s) && ok(s[j+1]) {
					j += 2
				} else {
					break
				}
			}
			if j > i+2 {
				return j
			}
		}
	}
	if s[i] == '0' {
		j := i + 1
		for j < len(s) {
			if s[j] == '0' {
				j++
			} else if s[j] == '_' && j+1 < len(s) && s[j+1] == '0' {
				j += 2
			} else {
				break
			}
		}
		return j
	}
	if d := digits(i); d >= 0 {
		return d
	}
	return i + 1
}

// nextLine returns the end of the line starting at pos and the start of the
// next one, splitting as Python's str.splitlines does: \n, \r, \r\n, \v,
// \f, \x1c, \x1d, \x1e, U+0085, U+2028 and U+2029 end a line.
func nextLine(src []byte, pos int) (end, next int) {
	for i := pos; i < len(src); i++ {
		c := src[i]
		if !lineBreakLead[c] {
			continue
		}
		switch c {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e:
			return i, i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		case 0xc2:
			if i+1 < len(src) && src[i+1] == 0x85 {
				return i, i + 2
			}
		case 0xe2:
			if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xa8 || src[i+2] == 0xa9) {
				return i, i + 3
			}
		}
	}
	return len(src), len(src)
}

// otherLineBreaks are the line breaks of nextLine other than \n.
var otherLineBreaks = [][]byte{{'\r'}, {'\v'}, {'\f'}, {0x1c}, {0x1d}, {0x1e}, []byte("\u0085"), []byte("\u2028"), []byte("\u2029")}

// lineBreakLead marks the bytes that may start a line break for nextLine.
var lineBreakLead = [256]bool{'\n': true, '\v': true, '\f': true, 0x1c: true, 0x1d: true, 0x1e: true, '\r': true, 0xc2: true, 0xe2: true}

// pyStrip trims what Python's str.strip() trims: Unicode white space plus
// the ASCII separators \x1c-\x1f.
func pyStrip(b []byte) []byte {
	// indentation, the common case: eight spaces at a time, then one
	i := 0
	for i+8 <= len(b) {
		// the first non-space byte of the word, if any, by its lowest set bit
		if x := binary.LittleEndian.Uint64(b[i:]) ^ 0x2020202020202020; x != 0 {
			i += bits.TrailingZeros64(x) >> 3
			goto spaces
		}
		i += 8
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
spaces:
	b = b[i:]
	for len(b) > 0 {
		if c := b[0]; c < utf8.RuneSelf {
			if !asciiPySpace[c] {
				break
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if !isPySpace(r) {
			break
		}
		b = b[size:]
	}
	for len(b) > 0 {
		if c := b[len(b)-1]; c < utf8.RuneSelf {
			if !asciiPySpace[c] {
				break
			}
			b = b[:len(b)-1]
			continue
		}
		r, size := utf8.DecodeLastRune(b)
		if !isPySpace(r) {
			break
		}
		b = b[:len(b)-size]
	}
	return b
}

// asciiPySpace marks the ASCII bytes isPySpace accepts.
var asciiPySpace = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isPySpace(rune(c))
	}
	return t
}()

func isPySpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	}
	return r >= 0x80 && r != utf8.RuneError && unicode.IsSpace(r)
}
