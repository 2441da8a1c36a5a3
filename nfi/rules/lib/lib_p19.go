package lib

import "github.com/polynfi/polynfi/nfi"

// DeprecatedStdlibFunction reports the removed or deprecated standard-library function.
//
// Source: Python 3.8-3.13 What's New; python/cpython PR #122775; pyupgrade docs.
var DeprecatedStdlibFunction = &nfi.Rule{
	ID: "LIB-P19", Name: "deprecated-stdlib-function", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "removed or deprecated standard-library function",
		What:    "An import or reference that resolves to logging.warn (deprecated since 3.3; removed in 3.13a1 and restored before 3.13 final, so deprecated, not removed), inspect.getargspec, inspect.formatargspec (removed 3.11), ssl.wrap_socket (3.12), time.clock, platform.linux_distribution, platform.dist, cgi.escape (3.8), base64.encodestring, base64.decodestring (3.9) or typing.Text; a call of `.warn(...)` on a logger-like receiver (a name or attribute containing \"log\", or logging.getLogger(...)); and an import of xml.etree.cElementTree (removed 3.9) or of the mock backport.",
		Why:     "These functions are gone or deprecated in current Python; the replacements (logging.warning, inspect.signature, SSLContext.wrap_socket, time.perf_counter, html.escape, base64.encodebytes, str, unittest.mock) exist since Python 3.3.",
		Bad:     "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef check(x):\n    if x < 0:\n        log.warn('negative: %s', x)\n",
		Good:    "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef check(x):\n    if x < 0:\n        log.warning('negative: %s', x)\n",
		Exempt:  "warnings.warn passes (its receiver is the warnings module, not a logger).",
		Source:  "Python 3.8-3.13 What's New; python/cpython PR #122775; pyupgrade docs",
		Oracle:  "Ruff G010 (logging.warn), UP023 (cElementTree), UP019 (typing.Text), UP026 (mock); the rest custom. Not exact: G010 needs Ruff's logger detection, which differs for receivers such as `self.log`.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"G010", "UP023", "UP019", "UP026"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
