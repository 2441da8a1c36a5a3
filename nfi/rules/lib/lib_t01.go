package lib

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
)

// DeprecatedAPICount reports files with many uses of deprecated or removed APIs.
//
// Source: SWE-NFI (deprecated-API count per file).
var DeprecatedAPICount = &nfi.Rule{
	ID: "LIB-T01", Name: "deprecated-api-count", Aspect: nfi.LibraryConstraints, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 2, Cmp: nfi.AtMost, Unit: "occurrences"},
	Doc: nfi.Doc{
		Summary: "file uses too many deprecated or removed APIs",
		What: "The total number of occurrences (not distinct names) of every LIB-P01 to LIB-P19 " +
			"pattern in the file, counted exactly as those rules report them (one per reference, " +
			"call, keyword or import; conditions such as \"file imports pandas\" apply), must be at " +
			"most the limit (default 2). The diagnostic sits on the first occurrence over the limit.",
		Why: "A few stragglers are routine maintenance; many mark code written against old library " +
			"versions that will break together on the next upgrade.",
		Bad:    "import numpy as np\n\n\ndef stats(a):\n    return np.product(a), np.float_(0), np.asscalar(a)\n",
		Good:   "import numpy as np\n\n\ndef stats(a):\n    return np.prod(a), np.float64(0), a.item()\n",
		Exempt: "A file with no occurrence passes (value 0).",
		Source: "SWE-NFI deprecated-API count (threshold rule); the pattern rows in deprecated.tsv",
		Oracle: "the union of the LIB-P oracles (counted, not exact)",
	},
	Finish: checkDeprecatedAPICount,
}

func checkDeprecatedAPICount(p *nfi.Pass) {
	var all []hit
	for rule, hs := range hits(p.Module).byRule {
		if strings.HasPrefix(rule, "LIB-P") {
			all = append(all, hs...)
		}
	}
	sortHits(all)
	n := float64(len(all))
	p.Measure(n)
	if !p.Exceeds(n) {
		return
	}
	over := all[int(p.Limit())]
	p.Reportf(over.node, "file has %d uses of deprecated or removed APIs (> %g); %s (%s)", len(all), p.Limit(), describe(p.Tree, over), over.e.rule)
}
