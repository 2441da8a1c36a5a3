package doc

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// CommentedOutCode reports standalone comments that hold Python code.
//
// Source: PEP 8 ("Comments that contradict the code are worse than no
// comments"); eradicate; Ruff ERA001.
var CommentedOutCode = &nfi.Rule{
	ID: "DOC-P04", Name: "commented-out-code", Aspect: nfi.Documentation, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "comment is commented-out code",
		What: "A comment on its own line whose text (after removing leading whitespace and `#` " +
			"characters, and trailing whitespace) looks like Python code, by eradicate's heuristics: it " +
			"must contain a code indicator (`( ) [ ] { } : = %` or `return`, `break`, `continue`, " +
			"`import`); it is not code when two identifiers follow each other (prose such as `see the " +
			"note (below)`), when its first word is a task tag (TODO, FIXME, XXX), when it starts with a " +
			"tool directive (`noqa`, `pylint`, `pyright`, `nosec`, `mypy:`, `type: ignore`, `fmt:`, " +
			"`isort:`, `region`, `endregion`, `SPDX-License-Identifier:`, `flake8: noqa`, `ruff: noqa`, a " +
			"coding declaration, an " +
			"IntelliJ `language=` injection) or when it contains `#` followed by a digit (`Issue #12`). " +
			"Otherwise it is code when it ends with a backslash; is a clause header (`else:`, `elif x:`, " +
			"`try:`, `finally:`, `except...:`, `case x:`, with or without a body); is a dictionary entry " +
			"(`'key': value,` or ending in `{`); starts a multi-line assignment (`a, b = f(`); holds only " +
			"brackets (`)`, `]}`); or parses as a Python module. Comments of a PEP 723 `# /// script` " +
			"block are skipped.",
		Why:    "Commented-out code is dead code: it rots, confuses readers about what runs, and version control already keeps old code.",
		Bad:    "def total(xs):\n    # result = sum(x * 2 for x in xs)\n    return sum(xs)\n",
		Good:   "def total(xs):\n    # Sum the raw values; doubling happens in the caller.\n    return sum(xs)\n",
		Exempt: "Trailing comments after code, task-tag comments, tool directives, prose with two consecutive words.",
		Source: "PEP 8 (\"Comments that contradict the code are worse than no comments\"); eradicate (myint/eradicate); the polynfi-92 catalog spec DOC-P04",
		Oracle: "Ruff ERA001. The final \"parses as Python\" step uses polynfi's parser of CPython's grammar " +
			"(the one that reads the files) instead of Ruff's parser; the two may still disagree on rare " +
			"inputs. Ruff " +
			"honours file-level exemptions: in a file containing `# flake8: noqa` Ruff reports nothing, " +
			"while DOC-P04 only skips that directive line itself.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"ERA001"}, Exact: true},
	Finish: checkCommentedOutCode,
}

func checkCommentedOutCode(p *nfi.Pass) {
	comments := p.Module.Comments()
	skipUntil := 0 // last line of a PEP 723 script block
	for i := range comments {
		c := &comments[i]
		if c.Line <= skipUntil {
			continue
		}
		if c.Column == 0 && c.Text == "# /// script" {
			if end, ok := scriptBlockEnd(p.Tree, c.Line); ok {
				skipUntil = end
				continue
			}
		}
		if !c.OwnLine {
			continue
		}
		if CommentContainsCode(c.Text) {
			p.ReportAtf(c.Line, c.Column+1, "commented-out code")
		}
	}
}

// scriptBlockEnd finds the closing `# ///` line of a PEP 723 block opened on
// line start (1-based); ok is false when the block is not closed.
func scriptBlockEnd(t *syntax.Tree, start int) (end int, ok bool) {
	lines := t.LineStarts()
	for r := start; r < len(lines); r++ { // r is the 0-based row after the opener
		line := lineText(t.Source, lines, r)
		rest, isComment := strings.CutPrefix(line, "#")
		if !isComment || (rest != "" && !strings.HasPrefix(rest, " ")) {
			break
		}
		if rest == " ///" {
			end, ok = r+1, true
		}
	}
	return end, ok
}

