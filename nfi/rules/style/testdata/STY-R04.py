"""Argument naming fixture."""
from typing import override


def area(width, height):
    return width * height


def volume(Width, height, Depth):  # want "STY-R04" "STY-R04"
    return Width * height * Depth


def collect(*Args, **Options):  # want "STY-R04" "STY-R04"
    return Args, Options


def typed(Value: int = 0, *, Key: str = "", **KW: int):  # want "STY-R04" "STY-R04" "STY-R04"
    return Value, Key, KW


def positional(A, /, b):  # want "STY-R04"
    return A + b


scale = list(map(lambda X: X * 2, [1, 2]))  # want "STY-R04"


class Shape:
    def resize(self, newSize):  # want "STY-R04"
        return newSize

    @override
    def render(self, Canvas):
        return Canvas

    def _internal(self, _Hidden):  # want "STY-R04"
        return _Hidden


def greet(name, _unused=None, maxDiff=None, naïve=True):
    return name, naïve
