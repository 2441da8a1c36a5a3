package lib

import "github.com/polynfi/polynfi/nfi"

// PandasRemovedMethod reports the method or attribute removed from pandas objects.
//
// Source: pandas 1.0.0 and 2.0.0 release notes.
var PandasRemovedMethod = &nfi.Rule{
	ID: "LIB-P10", Name: "pandas-removed-method", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "method or attribute removed from pandas objects",
		What:    "In a file that imports pandas, a call of `.iteritems()`, `.as_matrix()`, `.get_value()`, `.set_value()`, `.lookup()`, `.to_sparse()` or `.get_dtype_counts()`, or an access of `.ftypes`, on any receiver that is not an imported module.",
		Why:     "These were removed in pandas 1.0 or 2.0 and raise AttributeError.",
		Bad:     "import pandas as pd\n\n\ndef columns(df: pd.DataFrame):\n    return [name for name, _ in df.iteritems()]\n",
		Good:    "import pandas as pd\n\n\ndef columns(df: pd.DataFrame):\n    return [name for name, _ in df.items()]\n",
		Exempt:  "Files that do not import pandas pass: the names are common (`codecs.lookup`, `dict.iteritems` in old code), so without pandas in the file they are not attributed to it. This gate is a polynfi decision; the catalog text has none.",
		Source:  "pandas 1.0.0 and 2.0.0 release notes",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
