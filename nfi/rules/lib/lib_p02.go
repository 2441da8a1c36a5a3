package lib

import "github.com/polynfi/polynfi/nfi"

// TypingBuiltinAlias reports the typing alias of a builtin generic (List, Dict, ...) instead of the builtin.
//
// Source: PEP 585 ("Importing those from typing is deprecated").
var TypingBuiltinAlias = &nfi.Rule{
	ID: "LIB-P02", Name: "typing-builtin-generic-alias", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "typing alias of a builtin generic (List, Dict, ...) instead of the builtin",
		What:    "An import or reference that resolves to typing.{List, Dict, Set, FrozenSet, Tuple, Type} or typing_extensions.Type, annotations included (`x: List[int]` counts).",
		Why:     "PEP 585 made the builtins generic in Python 3.9 and deprecated the typing aliases; `list[int]` needs no import.",
		Bad:     "from typing import List\n\n\ndef first(xs: List[int]) -> int:\n    return xs[0]\n",
		Good:    "def first(xs: list[int]) -> int:\n    return xs[0]\n",
		Exempt:  "Strings in annotations (`\"List[int]\"`) are not parsed and pass.",
		Source:  "PEP 585 (\"Importing those from typing is deprecated\")",
		Oracle:  "Ruff UP006/UP035 (not exact): Ruff reports them only for target versions >= 3.9 and UP006 only in annotations; the catalog reports every import and reference.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"UP006", "UP035"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