// CommentContainsCode reports whether a comment's text (starting at `#`)
// looks like commented-out Python code. See CommentedOutCode for the
// heuristics. Source: eradicate and Ruff's ERA001 detection.
func CommentContainsCode(comment string) bool {
	line := strings.TrimRightFunc(trimSpaceHash(strings.TrimLeftFunc(comment, unicode.IsSpace)), unicode.IsSpace)
	if !hasCodeIndicator(line) || hasConsecutiveNames(line) {
		return false
	}
	first := line
	if i := strings.IndexAny(line, " :("); i >= 0 {
		first = line[:i]
	}
	if first == "TODO" || first == "FIXME" || first == "XXX" {
		return false
	}
	if isDirective(line) || hasHashNumber(line) {
		return false
	}
	if strings.HasSuffix(line, "\\") {
		return true
	}
	if isClauseHeader(line) || isPartialDictEntry(line) || isMultilineAssignment(line) || isOnlyBrackets(line) {
		return true
	}
	// parsesAsPython decides the rest, at the cost of a parse, unless one
	// of the two shortcuts knows its answer.
	if surelyParses(line) {
		return true
	}
	if cannotParse(line) {
		return false
	}
	return parsesAsPython(line)
}

// trimSpaceHash is strings.TrimLeft(s, " #") without building the cut set
// on every call.
func trimSpaceHash(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '#') {
		i++
	}
	return s[i:]
}

// notAtomWords are the words cannotParse does not take for names: Python's
// keywords and soft keywords, plus the Python 2 statement words print and
// exec.
var notAtomWords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true,
	"del": true, "elif": true, "else": true, "except": true, "finally": true, "for": true,
	"from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true,
	"match": true, "case": true, "type": true, "_": true, "print": true, "exec": true,
}

