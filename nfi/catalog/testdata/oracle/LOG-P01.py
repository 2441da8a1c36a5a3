# --- issue #18: Optional[Mapping[str, int]] = {} passes
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional[Mapping[str, int]] = {}):
    return x
# --- immutable annotation Union[Mapping[str, int], None]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Mapping[str, int], None] = {}):
    return x
# --- immutable annotation Mapping[str, int] | None
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Mapping[str, int] | None = {}):
    return x
# --- immutable annotation None | Sequence[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: None | Sequence[int] = {}):
    return x
# --- immutable annotation typing.Optional[typing.Mapping[str, int]]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Optional[typing.Mapping[str, int]] = {}):
    return x
# --- immutable annotation Union[(Mapping, None)]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[(Mapping, None)] = {}):
    return x
# --- immutable annotation Union[Mapping,]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Mapping,] = {}):
    return x
# --- immutable annotation Annotated[Mapping[str, int], 'meta']
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Annotated[Mapping[str, int], 'meta'] = {}):
    return x
# --- immutable annotation typing_extensions.Annotated[Mapping, 1]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing_extensions.Annotated[Mapping, 1] = {}):
    return x
# --- immutable annotation Optional[(Mapping[str, int])]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional[(Mapping[str, int])] = {}):
    return x
# --- immutable annotation None
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: None = {}):
    return x
# --- immutable annotation Union[None, None]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[None, None] = {}):
    return x
# --- immutable annotation typing.Callable[[], int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Callable[[], int] = {}):
    return x
# --- immutable annotation typing.Literal[1]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Literal[1] = {}):
    return x
# --- immutable annotation typing.Never
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Never = {}):
    return x
# --- immutable annotation typing.NoReturn
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.NoReturn = {}):
    return x
# --- immutable annotation typing.LiteralString
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.LiteralString = {}):
    return x
# --- immutable annotation typing.Sized
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Sized = {}):
    return x
# --- immutable annotation collections.abc.Sized
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.Sized = {}):
    return x
# --- immutable annotation object
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: object = {}):
    return x
# --- immutable annotation range
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: range = {}):
    return x
# --- immutable annotation str
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: str = {}):
    return x
# --- immutable annotation int
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: int = {}):
    return x
# --- immutable annotation bytes
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: bytes = {}):
    return x
# --- immutable annotation frozenset
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: frozenset = {}):
    return x
# --- immutable annotation tuple[int, ...]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: tuple[int, ...] = {}):
    return x
# --- immutable annotation builtins.tuple
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: builtins.tuple = {}):
    return x
# --- immutable annotation builtins.frozenset[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: builtins.frozenset[int] = {}):
    return x
# --- immutable annotation typing.FrozenSet[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.FrozenSet[int] = {}):
    return x
# --- immutable annotation typing.Tuple[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Tuple[int] = {}):
    return x
# --- immutable annotation collections.abc.Set[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.Set[int] = {}):
    return x
# --- immutable annotation collections.abc.Collection
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.Collection = {}):
    return x
# --- immutable annotation typing.AbstractSet[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.AbstractSet[int] = {}):
    return x
# --- immutable annotation typing.Iterable[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Iterable[int] = {}):
    return x
# --- immutable annotation typing.Reversible
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Reversible = {}):
    return x
# --- immutable annotation collections.abc.Container[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.Container[int] = {}):
    return x
# --- immutable annotation typing.ByteString
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.ByteString = {}):
    return x
# --- immutable annotation Union[Sequence, Optional[Mapping]]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Sequence, Optional[Mapping]] = {}):
    return x
# --- immutable annotation Optional[Mapping] | None
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional[Mapping] | None = {}):
    return x
# --- immutable annotation Mapping[str:int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Mapping[str:int] = {}):
    return x
# --- not immutable for Ruff: Optional[Dict[str, int]]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional[Dict[str, int]] = {}):
    return x
# --- not immutable for Ruff: Optional[dict]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional[dict] = {}):
    return x
# --- not immutable for Ruff: Union[Mapping[str, int], dict]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Mapping[str, int], dict] = {}):
    return x
# --- not immutable for Ruff: Union[Mapping]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Mapping] = {}):
    return x
# --- not immutable for Ruff: dict | None
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: dict | None = {}):
    return x
# --- not immutable for Ruff: Annotated[dict, 'x']
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Annotated[dict, 'x'] = {}):
    return x
# --- not immutable for Ruff: Annotated[Mapping]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Annotated[Mapping] = {}):
    return x
# --- not immutable for Ruff: Optional[Mapping, Sequence]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional[Mapping, Sequence] = {}):
    return x
# --- not immutable for Ruff: typing.Iterator[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Iterator[int] = {}):
    return x
# --- not immutable for Ruff: typing.Hashable
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Hashable = {}):
    return x
