package pyast

import (
	"bytes"
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// Docstring is the docstring of a module, class or function: the first
// statement of its body when that statement is an expression made only of a
// string literal. Implicitly concatenated literals ("a" "b") count, as for
// CPython's ast.get_docstring (Ruff warns and skips them); f-strings,
// t-strings and bytes never do. A parenthesized literal counts (the
// parentheses are not part of the expression in Python's AST).
//
// Source: PEP 257; shared/spec/nfi-rules.md §0 "Docstring" and Decision 4.
type Docstring struct {
	// Stmt is the expression_statement holding the literal.
	Stmt syntax.NodeID
	// Node is the string or concatenated_string node.
	Node syntax.NodeID
	// Parts are the literal's parts in order; one part unless the literal
	// is implicitly concatenated.
	Parts []StringPart
	// Body is the raw source text between the quotes (escapes not
	// processed), the parts' bodies joined without separator.
	Body string

	// one holds the part of a one-part literal, which Parts then views:
	// one allocation per docstring instead of two.
	one [1]StringPart
}

// StringPart is one string literal token.
type StringPart struct {
	Node syntax.NodeID // the string node
	// Prefix is the prefix as written: "", "r", "u", "Rb", "f", ...
	Prefix string
	// Quote is the opening quote: `"""`, `'''`, `"` or `'`.
	Quote string
	// Body is the raw source between the quotes.
	Body string
	// StartLine and EndLine are the 1-based lines of the opening and
	// closing quotes.
	StartLine, EndLine int
}

// IsText reports a str literal: no f, t or b prefix.
func (p StringPart) IsText() bool {
	return !strings.ContainsAny(p.Prefix, "fFtTbB")
}

// TripleQuoted reports a `"""` or `”'` quote.
func (p StringPart) TripleQuoted() bool { return len(p.Quote) == 3 }

// Concatenated reports an implicitly concatenated docstring.
func (d *Docstring) Concatenated() bool { return len(d.Parts) > 1 }

// StartLine returns the 1-based line of the opening quote.
func (d *Docstring) StartLine() int { return d.Parts[0].StartLine }

// EndLine returns the 1-based line of the closing quote.
func (d *Docstring) EndLine() int { return d.Parts[len(d.Parts)-1].EndLine }

// Lines splits Body at "\n", "\r\n" and "\r" (Python's universal newlines).
// A Body of n line breaks gives n+1 lines, the last possibly empty.
func (d *Docstring) Lines() []string { return SplitLines(d.Body) }

// Content returns Body without leading and trailing whitespace.
func (d *Docstring) Content() string { return strings.TrimSpace(d.Body) }

// Summary returns the first line of Content ("" for an empty docstring).
func (d *Docstring) Summary() string {
	c := d.Content()
	if i := strings.IndexAny(c, "\r\n"); i >= 0 {
		return c[:i]
	}
	return c
}

// SplitLines splits s at "\n", "\r\n" and "\r". A string of n line breaks
// gives n+1 lines.
func SplitLines(s string) []string {
	// at most one line per break, plus the last ("\r\n" counts twice)
	out := make([]string, 0, strings.Count(s, "\n")+strings.Count(s, "\r")+1)
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			out = append(out, s[start:i])
			start = i + 1
		case '\r':
			out = append(out, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// DocstringOf returns the docstring of the body block (or the module root),
// nil when it has none.
func DocstringOf(t *syntax.Tree, body syntax.NodeID) *Docstring {
	if body == syntax.NoNode {
		return nil
	}
	stmt := t.FirstNamedChild(body)
	if stmt == syntax.NoNode || t.Nodes[stmt].Kind() != "expression_statement" {
		return nil
	}
	e := t.FirstNamedChild(stmt)
	if e == syntax.NoNode {
		return nil
	}
	// the statement must be that one expression
	for c := t.Nodes[e].NextSibling; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if !t.Nodes[c].Extra {
			return nil
		}
	}
	for t.Nodes[e].Kind() == "parenthesized_expression" {
		inner := t.FirstNamedChild(e)
		if inner == syntax.NoNode {
			return nil
		}
		e = inner
	}
	switch t.Nodes[e].Kind() {
	case "string":
		p, ok := stringPart(t, e)
		if !ok || !p.IsText() {
			return nil
		}
		d := &Docstring{Stmt: stmt, Node: e, Body: p.Body}
		d.one[0] = p
		d.Parts = d.one[:]
		return d
	case "concatenated_string":
		d := &Docstring{Stmt: stmt, Node: e}
		var b strings.Builder
		for c := t.Nodes[e].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Extra {
				continue
			}
			if t.Nodes[c].Kind() != "string" {
				return nil
			}
			p, ok := stringPart(t, c)
			if !ok || !p.IsText() {
				return nil
			}
			d.Parts = append(d.Parts, p)
			b.WriteString(p.Body)
		}
		if len(d.Parts) == 0 {
			return nil
		}
		d.Body = b.String()
		return d
	}
	return nil
}

// StringLiteral returns the parts of a string node, false when n is not a
// well-formed string literal (string_start and string_end present).
func StringLiteral(t *syntax.Tree, n syntax.NodeID) (StringPart, bool) {
	return stringPart(t, n)
}

// IsTextLiteral reports whether n is a well-formed string literal that is
// text (StringLiteral's ok and StringPart.IsText), without copying it.
func IsTextLiteral(t *syntax.Tree, n syntax.NodeID) bool {
	start, _, q, ok := stringDelimiters(t, n)
	return ok && !bytes.ContainsAny(t.Text(start)[:q], "fFtTbB")
}

// stringDelimiters finds the string_start and string_end children of
// string node n and the length q of the prefix in string_start's text; ok
// is false when n is not a well-formed string literal.
func stringDelimiters(t *syntax.Tree, n syntax.NodeID) (start, end syntax.NodeID, q int, ok bool) {
	if t.Nodes[n].Kind() != "string" {
		return 0, 0, 0, false
	}
	start, end = syntax.NoNode, syntax.NoNode
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Nodes[c].Kind() {
		case "string_start":
			start = c
		case "string_end":
			end = c
		}
	}
	if start == syntax.NoNode || end == syntax.NoNode || t.Nodes[end].Missing {
		return 0, 0, 0, false
	}
	open := t.Text(start)
	for q < len(open) && open[q] != '"' && open[q] != '\'' {
		q++
	}
	if t.Nodes[end].StartByte < t.Nodes[start].EndByte {
		return 0, 0, 0, false
	}
	return start, end, q, true
}

