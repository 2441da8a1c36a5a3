package style

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// MixedIndentation reports indentation that mixes tabs and spaces.
//
// Source: PEP 8 "Tabs or Spaces?"; Ruff E101 (pycodestyle); catalog decision 11.
var MixedIndentation = &nfi.Rule{
	ID: "STY-P02", Name: "mixed-tabs-and-spaces", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no mixing of tabs and spaces in indentation",
		What: "Fails when (a) the leading whitespace of any physical line (strings and blank " +
			"lines included, as Ruff E101) contains both a tab and a space, or (b) the file " +
			"indents some code or comment lines outside strings with tabs and others with " +
			"spaces: every such line whose indentation starts with the other character than " +
			"the file's first indented statement is reported (pycodestyle's indent_char).",
		Why:  "PEP 8: Python disallows mixing tabs and spaces for indentation; mixed files render differently in every editor and can raise TabError.",
		Bad:  "if True:\n\t    x = 1\n",
		Good: "if True:\n    x = 1\n",
		Exempt: "indentation with tabs only is allowed when the whole file uses tabs (W191, " +
			"any tab, is the stricter reading and is not part of this rule).",
		Source: "PEP 8 (\"Python disallows mixing tabs and spaces for indentation\"); Ruff E101; catalog decision 11",
		Oracle: "Ruff E101 for part (a). Part (b) is the catalog's stricter reading: a file with " +
			"one function indented by tabs and another by spaces fails here but passes Ruff " +
			"(pycodestyle's E101 reports it).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E101"}, Exact: true},
	Finish: checkMixedIndentation,
}

func checkMixedIndentation(p *nfi.Pass) {
	ls := p.Module.Lines()
	src := p.Tree.Source
	tabs := bytes.IndexByte(src, '\t') >= 0 // else no indentation mixes
	for i := range ls.List {
		l := &ls.List[i]
		ind := src[l.Start : l.Start+l.Indent]
		tab, space := false, false
		if tabs {
			for _, c := range ind {
				switch c {
				case '\t':
					tab = true
				case ' ':
					space = true
				}
			}
		}
		if tab && space {
			p.ReportAtf(i+1, 1, "indentation contains mixed spaces and tabs")
			continue
		}
		if ls.IndentChar == 0 || l.Indent == 0 || l.Flags&(pyast.InString|pyast.Blank) != 0 {
			continue
		}
		if c := ind[0]; (c == ' ' || c == '\t') && c != ls.IndentChar {
			p.ReportAtf(i+1, 1, "indentation uses %s but the file indents with %s", charName(c), charName(ls.IndentChar))
		}
	}
}

func charName(c byte) string {
	if c == '\t' {
		return "tabs"
	}
	return "spaces"
}
