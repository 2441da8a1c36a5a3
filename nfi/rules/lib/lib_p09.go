package lib

import "github.com/polynfi/polynfi/nfi"

// PandasRemovedKeyword reports the keyword argument removed in pandas 2.0.
//
// Source: pandas 2.0.0 release notes (Removal of prior version deprecations/changes).
var PandasRemovedKeyword = &nfi.Rule{
	ID: "LIB-P09", Name: "pandas-removed-keyword", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "keyword argument removed in pandas 2.0",
		What:    "A call resolving to pandas.read_csv, read_table or read_fwf with error_bad_lines=, warn_bad_lines=, squeeze=, prefix= or mangle_dupe_cols=; in a file that imports pandas, any `.to_csv(...)` call with line_terminator= and any `.set_axis(...)` call with inplace=.",
		Why:     "pandas 2.0 removed these keywords; the calls raise TypeError.",
		Bad:     "import pandas as pd\n\n\ndef load(path):\n    return pd.read_csv(path, error_bad_lines=False)\n",
		Good:    "import pandas as pd\n\n\ndef load(path):\n    return pd.read_csv(path, on_bad_lines='skip')\n",
		Exempt:  "Files that do not import pandas pass; method calls are only checked in files that import pandas.",
		Source:  "pandas 2.0.0 release notes (Removal of prior version deprecations/changes)",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
