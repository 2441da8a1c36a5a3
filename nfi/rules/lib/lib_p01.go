package lib

import "github.com/polynfi/polynfi/nfi"

// CollectionsABCAlias reports the ABC imported or referenced from collections instead of collections.abc.
//
// Source: Python 3.10 What's New (removal of the ABC aliases from collections, bpo-37324); pyupgrade.
var CollectionsABCAlias = &nfi.Rule{
	ID: "LIB-P01", Name: "collections-abc-alias", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "ABC imported or referenced from collections instead of collections.abc",
		What:    "An import or reference that resolves to collections.{AsyncGenerator, AsyncIterable, AsyncIterator, Awaitable, ByteString, Callable, Collection, Container, Coroutine, Generator, Hashable, ItemsView, Iterable, Iterator, KeysView, Mapping, MappingView, MutableMapping, MutableSequence, MutableSet, Reversible, Sequence, Set, Sized, ValuesView}: `from collections import Mapping` and `collections.Mapping` both count; a from-import counts once and each later use of the name once more.",
		Why:     "The aliases were removed in Python 3.10; code using them raises ImportError or AttributeError on current Python.",
		Bad:     "from collections import Mapping\n\n\ndef is_mapping(x):\n    return isinstance(x, Mapping)\n",
		Good:    "from collections.abc import Mapping\n\n\ndef is_mapping(x):\n    return isinstance(x, Mapping)\n",
		Exempt:  "collections.OrderedDict, defaultdict, deque and the other concrete classes pass. In a `try: from collections.abc import X` / `except ImportError: from collections import X` fallback, the fallback import is reported, but uses of X resolve to the collections.abc binding.",
		Source:  "Python 3.10 What's New (removal of the ABC aliases from collections, bpo-37324); pyupgrade",
		Oracle:  "Ruff UP035 (not exact): UP035 reports only the from-import and only for the target version; the catalog reports references too.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"UP035"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
