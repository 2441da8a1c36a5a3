import collections
import collections.abc
from collections import Mapping, OrderedDict  # want "LIB-P01"

try:
    from collections.abc import Sequence
except ImportError:
    from collections import Sequence  # want "LIB-P01"


def kind(x):
    if isinstance(x, Mapping):  # want "LIB-P01"
        return "mapping"
    if isinstance(x, collections.Iterable):  # want "LIB-P01"
        return "iterable"
    if isinstance(x, (collections.abc.Set, Sequence)):
        return "set or sequence"
    return OrderedDict(), collections.deque(), collections.defaultdict(list)
