import typing
from typing import Dict, List, Optional  # want "LIB-P02" "LIB-P02"


def index(words: List[str]) -> Dict[str, int]:  # want "LIB-P02" "LIB-P02"
    return {w: i for i, w in enumerate(words)}


def pairs(n: int) -> typing.Tuple[int, int]:  # want "LIB-P02"
    return n, n


def modern(words: list[str], limit: Optional[int] = None) -> dict[str, int]:
    return {w: limit or 0 for w in words}


def quoted(words: "List[str]") -> "typing.Set[str]":
    return set(words)
