package lib

import "github.com/polynfi/polynfi/nfi"

// NumpyScalarAlias reports the NumPy alias of a builtin type (np.int, np.float, np.bool, ...).
//
// Source: NumPy 1.20.0 and 1.24.0 release notes; SWE-NFI paper example (np.bool).
var NumpyScalarAlias = &nfi.Rule{
	ID: "LIB-P04", Name: "numpy-removed-scalar-alias", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "NumPy alias of a builtin type (np.int, np.float, np.bool, ...)",
		What:    "An import or reference that resolves to numpy.{bool, int, float, complex, object, str, long, unicode}: deprecated in NumPy 1.20 and removed in 1.24. The catalog targets NumPy 1.x-era code, so np.bool and np.long count although NumPy 2.0 re-added them with new meanings.",
		Why:     "The aliases were plain builtins, removed in NumPy 1.24: code using them fails with AttributeError on NumPy 1.24 and 1.25-1.26.",
		Bad:     "import numpy as np\n\n\ndef mask(n):\n    return np.zeros(n, dtype=np.bool)\n",
		Good:    "import numpy as np\n\n\ndef mask(n):\n    return np.zeros(n, dtype=np.bool_)\n",
		Exempt:  "Files that do not import numpy pass. np.int64, np.float64, np.bool_ and the other sized types pass.",
		Source:  "NumPy 1.20.0 and 1.24.0 release notes; SWE-NFI paper example (np.bool)",
		Oracle:  "Ruff NPY001 (not exact): since Ruff PR #11735 (\"Update NPY001 rule for NumPy 2.0\") NPY001 no longer flags np.bool and np.long, so `np.zeros(3, dtype=np.bool)` fails here and passes Ruff.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"NPY001"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