// cannotParse reports text that is not a valid Python module, so that
// parsesAsPython is false for it without running the parse. It
// tokenizes s from the start and stops, answering false, at the first thing
// it does not model exactly: `#`, a triple quote or a string with a
// backslash (unless a name or a closing bracket comes right before it), a
// string with an f prefix, a character it cannot classify. Up to there it
// answers true on:
//   - a first word that starts a construct needing a `:` (if, for, while,
//     with, def, class, try, except, finally, elif, else, lambda) in text
//     without any `:`, or a first word and, or, in, is, as not followed by
//     a `:` (badFirstWord, checked before tokenizing);
//   - an annotation or assignment to what Python cannot assign to (a
//     number or a string before `:`, `name: a, b`, `a + b = c`,
//     `f(n) = c`: badTarget, also checked before tokenizing);
//   - two atoms (names or strings, not both strings) separated only by
//     spaces or tabs: no Python expression or statement has them;
//   - a backslash outside a string that is not followed by a line break
//     (or NUL): Python reads a backslash only as a line continuation;
//   - a word of neverAfterAtom (return, break, with, None, print, ...)
//     right after a name, a string, a closing bracket or a plain number
//     (`things break (such as pickle)`, `Error case: x`);
//   - a name glued to a quote that Python cannot read as a string
//     prefix (only letters of fFrRbBuU are), as in "it's";
//   - a single-quoted string left open at the end of the line;
//   - a closing bracket that closes nothing or the wrong bracket;
//   - a backtick (Python 2's repr string), `$`, `?`, or `!` not followed
//     by `=`;
//   - `:` followed by `/` (as in a URL): no expression starts with `/`;
//   - a first token that no statement starts with: `=`, `,`, `;`, `:`,
//     `|`, `&`, `^`, `/`, `%`, `<`, `>` or `!`;
//   - a name, a string or a number right after a closing bracket or a
//     number made of digits, `_` and at most one `.` between digits (`f() must`, `(a) 'b'`,
//     `child 1 terminates`), or a number right after a name or a string:
//     these end a primary, and no Python construct puts a name or a
//     literal right after one (keywords, soft keywords and print/exec are
//     not names here);
//   - a last token `:` (`Usage:`, `def f():`): a block or an annotation
//     must follow it;
//   - a last token `.` not next to another `.` (`see f().`), or such a
//     `.` followed by `)`, `]`, `}`, `,` or `;` (`etc.)`): an attribute
//     name must follow it (`...` is an ellipsis, `1.` is one number);
//   - a last token that is or ends with one of `+ - / % @ & | ^ ~ < > =`
//     (`decorators: decorator+`, `-*- coding: utf-8 -*-`): an operand must
//     follow it (a last `*` may end `from m import *`);
//   - `not` right after an atom and not followed by `in`
//     (`resize() not supported`).
//
// A number is taken with every letter, digit, `_` and `.` after it as one
// token that pairs with nothing. Keywords, soft keywords and print/exec
// (notAtomWords) are not names.
func cannotParse(s string) bool {
	const (
		other = iota
		name
		str
		closer // a closing bracket
	)
	if badFirstWord(s) || badTarget(s) {
		return true
	}
	prev := other
	first := true      // before the first token
	lastColon := false // the last token so far is `:`
	lastDot := false   // the last token so far is a lone `.`
	lastOp := false    // the last token so far ends with an operator needing an operand
	var open []byte    // expected closing brackets
	// atString scans the string literal whose quote is at s[q] and returns
	// its end; decided reports that the string settles the text, with
	// cannotParse's verdict: an unclosed string cannot parse, a string
	// after a name or a closing bracket cannot either, and one that
	// scanSimpleString does not judge (backslashes, triple quotes) leaves
	// the decision to the parser.
	atString := func(q int) (end int, decided, verdict bool) {
		end, res := scanSimpleString(s, q)
		switch {
		case res == stringOpen || prev == name || prev == closer:
			return 0, true, true
		case res != stringOK:
			return 0, true, false
		}
		return end, false, false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if first && strings.IndexByte("=,;:|&^/%<>!", c) >= 0 {
			return true
		}
		first, lastColon = false, c == ':'
		lastDot = c == '.' && (i == 0 || s[i-1] != '.') && (i+1 == len(s) || s[i+1] != '.')
		lastOp = strings.IndexByte("+-/%@&|^~<>=", c) >= 0
		if lastDot {
			// an attribute name must follow a lone `.`
			if k := strings.TrimLeft(s[i+1:], " \t"); k != "" && strings.IndexByte(")]},;", k[0]) >= 0 {
				return true
			}
		}
		switch {
		case c == '`' || c == '$' || c == '?':
			return true
		case c == '\\':
			// Outside a string a backslash only continues a line.
			return i+1 < len(s) && s[i+1] != '\n' && s[i+1] != '\r' && s[i+1] != 0
		case c == '!':
			if i+1 >= len(s) || s[i+1] != '=' {
				return true
			}
		case c == ':':
			if k := strings.TrimLeft(s[i+1:], " \t"); strings.HasPrefix(k, "/") {
				return true
			}
		case c >= '0' && c <= '9':
			if prev != other {
				return true
			}
			// pure: only digits and `_`, with at most one `.` between
			// digits: one literal (`1.5.real` is an attribute of 1.5)
			pure, dots := true, 0
			for i < len(s) && (isASCIIWord(s[i]) || s[i] == '.') {
				switch {
				case s[i] == '.':
					dots++
					if i+1 == len(s) || s[i+1] < '0' || s[i+1] > '9' {
						pure = false
					}
				case s[i] > '9' && s[i] != '_':
					pure = false
				}
				i++
			}
			pure = pure && dots <= 1
			prev = other
			if pure {
				prev = closer
			}
			continue
		case c == '\'' || c == '"':
			j, decided, verdict := atString(i)
			if decided {
				return verdict
			}
			prev, i = str, j
			continue
		case c == '(':
			open = append(open, ')')
		case c == '[':
			open = append(open, ']')
		case c == '{':
			open = append(open, '}')
		case c == ')' || c == ']' || c == '}':
			if len(open) == 0 || open[len(open)-1] != c {
				return true
			}
			open = open[:len(open)-1]
			prev = closer
			i++
			continue
		}
		if c < utf8.RuneSelf && strings.IndexByte("()[]{},:;.=!<>+-*/@%&|^~", c) >= 0 {
			prev = other
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != '_' && !unicode.IsLetter(r) {
			return false
		}
		j := i + size
		for j < len(s) {
			r2, n := utf8.DecodeRuneInString(s[j:])
			if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && !unicode.Is(unicode.Mn, r2) && !unicode.Is(unicode.Mc, r2) {
				break
			}
			j += n
		}
		word := s[i:j]
		if j < len(s) && (s[j] == '\'' || s[j] == '"') {
			if notAtomWords[word] {
				prev, i = other, j // `in'abc'`: the keyword, then the string
				continue
			}
			if strings.Trim(word, "fFrRbBuU") != "" {
				return true // not a string prefix: a name, then a string
			}
			if strings.ContainsAny(word, "fF") {
				return false
			}
			k, decided, verdict := atString(j)
			if decided {
				return verdict
			}
			prev, i = str, k
			continue
		}
		if notAtomWords[word] {
			if prev != other && (neverAfterAtom[word] || word == "not" && !startsWord(s[j:], "in")) {
				return true // after an atom, `not` only starts `not in`
			}
			prev = other
		} else {
			if prev != other {
				return true
			}
			prev = name
		}
		i = j
	}
	return lastColon || lastDot || lastOp
}

// neverAfterAtom are the words of notAtomWords that cannot follow a name,
// a literal or a closing bracket: keywords that start a statement, a
// clause, a lambda, a yield or an await, and words that are either such a
// keyword or a name (soft keywords, print, exec, _) or a literal (None,
// True, False); not even Python 2's statements put them there. The other keywords (and, as, else, for, from, if, import, in, is,
// not, or, and async of `[x async for x in y]`) can follow an atom.
var neverAfterAtom = map[string]bool{
	"False": true, "None": true, "True": true, "_": true, "assert": true,
	"await": true, "break": true, "case": true, "class": true, "continue": true, "def": true,
	"del": true, "elif": true, "except": true, "exec": true, "finally": true, "global": true,
	"lambda": true, "match": true, "nonlocal": true, "pass": true, "print": true, "raise": true,
	"return": true, "try": true, "type": true, "while": true, "with": true, "yield": true,
}

// infixKeywords cannot start a statement or an expression.
var infixKeywords = map[string]bool{"and": true, "as": true, "in": true, "is": true, "or": true}

// colonKeywords start a construct that needs a `:` (a compound statement,
// a clause, a lambda).
var colonKeywords = map[string]bool{
	"class": true, "def": true, "elif": true, "else": true, "except": true, "finally": true,
	"for": true, "if": true, "lambda": true, "try": true, "while": true, "with": true,
}

// badFirstWord reports text whose first word is one of colonKeywords while
// it has no `:` at all (`if x > y`, `for each item`), or one of
// infixKeywords not followed by a `:` (`or utime(time_t)`; `or: x` may
// parse as an annotation, see parsesAsPython).
func badFirstWord(s string) bool {
	j := 0
	for j < len(s) && isASCIIWord(s[j]) {
		j++
	}
	if j < len(s) && s[j] >= utf8.RuneSelf {
		return false // the word may go on with a non-ASCII letter
	}
	word := s[:j]
	if colonKeywords[word] {
		return strings.IndexByte(s, ':') < 0
	}
	if infixKeywords[word] {
		rest := strings.TrimLeft(s[j:], " \t")
		return rest == "" || rest[0] != ':'
	}
	return false
}

// startsWord reports whether s, after spaces and tabs, starts with the
// ASCII word w, not followed by another letter, digit or `_`.
func startsWord(s, w string) bool {
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, w) {
		return false
	}
	return len(s) == len(w) || !isASCIIWord(s[len(w)]) && s[len(w)] < utf8.RuneSelf
}

