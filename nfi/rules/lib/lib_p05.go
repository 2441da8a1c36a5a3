package lib

import "github.com/polynfi/polynfi/nfi"

// NumpyDeprecatedFunction reports the deprecated NumPy function (np.product, np.in1d, np.trapz, ...).
//
// Source: NumPy 1.23, 1.25 and 2.0 release notes.
var NumpyDeprecatedFunction = &nfi.Rule{
	ID: "LIB-P05", Name: "numpy-deprecated-function", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "deprecated NumPy function (np.product, np.in1d, np.trapz, ...)",
		What:    "An import or reference that resolves to numpy.{round_, product, cumproduct, sometrue, alltrue} (deprecated in 1.25), numpy.asscalar (removed in 1.23), numpy.asfarray (removed in 2.0), or numpy.{in1d, trapz, row_stack} (deprecated in 2.0).",
		Why:     "Each has a modern name (np.round, np.prod, np.isin, np.trapezoid, np.vstack) and the old ones are gone or going.",
		Bad:     "import numpy as np\n\n\ndef volume(dims):\n    return np.product(dims)\n",
		Good:    "import numpy as np\n\n\ndef volume(dims):\n    return np.prod(dims)\n",
		Exempt:  "Files that do not import numpy pass.",
		Source:  "NumPy 1.23, 1.25 and 2.0 release notes",
		Oracle:  "Ruff NPY003 and NPY201 (not exact): NPY201 also covers LIB-P06's names, and in1d/trapz/row_stack are NPY201 only in preview versions.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"NPY003", "NPY201"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
