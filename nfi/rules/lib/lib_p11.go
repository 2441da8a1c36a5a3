package lib

import "github.com/polynfi/polynfi/nfi"

// PandasRemovedAttribute reports the pandas module attribute removed (pd.np, pd.Panel, pd.rolling_mean, ...).
//
// Source: pandas 0.23.0, 1.0.0 and 2.0.0 release notes.
var PandasRemovedAttribute = &nfi.Rule{
	ID: "LIB-P11", Name: "pandas-removed-module-attribute", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "pandas module attribute removed (pd.np, pd.Panel, pd.rolling_mean, ...)",
		What:    "An import or reference that resolves to pandas.{np, datetime, Panel, TimeGrouper, ewma, ewmstd, ewmvar, ewmcorr, ewmcov, read_msgpack, SparseDataFrame, SparseSeries, Int64Index, Float64Index, UInt64Index} or pandas.rolling_{mean, sum, std, var, min, max, median, count, apply, corr, cov, skew, kurt, quantile, window}.",
		Why:     "These names were removed from pandas (0.23 to 2.0) and raise AttributeError.",
		Bad:     "import pandas as pd\n\n\ndef smooth(s):\n    return pd.rolling_mean(s, 3)\n",
		Good:    "import pandas as pd\n\n\ndef smooth(s: pd.Series):\n    return s.rolling(3).mean()\n",
		Exempt:  "Files that do not import pandas pass.",
		Source:  "pandas 0.23.0, 1.0.0 and 2.0.0 release notes",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
