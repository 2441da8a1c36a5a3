package doc

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// DocLineLength reports doc lines (standalone comments and lines of
// standalone strings) wider than the limit.
//
// Source: PEP 8 ("docstrings or comments ... limited to 72 characters");
// pycodestyle max-doc-length; Ruff W505.
var DocLineLength = &nfi.Rule{
	ID: "DOC-T03", Name: "doc-line-length", Aspect: nfi.Documentation, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 72, Cmp: nfi.AtMost, Unit: "columns"},
	Doc: nfi.Doc{
		Summary: "comment or docstring line is too long",
		What: "A doc line is a physical line holding a comment with only whitespace before it, or any " +
			"line spanned by a standalone string statement (docstrings and other string expressions, " +
			"implicitly concatenated ones included; f-strings and bytes excluded). Its width is the sum " +
			"of the characters' display widths (East Asian wide = 2, zero-width = 0; a tab advances to the " +
			"next multiple of 4). A doc line is too long when width > limit (default 72) unless: after " +
			"removing a trailing pragma comment (`# noqa`, `# nosec`, `# type:`, `# pyright:`, `# pylint:`, " +
			"`# flake8:`, `# ruff:`, `# ty:`, `# isort:`, `# pyrefly:`; also a pragma section at the end " +
			"of a comment, `# see URL  # noqa: E501`) it has fewer than two " +
			"whitespace-separated chunks or fits; its last chunk contains `://` and starts at or before " +
			"the limit; or it is an SPDX header comment. The file's measured value is the widest doc line.",
		Why:    "Long comment and docstring lines are hard to read in narrow views and side-by-side diffs; PEP 8 limits flowing text to 72 columns.",
		Bad:    "def f():\n    # This comment explains the function in far more words than fit in a line of 72.\n    return 1\n",
		Good:   "def f():\n    # This comment explains the function\n    # in two short lines.\n    return 1\n",
		Exempt: "Code lines (STY-T01 measures those), trailing comments on code lines, one-word lines, lines ending in a URL, SPDX headers.",
		Source: "PEP 8 \"Maximum Line Length\"; SWE-IF doc_2; the polynfi-92 catalog spec DOC-T03",
		Oracle: "Ruff W505 with `lint.pycodestyle.max-doc-length=72`, same doc-line selection and width " +
			"rules. Difference: Ruff honours `# noqa: W505` suppression comments on the line's logical " +
			"statement; a lone carriage return (old Mac line ending) is a line break for Ruff only.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"W505"}, RuffLimit: "lint.pycodestyle.max-doc-length", Exact: true},
	Kinds:  []string{"expression_statement"},
	Visit:  visitDocLineString,
	Finish: checkDocLineLength,
}

// docLineState collects the rows (0-based) of standalone-string lines.
type docLineState struct{ rows []int }

func visitDocLineString(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	e := t.FirstNamedChild(n)
	if e == syntax.NoNode {
		return
	}
	for c := t.Nodes[e].NextSibling; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if !t.Nodes[c].Extra {
			return
		}
	}
	for t.Nodes[e].Kind() == "parenthesized_expression" {
		if e = t.FirstNamedChild(e); e == syntax.NoNode {
			return
		}
	}
	switch t.Nodes[e].Kind() {
	case "string":
		if !pyast.IsTextLiteral(t, e) {
			return
		}
	case "concatenated_string":
		for c := t.Nodes[e].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Extra {
				continue
			}
			if !pyast.IsTextLiteral(t, c) {
				return
			}
		}
	default:
		return
	}
	st, _ := p.State.(*docLineState)
	if st == nil {
		st = &docLineState{}
		p.State = st
	}
	for r, end := int(t.Row(t.Nodes[e].StartByte)), int(t.Row(t.Nodes[e].EndByte)); r <= end; r++ {
		st.rows = append(st.rows, r)
	}
}

