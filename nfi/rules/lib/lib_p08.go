package lib

import "github.com/polynfi/polynfi/nfi"

// PandasIx reports the pandas .ix indexer.
//
// Source: pandas 1.0.0 release notes; SWE-NFI paper example (.ix[]).
var PandasIx = &nfi.Rule{
	ID: "LIB-P08", Name: "pandas-ix-indexer", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "pandas .ix indexer",
		What:    "An attribute `.ix` on any receiver that is not an imported module, in a file that imports pandas.",
		Why:     "`.ix` was removed in pandas 1.0; it guessed between label and position, and .loc/.iloc say which one is meant.",
		Bad:     "import pandas as pd\n\n\ndef first_row(df: pd.DataFrame):\n    return df.ix[0]\n",
		Good:    "import pandas as pd\n\n\ndef first_row(df: pd.DataFrame):\n    return df.iloc[0]\n",
		Exempt:  "Files that do not import pandas pass.",
		Source:  "pandas 1.0.0 release notes; SWE-NFI paper example (.ix[])",
		Oracle:  "Ruff PD007 (not exact): PD007 flags only subscripted `.ix[...]` and does not require a pandas import.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PD007"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