// Results of scanSimpleString.
const (
	stringOK      = iota // a closed one-line string without backslashes
	stringOpen           // no closing quote (and no backslash) before the end
	stringComplex        // a triple quote or a backslash: not modelled
)

// scanSimpleString reads the string literal whose opening quote is s[i]
// and returns the index after its closing quote.
func scanSimpleString(s string, i int) (end, res int) {
	q := s[i]
	if i+2 < len(s) && s[i+1] == q && s[i+2] == q {
		return 0, stringComplex
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case q:
			return j + 1, stringOK
		case '\\':
			return 0, stringComplex
		}
	}
	return 0, stringOpen
}

func isASCIIWord(b byte) bool {
	return b == '_' || (b >= '0' && b <= '9') || (b|0x20 >= 'a' && b|0x20 <= 'z')
}

// hasCodeIndicator reports one of `( ) [ ] { } : = %` or the words
// return, break, continue, import anywhere in s (also inside other words),
// in one pass over s. Most bytes are none of those characters nor a word's
// first letter: one table lookup skips them.
func hasCodeIndicator(s string) bool {
	for i := 0; i < len(s); i++ {
		switch indicatorBytes[s[i]] {
		case 0:
		case indicatorChar:
			return true
		case indicatorWord:
			switch s[i] {
			case 'r':
				if strings.HasPrefix(s[i:], "return") {
					return true
				}
			case 'b':
				if strings.HasPrefix(s[i:], "break") {
					return true
				}
			case 'c':
				if strings.HasPrefix(s[i:], "continue") {
					return true
				}
			case 'i':
				if strings.HasPrefix(s[i:], "import") {
					return true
				}
			}
		}
	}
	return false
}

