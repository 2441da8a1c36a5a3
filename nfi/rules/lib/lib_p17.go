package lib

import "github.com/polynfi/polynfi/nfi"

// RemovedStdlibModule reports the import of a module removed from the standard library.
//
// Source: PEP 594; PEP 632; Python 3.12 and 3.13 What's New.
var RemovedStdlibModule = &nfi.Rule{
	ID: "LIB-P17", Name: "removed-stdlib-module", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "import of a module removed from the standard library",
		What:    "An import of imp, distutils, asynchat, asyncore, smtpd (removed in 3.12), aifc, audioop, cgi, cgitb, chunk, crypt, imghdr, mailcap, msilib, nis, nntplib, ossaudiodev, pipes, sndhdr, spwd, sunau, telnetlib, uu, xdrlib (PEP 594, removed in 3.13), or lib2to3 (3.13), or of anything under them (`from distutils.core import setup`). One hit per import statement and module.",
		Why:     "The import fails with ModuleNotFoundError on Python 3.12/3.13.",
		Bad:     "import imp\n\n\ndef reload(mod):\n    return imp.reload(mod)\n",
		Good:    "import importlib\n\n\ndef reload(mod):\n    return importlib.reload(mod)\n",
		Exempt:  "Later references to the imported module are not counted again.",
		Source:  "PEP 594; PEP 632; Python 3.12 and 3.13 What's New",
		Oracle:  "custom (Ruff UP035 covers only pipes.quote)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
