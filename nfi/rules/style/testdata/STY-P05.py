"""Lambda assignment fixture."""
from dataclasses import dataclass, field
from typing import Callable

square = lambda x: x * x  # want "STY-P05"
double: Callable[[int], int] = lambda x: 2 * x  # want "STY-P05"
wrapped = (lambda: 0)  # want "STY-P05"
first = second = lambda: 0
pair = (lambda: 1, lambda: 2)
handlers = {"a": lambda: 1}


def square_def(x):
    return x * x


def local():
    inner = lambda: 1  # want "STY-P05"
    return inner


@dataclass
class Settings:
    factory: Callable[[], int] = lambda: 0
    callback = lambda self: None  # want "STY-P05"
    items: list = field(default_factory=list)


class Holder:
    def __init__(self):
        self.key = lambda item: item