// indicatorBytes classifies bytes for hasCodeIndicator: indicatorChar for
// a code character, indicatorWord for the first letter of an indicator
// word, 0 for any other byte.
var indicatorBytes = func() (tb [256]uint8) {
	for _, c := range []byte("()[]{}:=%") {
		tb[c] = indicatorChar
	}
	for _, c := range []byte("rbci") {
		tb[c] = indicatorWord
	}
	return tb
}()

const (
	indicatorChar = 1 + iota
	indicatorWord
)

// pyKeywords are the words a simple Python tokenizer treats as keywords
// (soft keywords included); True, False and None are names.
var pyKeywords = map[string]bool{
	"and": true, "as": true, "assert": true, "async": true, "await": true, "break": true,
	"class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true,
	"except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true,
	"or": true, "pass": true, "raise": true, "return": true, "try": true, "while": true,
	"with": true, "yield": true, "case": true, "match": true, "type": true,
}

// hasConsecutiveNames reports two identifiers (not keywords) in a row,
// which no Python statement has. Tokens are read up to the first character
// a simple tokenizer cannot classify (a digit, a quote, ...) or a `#`.
func hasConsecutiveNames(s string) bool {
	prevName := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
			continue
		case r == '_' || unicode.IsLetter(r):
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && !unicode.Is(unicode.Mn, r2) && !unicode.Is(unicode.Mc, r2) {
					break
				}
				j += n
			}
			isName := !pyKeywords[s[i:j]]
			if isName && prevName {
				return true
			}
			prevName = isName
			i = j
		case strings.ContainsRune("()[]{},:;.=!<>+-*/@%&|^~\\", r):
			prevName = false
			i += size
		default: // '#', digits, quotes, anything else: stop
			return false
		}
	}
	return false
}

