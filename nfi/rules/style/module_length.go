package style

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
)

// ModuleLength reports modules longer than the limit in physical lines.
//
// Source: pylint C0302 too-many-lines (max-module-lines=1000).
var ModuleLength = &nfi.Rule{
	ID: "STY-T05", Name: "module-too-long", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 1000, Cmp: nfi.AtMost, Unit: "lines"},
	Doc: nfi.Doc{
		Summary: "modules are at most 1000 lines long",
		What: "The number of physical lines of the file: the number of line breaks, plus one " +
			"when the last line has no line break. Blank, comment and string lines count.",
		Why:    "Very long modules mix responsibilities and are hard to navigate; splitting them gives each part a name.",
		Bad:    repeatLines("x = 1\n", 1001),
		Good:   repeatLines("x = 1\n", 1000),
		Exempt: "nothing; an empty file has 0 lines.",
		Source: "pylint C0302 too-many-lines, default max-module-lines=1000",
		Oracle: "No Ruff rule. pylint C0302 counts the same physical lines but ignores trailing " +
			"blank lines and disables itself on `# pylint: disable=too-many-lines`; both are " +
			"ignored here.",
	},
	Finish: checkModuleLength,
}

var newline = []byte{'\n'}

func checkModuleLength(p *nfi.Pass) {
	src := p.Tree.Source
	n := bytes.Count(src, newline)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	p.Measure(float64(n))
	if p.Exceeds(float64(n)) {
		p.ReportAtf(int(p.Limit())+1, 1, "module has %d lines (> %d)", n, int(p.Limit()))
	}
}
