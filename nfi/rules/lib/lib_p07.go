package lib

import "github.com/polynfi/polynfi/nfi"

// NumpyLegacyRandom reports the call of NumPy's legacy global random generator.
//
// Source: NEP 19 (Random number generator policy).
var NumpyLegacyRandom = &nfi.Rule{
	ID: "LIB-P07", Name: "numpy-legacy-random", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "call of NumPy's legacy global random generator",
		What:    "A call whose callee resolves to numpy.random.{seed, get_state, set_state, rand, ranf, sample, randn, randint, random, random_integers, random_sample, choice, bytes, shuffle, permutation} or one of the legacy distributions (beta, binomial, ..., normal, poisson, uniform, ..., zipf).",
		Why:     "The legacy functions share one hidden global state, which makes results depend on call order across modules; NEP 19 recommends an explicit Generator from np.random.default_rng(seed).",
		Bad:     "import numpy as np\n\n\ndef noise(n):\n    np.random.seed(0)\n    return np.random.normal(size=n)\n",
		Good:    "import numpy as np\n\n\ndef noise(n):\n    rng = np.random.default_rng(0)\n    return rng.normal(size=n)\n",
		Exempt:  "Methods of a Generator or RandomState object (`rng.normal()`) pass; only the module-level functions count.",
		Source:  "NEP 19 (Random number generator policy)",
		Oracle:  "Ruff NPY002, same semantics (calls only; `from numpy.random import seed` alone passes, `seed(0)` fails).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"NPY002"}, Exact: true},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