func checkDocLineLength(p *nfi.Pass) {
	var strRows []int
	if st, _ := p.State.(*docLineState); st != nil {
		strRows = st.rows
	}
	comments := p.Module.Comments()
	rows := mergeCommentRows(strRows, comments)
	if len(rows) == 0 {
		return
	}
	limit := int(p.Limit())
	starts := p.Tree.LineStarts()
	src := p.Tree.Source
	text := sourceString(p.Tree) // lines as substrings, not copies
	widest := 0
	for i, r := range rows {
		if (i > 0 && rows[i-1] == r) || r >= len(starts) {
			continue
		}
		b := lineBytes(src, starts, r)
		if w := pyast.DisplayWidth(b, 4); w <= limit { // most lines
			widest = max(widest, w)
			continue
		}
		line := text[starts[r] : int(starts[r])+len(b)]
		cut := -1
		if c := commentOn(comments, r); c != nil {
			if k := pyast.PragmaStart(c.Text); k >= 0 {
				cut = c.Column + k
			}
		}
		w, over := overlong(line, cut, limit)
		widest = max(widest, w)
		if over {
			p.ReportAtf(r+1, 1, "doc line is %d columns wide (> %d)", w, limit)
		}
	}
	p.Measure(float64(widest))
}

// mergeCommentRows returns, in ascending order (duplicates kept), the rows
// strRows and the 0-based rows of the own-line comments. Both come in
// source order, so one merge gives what sorting their concatenation gives;
// should either be out of order, the concatenation is sorted instead.
func mergeCommentRows(strRows []int, comments []pyast.Comment) []int {
	rows := make([]int, 0, len(strRows)+len(comments))
	sorted := slices.IsSorted(strRows)
	i, last := 0, -1
	for k := range comments {
		c := &comments[k]
		if !c.OwnLine {
			continue
		}
		r := c.Line - 1
		sorted = sorted && r >= last
		last = r
		for sorted && i < len(strRows) && strRows[i] <= r {
			rows = append(rows, strRows[i])
			i++
		}
		rows = append(rows, r)
	}
	rows = append(rows, strRows[i:]...)
	if !sorted {
		sort.Ints(rows)
	}
	return rows
}

// lineText returns row r of src without its line break.
func lineText(src []byte, starts []uint32, r int) string {
	return string(lineBytes(src, starts, r))
}

// lineBytes returns row r of src without its line break ("\n", then a "\r"
// before it), as a sub-slice of src.
func lineBytes(src []byte, starts []uint32, r int) []byte {
	end := len(src)
	if r+1 < len(starts) {
		end = int(starts[r+1])
	}
	b := src[starts[r]:end]
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// commentOn returns the comment on 0-based row r (a row holds at most one),
// or nil; comments are in source order.
func commentOn(comments []pyast.Comment, r int) *pyast.Comment {
	i := sort.Search(len(comments), func(i int) bool { return comments[i].Line-1 >= r })
	if i < len(comments) && comments[i].Line-1 == r {
		return &comments[i]
	}
	return nil
}

// overlong measures line and applies the exemptions. cut is the byte
// offset of a trailing pragma comment to ignore, -1 when there is none. It
// returns the width that decided the verdict.
func overlong(line string, cut, limit int) (int, bool) {
	width := lineWidth(line)
	if width <= limit {
		return width, false
	}
	if cut >= 0 && cut <= len(line) {
		line = strings.TrimRight(line[:cut], " \t\f")
	}
	last, several := lastField(line)
	if !several {
		return width, false
	}
	if strings.Contains(last, "://") && width-lineWidth(last) <= limit {
		return width, false
	}
	trimmed := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(trimmed, "# SPDX-License-Identifier:") || strings.HasPrefix(trimmed, "# SPDX-FileCopyrightText:") {
		return width, false
	}
	width = lineWidth(line)
	return width, width > limit
}

// lastField returns the last of the whitespace-separated chunks that
// strings.Fields(s) returns, and whether there are at least two, without
// building the list.
func lastField(s string) (last string, several bool) {
	end := len(s)
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= size
	}
	start := end
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:start])
		if unicode.IsSpace(r) {
			break
		}
		start -= size
	}
	for _, r := range s[:start] {
		if !unicode.IsSpace(r) {
			return s[start:end], true
		}
	}
	return s[start:end], false
}

// lineWidth is the display width of s as Ruff measures it (pyast.DisplayWidth, tab size 4).
func lineWidth(s string) int { return pyast.DisplayWidth([]byte(s), 4) }
