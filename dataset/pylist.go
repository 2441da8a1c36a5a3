package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseStringList decodes a list of test ids as the datasets store them:
// a Python repr list (`['a', "b's"]`, what SWE-PolyBench's CSV holds for F2P
// and P2P) or a JSON array of strings (what SWE-bench stores in
// FAIL_TO_PASS). Blank input is an empty list. The result keeps order and
// duplicates; it is never nil for valid input.
//
// Python string literals are decoded with the escapes of the Python
// language reference (\\ \' \" \n \t \r \a \b \f \v \ooo \xhh \uXXXX
// \UXXXXXXXX, backslash-newline), an unknown escape keeping its backslash;
// r/u prefixes are accepted, b and f prefixes and \N{...} are not (repr
// never writes them). Errors give the byte offset of the problem.
//
// Source: Python Language Reference §2.4.1 "String and Bytes literals";
// SWE-PolyBench polybench_data.py (ast.literal_eval of F2P/P2P).
func ParseStringList(s string) ([]string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return []string{}, nil
	}
	if strings.HasPrefix(t, "[") {
		var js []string
		if err := json.Unmarshal([]byte(t), &js); err == nil {
			if js == nil {
				js = []string{}
			}
			return js, nil
		}
	}
	p := pyListParser{s: s}
	return p.parse()
}

type pyListParser struct {
	s   string
	pos int
}

func (p *pyListParser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *pyListParser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		default:
			return
		}
	}
}

func (p *pyListParser) parse() ([]string, error) {
	p.skipSpace()
	if p.pos >= len(p.s) || p.s[p.pos] != '[' {
		return nil, p.errorf("want a list literal starting with '['")
	}
	p.pos++
	out := []string{}
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.errorf("unterminated list: want ']'")
		}
		if p.s[p.pos] == ']' {
			p.pos++
			break
		}
		v, err := p.str()
		if err != nil {
			return nil, err
		}
		// Adjacent literals concatenate, as in Python source.
		for {
			p.skipSpace()
			if p.pos < len(p.s) && isQuoteStart(p.s[p.pos:]) {
				w, err := p.str()
				if err != nil {
					return nil, err
				}
				v += w
				continue
			}
			break
		}
		out = append(out, v)
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.errorf("unterminated list: want ',' or ']'")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case ']':
		default:
			return nil, p.errorf("unexpected %q: want ',' or ']'", p.s[p.pos])
		}
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return nil, p.errorf("unexpected text after the list")
	}
	return out, nil
}

func isQuoteStart(s string) bool {
	for i := 0; i < len(s) && i < 3; i++ {
		switch s[i] {
		case '\'', '"':
			return true
		case 'r', 'R', 'u', 'U':
			continue
		default:
			return false
		}
	}
	return false
}

// str decodes one string literal at p.pos.
func (p *pyListParser) str() (string, error) {
	raw := false
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == 'r' || c == 'R' {
			raw = true
			p.pos++
			continue
		}
		if c == 'u' || c == 'U' {
			p.pos++
			continue
		}
		break
	}
	if p.pos >= len(p.s) || (p.s[p.pos] != '\'' && p.s[p.pos] != '"') {
		return "", p.errorf("want a string literal")
	}
	q := p.s[p.pos]
	triple := strings.HasPrefix(p.s[p.pos:], strings.Repeat(string(q), 3))
	if triple {
		p.pos += 3
	} else {
		p.pos++
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.s) {
			return "", p.errorf("unterminated string literal")
		}
		c := p.s[p.pos]
		if c == q {
			if !triple {
				p.pos++
				return b.String(), nil
			}
			if strings.HasPrefix(p.s[p.pos:], strings.Repeat(string(q), 3)) {
				p.pos += 3
				return b.String(), nil
			}
		}
		if c == '\n' && !triple {
			return "", p.errorf("newline in string literal")
		}
		if c != '\\' {
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.s) {
			return "", p.errorf("unterminated escape")
		}
		if raw {
			// A raw string keeps the backslash and the next character.
			b.WriteByte('\\')
			b.WriteByte(p.s[p.pos+1])
			p.pos += 2
			continue
		}
		if err := p.escape(&b); err != nil {
			return "", err
		}
	}
}

// escape decodes the escape sequence at p.pos (at the backslash).
func (p *pyListParser) escape(b *strings.Builder) error {
	e := p.s[p.pos+1]
	simple := map[byte]string{'\\': "\\", '\'': "'", '"': "\"", 'n': "\n", 't': "\t", 'r': "\r",
		'a': "\a", 'b': "\b", 'f': "\f", 'v': "\v", '\n': ""}
	if v, ok := simple[e]; ok {
		b.WriteString(v)
		p.pos += 2
		return nil
	}
	switch {
	case e >= '0' && e <= '7':
		j := p.pos + 1
		for j < len(p.s) && j < p.pos+4 && p.s[j] >= '0' && p.s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(p.s[p.pos+1:j], 8, 32)
		b.WriteRune(rune(v))
		p.pos = j
		return nil
	case e == 'x' || e == 'u' || e == 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		start := p.pos + 2
		if start+n > len(p.s) {
			return p.errorf("truncated \\%c escape", e)
		}
		v, err := strconv.ParseUint(p.s[start:start+n], 16, 32)
		if err != nil {
			return p.errorf("bad \\%c escape %q", e, p.s[start:start+n])
		}
		if v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF && e != 'x') {
			return p.errorf("\\%c escape %q is not a valid code point", e, p.s[start:start+n])
		}
		b.WriteRune(rune(v))
		p.pos = start + n
		return nil
	case e == 'N':
		return p.errorf("\\N{...} escapes are not supported")
	}
	// Unknown escape: Python keeps the backslash.
	b.WriteByte('\\')
	p.pos++
	return nil
}

// errNotList reports a list field holding a value that is not a list.
var errNotList = errors.New("want a list of strings")
