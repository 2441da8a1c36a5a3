package lib

import "github.com/polynfi/polynfi/nfi"

// TypingABCAlias reports the typing alias of a collections/abc/re/contextlib class instead of the class.
//
// Source: PEP 585 (list of deprecated aliases); Python 3.13 What's New (typing.io, typing.re removed).
var TypingABCAlias = &nfi.Rule{
	ID: "LIB-P03", Name: "typing-abc-alias", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "typing alias of a collections/abc/re/contextlib class instead of the class",
		What:    "An import or reference that resolves to typing.{Deque, DefaultDict, OrderedDict, Counter, ChainMap, Awaitable, Coroutine, AsyncIterable, AsyncIterator, AsyncGenerator, Iterable, Iterator, Generator, Reversible, Container, Collection, Callable, AbstractSet, MutableSet, Mapping, MutableMapping, Sequence, MutableSequence, ByteString, MappingView, KeysView, ItemsView, ValuesView, ContextManager, AsyncContextManager, Pattern, Match}, or to the typing.re / typing.io submodules (one hit per reference of the submodule).",
		Why:     "PEP 585 deprecated these aliases in Python 3.9: collections.abc, collections, re and contextlib classes are subscriptable themselves.",
		Bad:     "from typing import Iterable\n\n\ndef total(xs: Iterable[int]) -> int:\n    return sum(xs)\n",
		Good:    "from collections.abc import Iterable\n\n\ndef total(xs: Iterable[int]) -> int:\n    return sum(xs)\n",
		Exempt:  "Strings in annotations pass. typing.Callable counts for every Python version (Ruff only from 3.10).",
		Source:  "PEP 585 (list of deprecated aliases); Python 3.13 What's New (typing.io, typing.re removed)",
		Oracle:  "Ruff UP035/UP006 (not exact): version-dependent in Ruff, e.g. `from typing import Callable` is reported by Ruff only with target-version >= py310.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"UP035", "UP006"}},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
