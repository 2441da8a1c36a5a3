package jsts

import (
	"regexp"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// warningRe matches a comment's value that starts with a warning term.
var warningRe = regexp.MustCompile(`(?i)^\s*(?:todo|fixme|xxx)\b`)

// NoWarningComments reports TODO, FIXME and XXX comments.
//
// Source: ESLint no-warning-comments (terms todo, fixme, xxx; location start).
var NoWarningComments = &nfi.Rule{
	ID: "JS-DOC-P01", Name: "no-warning-comments", Aspect: nfi.Documentation, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "TODO, FIXME or XXX comment",
		What:    "A comment whose text starts (after blanks) with the word todo, fixme or xxx, in any case.",
		Why:     "A task comment documents unfinished work in the code instead of in the tracker, where it is seen.",
		Bad:     "// TODO: handle errors\nf();\n",
		Good:    "// errors are handled by f\nf();\n",
		Source:  "ESLint no-warning-comments",
		Oracle:  "ESLint 10.15.0 no-warning-comments with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-warning-comments"}, Exact: true},
	Kinds:  []string{"comment"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if warningRe.Match(commentValue(p.Tree.Text(n))) {
			p.Reportf(n, "unexpected task comment")
		}
	},
}