func stringPart(t *syntax.Tree, n syntax.NodeID) (StringPart, bool) {
	start, end, q, ok := stringDelimiters(t, n)
	if !ok {
		return StringPart{}, false
	}
	open := t.Text(start)
	sb, eb := t.Nodes[start].EndByte, t.Nodes[end].StartByte
	return StringPart{
		Node:      n,
		Prefix:    prefixString(open[:q]),
		Quote:     quoteString(open[q:]),
		Body:      string(t.Source[sb:eb]),
		StartLine: t.Line(n),
		EndLine:   int(t.Row(t.Nodes[end].EndByte)) + 1,
	}, true
}

// prefixString returns string(b) for a string prefix, without allocating
// for the common ones.
func prefixString(b []byte) string {
	switch string(b) {
	case "":
		return ""
	case "r":
		return "r"
	case "u":
		return "u"
	case "b":
		return "b"
	case "f":
		return "f"
	case "rb":
		return "rb"
	case "br":
		return "br"
	}
	return string(b)
}

// quoteString returns string(b) for an opening quote without allocating.
func quoteString(b []byte) string {
	switch string(b) {
	case `"""`:
		return `"""`
	case "'''":
		return "'''"
	case `"`:
		return `"`
	case "'":
		return "'"
	}
	return string(b)
}
