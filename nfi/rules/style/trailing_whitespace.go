package style

import (
	"unicode"
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi"
)

// TrailingWhitespace reports physical lines that end in whitespace.
//
// Source: PEP 8 "Other Recommendations"; Ruff W291, W293 (pycodestyle).
var TrailingWhitespace = &nfi.Rule{
	ID: "STY-P01", Name: "trailing-whitespace", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no trailing whitespace",
		What: "A physical line whose last character before the line break is Unicode " +
			"whitespace (space, tab, form feed, no-break space, ...): W291 for a line with " +
			"content, W293 for a whitespace-only line. Lines inside multi-line strings count " +
			"(Ruff reports them too; only its autofix is unsafe there).",
		Why:    "PEP 8: trailing whitespace is invisible and confusing; it makes diffs noisy and a trailing backslash followed by a space is not a line continuation.",
		Bad:    "x = 1 \n",
		Good:   "x = 1\n",
		Exempt: "the line break itself (\\n or \\r\\n).",
		Source: "PEP 8 (\"Avoid trailing whitespace anywhere\"); Ruff W291, W293",
		Oracle: "Ruff W291 and W293, same semantics. Difference: a lone carriage return ends a " +
			"line for Ruff but not here, so `x = 1 \\ry = 2` is not reported (no Python file " +
			"in the standard library has one).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"W291", "W293"}, Exact: true},
	Finish: checkTrailingWhitespace,
}

func checkTrailingWhitespace(p *nfi.Pass) {
	ls := p.Module.Lines()
	src := p.Tree.Source
	for i := range ls.List {
		l := &ls.List[i]
		if l.End == l.Start {
			continue
		}
		text := src[l.Start:l.End]
		n := trailingSpace(text)
		if n == 0 {
			continue
		}
		if n == len(text) {
			p.ReportAtf(i+1, 1, "blank line contains whitespace")
		} else {
			p.ReportAtf(i+1, utf8.RuneCount(text[:len(text)-n])+1, "trailing whitespace")
		}
	}
}

// trailingSpace returns the byte length of the run of Unicode whitespace at
// the end of text.
func trailingSpace(text []byte) int {
	end := len(text)
	for end > 0 {
		c := text[end-1]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' {
				end--
				continue
			}
			break
		}
		r, size := utf8.DecodeLastRune(text[:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= size
	}
	return len(text) - end
}
