package lib

import "github.com/polynfi/polynfi/nfi"

// Numpy2Removed reports the name removed from the NumPy 2.0 main namespace.
//
// Source: NumPy 2.0 migration guide ("Changes to namespaces").
var Numpy2Removed = &nfi.Rule{
	ID: "LIB-P06", Name: "numpy2-removed-member", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "name removed from the NumPy 2.0 main namespace",
		What:    "An import or reference that resolves to a member removed from the numpy namespace in NumPy 2.0 (float_, complex_, string_, unicode_, cfloat, longfloat, longcomplex, clongfloat, singlecomplex, NaN, NAN, Inf, INF, Infinity, infty, PINF, NINF, PZERO, NZERO, mat, find_common_type, issubclass_, issctype, issubsctype, maximum_sctype, obj2sctype, sctype2char, sctypes, cast, source, lookfor, who, disp, safe_eval, recfromcsv, recfromtxt, deprecate, deprecate_with_doc, set_string_function, byte_bounds, compare_chararrays, chararray, format_parser, fastCopyAndTranspose, geterrobj, seterrobj, add_newdoc, add_newdoc_ufunc, add_docstring, set_numeric_ops, get_array_wrap, tracemalloc_domain, DataSource, compat, nbytes) or an exception/warning moved to numpy.exceptions (AxisError, ComplexWarning, VisibleDeprecationWarning, RankWarning, TooHardError, DTypePromotionError, ModuleDeprecationWarning). The full list with replacements is in deprecated.tsv.",
		Why:     "These names raise AttributeError on NumPy 2.x.",
		Bad:     "import numpy as np\n\n\ndef missing(n):\n    return np.full(n, np.NaN)\n",
		Good:    "import numpy as np\n\n\ndef missing(n):\n    return np.full(n, np.nan)\n",
		Exempt:  "Files that do not import numpy pass.",
		Source:  "NumPy 2.0 migration guide (\"Changes to namespaces\")",
		Oracle:  "Ruff NPY201 (not exact): NPY201 also reports LIB-P05's names and members of numpy.lib and numpy.core, which this rule leaves to others.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"NPY201"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
