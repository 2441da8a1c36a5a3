package lib

import "github.com/polynfi/polynfi/nfi"

// UnittestAlias reports the deprecated unittest assertion alias.
//
// Source: Python 3.12 What's New (unittest aliases removed).
var UnittestAlias = &nfi.Rule{
	ID: "LIB-P18", Name: "deprecated-unittest-alias", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "deprecated unittest assertion alias",
		What:    "A call `self.<alias>(...)` where alias is one of assertEquals, assertNotEquals, assertAlmostEquals, assertNotAlmostEquals, assertRegexpMatches, assertNotRegexpMatches, assertRaisesRegexp, assert_, failIf, failIfEqual, failIfAlmostEqual, failUnless, failUnlessEqual, failUnlessAlmostEqual, failUnlessRaises (removed in Python 3.12). The receiver must be the bare name self, as in Ruff.",
		Why:     "The aliases were removed in Python 3.12: the tests crash with AttributeError instead of asserting.",
		Bad:     "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_sum(self):\n        self.assertEquals(sum([1, 2]), 3)\n",
		Good:    "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(sum([1, 2]), 3)\n",
		Exempt:  "Calls on other receivers (`case.assertEquals(...)`) and references without a call pass.",
		Source:  "Python 3.12 What's New (unittest aliases removed)",
		Oracle:  "Ruff UP005, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"UP005"}, Exact: true},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
