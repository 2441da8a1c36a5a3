"""Arguments per function fixture (limit 5)."""
from typing import overload


def five(a, b, c, d, e):
    return a + b + c + d + e


def six(a, b, c, d, e, f):  # want "STY-T04"
    return a + b + c + d + e + f


def variadic(a, b, c, d, e, *args, **kwargs):
    return a, b, c, d, e, args, kwargs


def keyword_only(a, b, c, /, d, *, e, f):  # want "STY-T04"
    return a, b, c, d, e, f


def dummies(a, b, c, d, e, _unused, _):
    return a, b, c, d, e


def trailing_underscore(a, b, c, d, e, _x_):  # want "STY-T04"
    return a, b, c, d, e, _x_


class Service:
    def method(self, a, b, c, d, e):
        return a, b, c, d, e

    def too_many(self, a, b, c, d, e, f):  # want "STY-T04"
        return a, b, c, d, e, f

    @classmethod
    def build(cls, a, b, c, d, e):
        return cls, a, b, c, d, e

    @staticmethod
    def static(a, b, c, d, e, f):  # want "STY-T04"
        return a, b, c, d, e, f

    def __new__(cls, a, b, c, d, e):
        return super().__new__(cls)

    @overload
    def convert(self, a: int, b: int, c: int, d: int, e: int, f: int) -> int: ...
    @overload
    def convert(self, a: str, b: str, c: str, d: str, e: str, f: str) -> str: ...
    def convert(self, a, b, c, d, e, f):  # want "STY-T04"
        return a


def outer():
    def inner(self, a, b, c, d, e):  # want "STY-T04"
        return a

    return inner
