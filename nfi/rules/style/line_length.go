package style

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// LineLength reports physical lines wider than the limit.
//
// Source: PEP 8 "Maximum Line Length"; Ruff E501 (pycodestyle); pylint C0301.
var LineLength = &nfi.Rule{
	ID: "STY-T01", Name: "line-too-long", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 100, Cmp: nfi.AtMost, Unit: "columns"},
	Doc: nfi.Doc{
		Summary: "lines are at most 100 columns wide",
		What: "The width of every physical line (strings and comments included) is at most the " +
			"limit. Width is Ruff's: the sum of Unicode display widths (East Asian wide and " +
			"fullwidth characters 2, combining and control characters 0), a tab advancing to " +
			"the next multiple of 4 characters. The measured value is the widest line.",
		Why:  "PEP 8 limits lines so that code can be read side by side and in review tools without wrapping; pylint and many teams use 100.",
		Bad:  "def f():\n    return {\"alpha\": 1, \"beta\": 2, \"gamma\": 3, \"delta\": 4, \"epsilon\": 5, \"zeta\": 6, \"eta\": 7, \"theta\": 8}\n",
		Good: "def f():\n    return {\n        \"alpha\": 1, \"beta\": 2, \"gamma\": 3, \"delta\": 4,\n        \"epsilon\": 5, \"zeta\": 6, \"eta\": 7,\n    }\n",
		Exempt: "lines that cannot be shortened: a single whitespace-free chunk; a line whose " +
			"last chunk contains `://` and starts at or before the limit; `# SPDX-License-" +
			"Identifier:` and `# SPDX-FileCopyrightText:` lines; lines that are too long only " +
			"because of a trailing pragma: a comment that is a pragma (# noqa, # type:, # pyright:, " +
			"# pyrefly:, # pylint:, # flake8:, # ruff:, # isort:, # nosec, # ty:) or a comment that ends " +
			"in one (`# see the guide  # noqa: E501`: the line is measured up to the pragma's `#`, " +
			"trailing whitespace dropped, and the diagnostic gives that width). The measured value " +
			"includes exempt lines.",
		Source: "PEP 8 (79, or up to 99 by team agreement); pylint max-line-length=100; Ruff E501",
		Oracle: "Ruff E501 (0.17.6) with --line-length=100, same semantics. Before issue #18 this rule " +
			"only stripped a comment that was a pragma as a whole, and flagged a long comment ending in " +
			"`# noqa: E501` that Ruff measures without it. Differences: widths come from " +
			"go-runewidth's Unicode tables, which may differ from Rust's unicode-width for a " +
			"few emoji and unassigned code points; Ruff also honours `# noqa: E501` as a suppression " +
			"on a line that stays too long without its comment, which this rule leaves to polynfi's " +
			"own `# noqa` handling (the oracle runs with --ignore-noqa).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E501"}, RuffLimit: "line-length", Exact: true},
	Finish: checkLineLength,
}

// tabSize is Ruff's default tab-size (indent-width) for measuring tabs.
const tabSize = 4

var tabByte = []byte{'\t'}

func checkLineLength(p *nfi.Pass) {
	ls := p.Module.Lines()
	src := p.Tree.Source
	limit := int(p.Limit())
	maxWidth := 0
	tabs := bytes.IndexByte(src, '\t') >= 0
	for i := range ls.List {
		l := &ls.List[i]
		text := src[l.Start:l.End]
		// A line is at most one column a byte wide, plus tabSize-1 per tab:
		// a line that cannot reach the widest so far nor the limit is skipped.
		bound := len(text)
		if tabs {
			bound += (tabSize - 1) * bytes.Count(text, tabByte)
		}
		if bound <= maxWidth && bound <= limit {
			continue
		}
		// Quick reject: a line of n bytes is at most n*tabSize wide.
		if len(text)*tabSize <= limit {
			maxWidth = max(maxWidth, pyast.DisplayWidth(text, tabSize))
			continue
		}
		width := pyast.DisplayWidth(text, tabSize)
		maxWidth = max(maxWidth, width)
		if width <= limit {
			continue
		}
		if l.Comment >= 0 {
			if k := pyast.PragmaStart(string(src[l.Comment:l.End])); k >= 0 {
				text = bytes.TrimRight(src[l.Start:int(l.Comment)+k], " \t\f")
				width = pyast.DisplayWidth(text, tabSize)
				if width <= limit {
					continue
				}
			}
		}
		if !overlong(text, width, limit) {
			continue
		}
		p.ReportAtf(i+1, 1, "line is %d columns wide (> %d)", width, limit)
	}
	p.Measure(float64(maxWidth))
}

// overlong applies E501's exemptions to a line of the given width.
func overlong(text []byte, width, limit int) bool {
	chunks := bytes.Fields(text)
	if len(chunks) < 2 {
		return false
	}
	last := chunks[len(chunks)-1]
	if bytes.Contains(last, []byte("://")) && width-pyast.DisplayWidth(last, tabSize) <= limit {
		return false
	}
	if string(chunks[0]) == "#" && (string(chunks[1]) == "SPDX-License-Identifier:" || string(chunks[1]) == "SPDX-FileCopyrightText:") {
		return false
	}
	return true
}
