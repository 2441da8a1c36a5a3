import typing
from collections.abc import Iterable
from typing import Callable, Iterator, Any  # want "LIB-P03" "LIB-P03"


def apply(f: Callable[[int], int], xs: Iterable[int]) -> Iterator[int]:  # want "LIB-P03" "LIB-P03"
    for x in xs:
        yield f(x)


def count(xs: typing.DefaultDict[str, int]) -> int:  # want "LIB-P03"
    return len(xs)


def match(p: typing.re.Pattern) -> Any:  # want "LIB-P03"
    return p


def fine(xs: Iterable[int]) -> list[int]:
    return list(xs)
