"""Local variable naming fixture."""
import collections
import typing
from typing import NamedTuple, TypeVar

GLOBAL_LIMIT = 10


def compute(items):
    total = 0
    Count = 0  # want "STY-R05"
    for Item in items:  # want "STY-R05"
        total += Item
        Count += 1  # want "STY-R05"
    Mean: float = total / max(Count, 1)  # want "STY-R05"
    First, *Rest = items or [0]  # want "STY-R05" "STY-R05"
    with open(__file__) as Handle:  # want "STY-R05"
        Handle.read()
    if (Size := len(items)) > 1:  # want "STY-R05"
        return Size
    squares = [Value * Value for Value in items]
    return Mean, First, Rest, squares


def declared():
    global GLOBAL_LIMIT
    GLOBAL_LIMIT = 20
    return GLOBAL_LIMIT


def factories():
    Point = collections.namedtuple("Point", "x y")
    Pair = NamedTuple("Pair", [("a", int), ("b", int)])
    T = TypeVar("T")
    UserId = typing.NewType("UserId", int)
    Options = typing.TypedDict("Options", {"verbose": bool})
    Shape: typing.TypeAlias = tuple
    Other = dict(a=1)  # want "STY-R05"
    return Point, Pair, T, UserId, Options, Shape, Other


def matcher(command):
    match command:
        case [Verb, *Args]:  # want "STY-R05" "STY-R05"
            return Verb, Args
        case {"name": Name}:  # want "STY-R05"
            return Name
        case _:
            return None


def nested():
    class Local:
        Attribute = 1

    handler = lambda: (Inner := 1)  # noqa: E731
    self_ref = nested
    self_ref.Attr = 2
    data = {}
    data["Key"] = 1
    return Local, handler, data


Module_Level = 1