// isDirective reports a comment that starts with a tool directive.
func isDirective(s string) bool {
	for _, p := range []string{"pyright", "mypy:", "SPDX-License-Identifier:", "region", "endregion"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(s, "type:"); ok && strings.HasPrefix(strings.TrimLeftFunc(rest, unicode.IsSpace), "ignore") {
		return true
	}
	if rest, ok := strings.CutPrefix(s, "fmt:"); ok {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if strings.HasPrefix(rest, "on") || strings.HasPrefix(rest, "off") || strings.HasPrefix(rest, "skip") {
			return true
		}
	}
	for _, p := range []string{"noqa", "pylint", "nosec", "flake8: noqa", "ruff: noqa"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	if len(s) >= 6 && strings.EqualFold(s[:6], "isort:") {
		rest := strings.ToLower(strings.TrimLeftFunc(s[6:], unicode.IsSpace))
		for _, w := range []string{"on", "off", "skip", "split", "dont-add-imports"} {
			if strings.HasPrefix(rest, w) {
				return true
			}
		}
	}
	low := strings.ToLower(s)
	low = strings.TrimPrefix(low, "en")
	if rest, ok := strings.CutPrefix(low, "coding"); ok && rest != "" && (rest[0] == ':' || rest[0] == '=') {
		rest = strings.TrimLeft(rest[1:], " \t")
		if rest != "" && isCodingChar(rest[0]) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(s, "language="); ok && rest != "" && isCodingChar(rest[0]) {
		return true
	}
	return false
}

func isCodingChar(b byte) bool {
	return b == '-' || b == '_' || b == '.' || (b >= '0' && b <= '9') || (b|0x20 >= 'a' && b|0x20 <= 'z')
}

// hasHashNumber reports "#" followed by a digit ("Issue #999").
func hasHashNumber(s string) bool {
	for i := strings.IndexByte(s, '#'); i >= 0; {
		r, _ := utf8.DecodeRuneInString(s[i+1:])
		if unicode.IsDigit(r) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '#')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// isClauseHeader reports `elif x:`, `else:`, `try:`, `finally:`,
// `except...:` and `case x:`, with anything after the colon.
func isClauseHeader(s string) bool {
	word := func(kw string, needSpace bool) bool {
		rest, ok := strings.CutPrefix(s, kw)
		if !ok {
			return false
		}
		if needSpace {
			t := strings.TrimLeftFunc(rest, unicode.IsSpace)
			if len(t) == len(rest) {
				return false
			}
			return strings.Contains(t, ":")
		}
		return strings.HasPrefix(strings.TrimLeftFunc(rest, unicode.IsSpace), ":")
	}
	if word("elif", true) || word("case", true) || word("else", false) || word("try", false) || word("finally", false) {
		return true
	}
	rest, ok := strings.CutPrefix(s, "except")
	return ok && strings.Contains(rest, ":")
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)
}

// scanWord returns the end of a run of word characters starting at i.
func scanWord(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += n
	}
	return i
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// isPartialDictEntry reports `'key': value,` or `"key": {` (a quoted word,
// a colon, something, then a final `,` or `{`, optionally followed by a
// comment).
func isPartialDictEntry(s string) bool {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return false
	}
	i := scanWord(s, 1)
	if i == 1 || i >= len(s) || (s[i] != '\'' && s[i] != '"') {
		return false
	}
	i = skipSpace(s, i+1)
	if i >= len(s) || s[i] != ':' {
		return false
	}
	rest := s[i+1:]
	// at least one character, then , or { followed by spaces and an optional comment
	for j := 1; j < len(rest); j++ {
		if rest[j] != ',' && rest[j] != '{' {
			continue
		}
		tail := strings.TrimLeftFunc(rest[j+1:], unicode.IsSpace)
		if tail == "" || tail[0] == '#' {
			return true
		}
	}
	return false
}

// isMultilineAssignment reports `a = f(`, `a, b = [`, `(a, b) = {`: an
// optionally bracketed list of names, `=`, anything, then an opening
// bracket at the very end.
func isMultilineAssignment(s string) bool {
	if s == "" || !strings.ContainsRune("([{", rune(s[len(s)-1])) {
		return false
	}
	i := 0
	if s[0] == '(' || s[0] == '[' {
		i = skipSpace(s, 1)
	}
	for {
		j := scanWord(s, i)
		if j == i {
			return false
		}
		i = skipSpace(s, j)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
			continue
		}
		break
	}
	if i < len(s) && (s[i] == ')' || s[i] == ']') {
		i = skipSpace(s, i+1)
	}
	return i < len(s)-1 && s[i] == '='
}

func isOnlyBrackets(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("()[]{}", r) && !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// parsers is a small pool of parsers for parsesAsPython (their scratch
// storage is reused); the parsers live as long as the process.
var parsers = make(chan *syntax.Parser, 16)

// parsesAsPython reports whether s, leading white space left out, is a
// valid Python 3 module as CPython's parser (ast.parse) decides, at the
// newest grammar (syntax.Parser.ValidPython, package pyparse), the parser
// closest to Ruff's that polynfi has.
func parsesAsPython(s string) bool {
	var ps *syntax.Parser
	select {
	case ps = <-parsers:
	default:
		ps = syntax.NewParser()
	}
	defer func() {
		select {
		case parsers <- ps:
		default:
			ps.Close()
		}
	}()
	// Leading tabs left by trimSpaceHash (`#\t\tx = 1`) are not an
	// indentation error for Ruff's ERA001.
	s = strings.TrimLeft(s, " \t\f")
	return ps.ValidPython([]byte(s))
}