# --- not immutable for Ruff: typing.KeysView[str]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.KeysView[str] = {}):
    return x
# --- not immutable for Ruff: collections.abc.ItemsView
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.ItemsView = {}):
    return x
# --- not immutable for Ruff: collections.abc.MappingView
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.MappingView = {}):
    return x
# --- not immutable for Ruff: collections.abc.Callable
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: collections.abc.Callable = {}):
    return x
# --- not immutable for Ruff: typing.Any
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Any = {}):
    return x
# --- not immutable for Ruff: Any
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Any = {}):
    return x
# --- not immutable for Ruff: typing_extensions.Sequence
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing_extensions.Sequence = {}):
    return x
# --- not immutable for Ruff: typing_extensions.Optional[Sequence[int]]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing_extensions.Optional[Sequence[int]] = {}):
    return x
# --- not immutable for Ruff: builtins.str
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: builtins.str = {}):
    return x
# --- not immutable for Ruff: builtins.object
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: builtins.object = {}):
    return x
# --- not immutable for Ruff: str[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: str[int] = {}):
    return x
# --- not immutable for Ruff: typing.Sized[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Sized[int] = {}):
    return x
# --- not immutable for Ruff: 'Mapping[str, int]'
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: 'Mapping[str, int]' = {}):
    return x
# --- not immutable for Ruff: Optional['Mapping[str, int]']
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Optional['Mapping[str, int]'] = {}):
    return x
# --- not immutable for Ruff: Union[Mapping, 'None']
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Mapping, 'None'] = {}):
    return x
# --- not immutable for Ruff: Union[Mapping, ...]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: Union[Mapping, ...] = {}):
    return x
# --- not immutable for Ruff: typing.Text
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: typing.Text = {}):
    return x
# --- not immutable for Ruff: type[int]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x: type[int] = {}):
    return x
# --- alias of an immutable type is not followed
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


Seq = Sequence[int]


def f(x: Seq = []):
    return x
# --- local name shadows a builtin
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def g():
    str = list

    def f(x: str = {}):
        return x
    return f
# --- mutable default list()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=list()):
    return x
# --- mutable default dict()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=dict()):
    return x
# --- mutable default set()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=set()):
    return x
# --- mutable default builtins.list()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=builtins.list()):
    return x
# --- mutable default collections.Counter()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.Counter()):
    return x
# --- mutable default collections.OrderedDict()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.OrderedDict()):
    return x
# --- mutable default collections.defaultdict(list)
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.defaultdict(list)):
    return x
# --- mutable default collections.deque()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.deque()):
    return x
# --- mutable default collections.ChainMap()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.ChainMap()):
    return x
# --- mutable default collections.UserDict()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.UserDict()):
    return x
# --- mutable default collections.UserList()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.UserList()):
    return x
# --- mutable default collections.UserString('')
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.UserString('')):
    return x
# --- mutable default weakref.WeakSet()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=weakref.WeakSet()):
    return x
# --- mutable default weakref.WeakKeyDictionary()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=weakref.WeakKeyDictionary()):
    return x
# --- mutable default weakref.WeakValueDictionary()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=weakref.WeakValueDictionary()):
    return x
# --- mutable default [i for i in range(3)]
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=[i for i in range(3)]):
    return x
# --- mutable default {i: i for i in range(3)}
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x={i: i for i in range(3)}):
    return x
# --- mutable default {1, 2}
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x={1, 2}):
    return x
# --- mutable default ([])
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=([])):
    return x
# --- not a mutable default for Ruff: bytearray()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=bytearray()):
    return x
# --- not a mutable default for Ruff: frozenset()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=frozenset()):
    return x
# --- not a mutable default for Ruff: tuple()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=tuple()):
    return x
# --- not a mutable default for Ruff: (i for i in ())
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=(i for i in ())):
    return x
# --- not a mutable default for Ruff: list
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=list):
    return x
# --- not a mutable default for Ruff: str(1)
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=str(1)):
    return x
# --- not a mutable default for Ruff: None
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=None):
    return x
# --- not a mutable default for Ruff: ()
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=()):
    return x
# --- not a mutable default for Ruff: collections.abc.MutableMapping
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=collections.abc.MutableMapping):
    return x
# --- not a mutable default for Ruff: dict(a=1) if False else None
import builtins
import collections
import collections.abc
import typing
import typing_extensions
import weakref
from typing import Annotated, Any, Dict, Mapping, Optional, Sequence, Union


def f(x=dict(a=1) if False else None):
    return x
# --- keyword-only and positional-only parameters
def f(a=[], /, *, b={}):
    return a, b
# --- async def and methods
class C:
    async def m(self, x=[]):
        return x
# --- lambda defaults are not checked
F = lambda x=[]: x
