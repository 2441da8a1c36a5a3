package lib

import "github.com/polynfi/polynfi/nfi"

// NaiveUTCDatetime reports the datetime.utcnow() or utcfromtimestamp() builds a naive UTC datetime.
//
// Source: Python 3.12 What's New (deprecations in datetime).
var NaiveUTCDatetime = &nfi.Rule{
	ID: "LIB-P15", Name: "naive-utc-datetime", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "datetime.utcnow() or utcfromtimestamp() builds a naive UTC datetime",
		What:    "A call whose callee resolves to datetime.datetime.utcnow or datetime.datetime.utcfromtimestamp.",
		Why:     "They return naive datetimes that most of the library treats as local time, and are deprecated since Python 3.12.",
		Bad:     "import datetime\n\n\ndef stamp():\n    return datetime.datetime.utcnow()\n",
		Good:    "import datetime\n\n\ndef stamp():\n    return datetime.datetime.now(datetime.timezone.utc)\n",
		Exempt:  "References without a call pass.",
		Source:  "Python 3.12 What's New (deprecations in datetime)",
		Oracle:  "Ruff DTZ003 and DTZ004, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"DTZ003", "DTZ004"}, Exact: true},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
