package doc

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi"
)

// TaskComments reports TODO, FIXME, XXX and HACK comments.
//
// Source: Tufts CS 40 coding standards; flake8-fixme; Ruff FIX001-FIX004.
var TaskComments = &nfi.Rule{
	ID: "DOC-P02", Name: "task-comment", Aspect: nfi.Documentation, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "comment is a TODO, FIXME, XXX or HACK note",
		What: "A comment token breaks the rule when, in any of its `#`-separated sections, the first " +
			"word (a run of letters and digits, after stripping `#` and whitespace) is TODO, FIXME, XXX " +
			"or HACK, case-insensitively: `# todo: x`, `# FIXME(bob)`, `# note # TODO` fail; " +
			"`# this is a TODO` and `# TODOS` pass. Only comments are scanned, not strings or docstrings.",
		Why:    "Leftover task notes mark unfinished work; a change that leaves them behind is not done.",
		Bad:    "def f():\n    return 1  # TODO: handle errors\n",
		Good:   "def f():\n    return 1  # errors are handled by the caller\n",
		Exempt: "Words inside strings and docstrings; task words that are not the first word of a section.",
		Source: "Tufts CS 40 coding standards (no leftover work); flake8-fixme; the polynfi-92 catalog spec DOC-P02 and Decision 6",
		Oracle: "Ruff FIX001 (FIXME), FIX002 (TODO), FIX003 (XXX), FIX004 (HACK), same directive " +
			"detection (ruff `directives.rs` TodoDirective::from_comment). Difference: Ruff honours " +
			"`# noqa` on the line (`# TODO: x  # noqa` passes Ruff, fails DOC-P02).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"FIX001", "FIX002", "FIX003", "FIX004"}, Exact: true},
	Finish: checkTaskComments,
}

func checkTaskComments(p *nfi.Pass) {
	for _, c := range p.Module.Comments() {
		if tag, off, ok := taskDirective(c.Text); ok {
			p.ReportAtf(c.Line, c.Column+1+off, "%s comment", strings.ToUpper(tag))
		}
	}
}

// taskDirective finds a task tag as the first word of a `#`-separated
// section of comment. It returns the tag as written and its byte offset.
func taskDirective(comment string) (tag string, offset int, ok bool) {
	pos := 0
	for {
		rest := comment[pos:]
		trimmed := strings.TrimLeftFunc(strings.TrimLeft(rest, "#"), unicode.IsSpace)
		pos += len(rest) - len(trimmed)
		end := strings.IndexFunc(trimmed, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
		word := trimmed
		if end >= 0 {
			word = trimmed[:end]
		}
		if isTaskTag(word) {
			return word, pos, true
		}
		next := strings.IndexByte(trimmed, '#')
		if next < 0 {
			return "", 0, false
		}
		pos += next
	}
}

// isTaskTag reports whether strings.ToLower(word) is todo, fixme, xxx or
// hack, without a lower-case copy of an ASCII word.
func isTaskTag(word string) bool {
	for i := 0; i < len(word); i++ {
		if word[i] >= utf8.RuneSelf { // ToLower may map a non-ASCII letter to ASCII (K, İ)
			switch strings.ToLower(word) {
			case "todo", "fixme", "xxx", "hack":
				return true
			}
			return false
		}
	}
	if len(word) < 3 || len(word) > 5 {
		return false
	}
	var b [5]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	switch string(b[:len(word)]) {
	case "todo", "fixme", "xxx", "hack":
		return true
	}
	return false
}
