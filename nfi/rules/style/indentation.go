package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// Indentation reports indentation that is not a multiple of four or that
// indents a block by more than one level.
//
// Source: PEP 8 "Indentation"; pycodestyle and Ruff E111, E114, E117 (Ruff: preview).
var Indentation = &nfi.Rule{
	ID: "STY-R07", Name: "four-space-indentation", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "indentation uses multiples of 4 spaces, one level per block",
		What: "For every logical line and every comment line outside brackets: the indentation " +
			"width (a tab advances to the next multiple of 4) is a multiple of 4 (E111; E114 " +
			"for comments), and a line that opens a block (after a line ending in `:`) is " +
			"indented at most one level (4, or 8 in a tab-indented file) deeper than that " +
			"line (E117). Continuation lines and string contents are not checked.",
		Why:    "PEP 8: use 4 spaces per indentation level; odd or doubled indentation hides the block structure.",
		Bad:    "if True:\n  x = 1\n",
		Good:   "if True:\n    x = 1\n",
		Exempt: "continuation lines inside brackets or after a backslash (their alignment is E12x, not checked); lines inside strings.",
		Source: "PEP 8 (\"Use 4 spaces per indentation level\"); pycodestyle E111/E114/E117",
		Oracle: "Ruff E111, E114, E117 (--preview), same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E111", "E114", "E117"}, Preview: true, Exact: true},
	Finish: checkIndentation,
}

// expandIndent returns the width of an indentation string: a tab advances
// to the next multiple of tabSize, a space adds 1, a form feed adds nothing.
// Source: Ruff pycodestyle helpers expand_indent.
func expandIndent(ind []byte) int {
	w := 0
	for _, c := range ind {
		switch c {
		case '\t':
			w = (w/tabSize)*tabSize + tabSize
		case ' ':
			w++
		}
	}
	return w
}

func checkIndentation(p *nfi.Pass) {
	ls := p.Module.Lines()
	src := p.Tree.Source
	over := 4
	if ls.IndentChar == '\t' {
		over = 8
	}
	prevLevel := 0
	for i := range ls.List {
		l := &ls.List[i]
		if l.Flags&(pyast.LogicalStart|pyast.CommentOnly) == 0 || l.Has(pyast.Continuation) {
			continue
		}
		level := expandIndent(src[l.Start : l.Start+l.Indent])
		comment := l.Has(pyast.CommentOnly)
		what := ""
		if comment {
			what = " (comment)"
		}
		if level%4 != 0 {
			p.ReportAtf(i+1, 1, "indentation %d is not a multiple of 4%s", level, what)
		} else if l.Has(pyast.AfterColon) && level > prevLevel+over {
			p.ReportAtf(i+1, 1, "over-indented: %d columns deeper than the block header%s", level-prevLevel, what)
		}
		if !comment {
			prevLevel = level
		}
	}
}
