package doc

// badTarget reports text that starts like an assignment or an annotation
// whose target Python cannot assign to, so that parsesAsPython is false for
// it (cannotParse's first cases, checked before its tokenizer):
//   - a number, or a one-line string without prefix or backslash, followed
//     by `:` (`0x0430: "", # Sutu`, `'a': 'b',`): only a target (a name,
//     an attribute, a subscript) starts an annotation, and no other
//     statement has a `:` right after its first atom;
//   - a name (not a word of notAtomWords) and `:`, then an annotation with
//     a `,` outside brackets (`mro: C, A, object`): an annotation is one
//     expression, not a tuple; text with a quote, `#`, a backslash, `=`,
//     `;`, another `:`, a non-ASCII byte or a word of notAtomWords (lambda
//     parameters, a yield list, a comprehension) is left alone;
//   - a first `=` outside brackets with, before it, a binary operator
//     outside brackets (`m * 2**e = x`, `dt + f() = y`) or a call as the
//     last primary (`f(n) = y`): assignment targets are names, attributes,
//     subscripts, starred targets and tuples or lists of them. Text with a
//     quote, `#`, a backslash, `;`, `:`, `!` or `->` before that `=`, a
//     non-ASCII byte, an augmented assignment or a word of notAtomWords
//     before it is left alone.
func badTarget(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9':
		i := 1
		for i < len(s) && (isASCIIWord(s[i]) || s[i] == '.') {
			i++
		}
		if i = skipBlanks(s, i); i < len(s) && s[i] == ':' {
			return true
		}
	case c == '\'' || c == '"':
		end, res := scanSimpleString(s, 0)
		if res != stringOK {
			return false
		}
		end = skipBlanks(s, end)
		return end < len(s) && s[end] == ':'
	}
	return annotatesTuple(s) || assignsToOperation(s) || clauseAfterAtom(s)
}

// clauseAfterAtom reports text whose first word is a name (not a word of
// notAtomWords) and in which a name, a number or a closing bracket is
// followed, outside brackets, by the word `for`, or by the word `if` while
// the text has no `else` at all (`Test for f()`, `x is invalid if x < 0`):
// a comprehension clause only comes inside brackets, a conditional
// expression needs its else, and statements with another `if` or `for`
// (a match guard, a compound statement) start with a keyword. Text with a
// quote, `#`, a backslash, `;`, a backtick or a non-ASCII byte before that
// word is left alone.
func clauseAfterAtom(s string) bool {
	j, ascii := asciiWordEnd(s, 0)
	if j == 0 || !ascii || s[0] <= '9' || notAtomWords[s[:j]] {
		return false
	}
	depth := 0
	atom := false // the last token ends an operand
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			continue
		case isASCIIWord(c):
			end, ascii := asciiWordEnd(s, i)
			if !ascii {
				return false
			}
			w := s[i:end]
			if depth == 0 && atom && (w == "for" || w == "if" && !hasWord(s, "else")) {
				return true
			}
			atom = c <= '9' || !notAtomWords[w]
			i = end - 1
		case c == '(' || c == '[' || c == '{':
			depth++
			atom = false
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return false
			}
			depth--
			atom = true
		case c >= 0x80 || c == '\'' || c == '"' || c == '#' || c == '\\' || c == ';' || c == '`':
			return false
		default:
			atom = false
		}
	}
	return false
}

// hasWord reports whether the ASCII word w occurs in s other than as a part
// of a longer ASCII word (a non-ASCII neighbour does not make it longer:
// an answer true more often than Python's tokens would give).
func hasWord(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] == w && (i == 0 || !isASCIIWord(s[i-1])) &&
			(i+len(w) == len(s) || !isASCIIWord(s[i+len(w)])) {
			return true
		}
	}
	return false
}

// skipBlanks returns the index of the first byte at or after i that is
// not a space or a tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// asciiWordEnd returns the end of the run of ASCII letters, digits and `_`
// starting at i, and whether the byte after it (if any) is ASCII.
func asciiWordEnd(s string, i int) (end int, ascii bool) {
	for i < len(s) && isASCIIWord(s[i]) {
		i++
	}
	return i, i == len(s) || s[i] < 0x80
}

// annotatesTuple reports `name: a, b` (badTarget's second case).
func annotatesTuple(s string) bool {
	j, ascii := asciiWordEnd(s, 0)
	if j == 0 || !ascii || notAtomWords[s[:j]] || s[0] <= '9' {
		return false
	}
	j = skipBlanks(s, j)
	if j >= len(s) || s[j] != ':' {
		return false
	}
	depth, comma := 0, false
	for i := j + 1; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIIWord(c):
			end, ascii := asciiWordEnd(s, i)
			if !ascii || notAtomWords[s[i:end]] {
				return false
			}
			i = end - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return false
			}
			depth--
		case c == ',':
			if depth == 0 {
				comma = true
			}
		case c >= 0x80 || c == '\'' || c == '"' || c == '#' || c == '\\' || c == '=' || c == ';' || c == ':':
			return false
		}
	}
	return comma
}

// operatorTokens are Python's operator tokens made of the bytes of
// operatorBytes, longest first (`<>` is Python 2's).
var operatorTokens = []string{
	"**=", "//=", ">>=", "<<=",
	"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "<>",
	"+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "=", "!",
}

// isOperatorByte reports the bytes operatorTokens are made of.
func isOperatorByte(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '=', '!':
		return true
	}
	return false
}

// operatorAt returns the operator token at s[i] (isOperatorByte(s[i])).
func operatorAt(s string, i int) string {
	for _, op := range operatorTokens {
		if len(s)-i >= len(op) && s[i:i+len(op)] == op {
			return op
		}
	}
	return s[i : i+1]
}

// assignsToOperation reports `a + b = c` or `f(n) = c` (badTarget's third
// case).
func assignsToOperation(s string) bool {
	depth := 0
	atom := false     // the last token outside brackets ends an operand
	call := false     // the last token outside brackets is `)` closing a call
	callOpen := false // the open bracket outside brackets follows an operand
	binary := false   // a binary operator came outside brackets
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			continue
		case isASCIIWord(c):
			end, ascii := asciiWordEnd(s, i)
			if !ascii || notAtomWords[s[i:end]] {
				return false
			}
			i = end - 1
			atom, call = true, false
		case c == '.' || c == ',':
			atom, call = false, false
		case c == '(' || c == '[' || c == '{':
			if depth == 0 {
				callOpen = c == '(' && atom
			}
			depth++
			atom, call = false, false
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return false
			}
			depth--
			atom, call = true, depth == 0 && c == ')' && callOpen
		case isOperatorByte(c):
			op := operatorAt(s, i)
			i += len(op) - 1
			if depth > 0 {
				continue
			}
			switch {
			case op == "=":
				return binary || call
			case op == "!" || op == "->" || op[len(op)-1] == '=' && op != "==" && op != "<=" && op != ">=" && op != "!=":
				return false // not modelled, or an augmented assignment
			}
			if atom {
				binary = true
			}
			atom, call = false, false
		default:
			return false
		}
	}
	return false
}
