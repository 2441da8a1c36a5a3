"""Type comparison fixture."""
import numpy as np


def check(value, other, kind):
    if type(value) == int:  # want "STY-P09"
        return 1
    if type(value) != type(other):  # want "STY-P09"
        return 2
    if kind == str:  # want "STY-P09"
        return 3
    if type(value) is int or isinstance(other, str):
        return 4
    if value.dtype == np.float64 or np.dtype(value) == int:
        return 5
    if kind == "str" or value == other:
        return 6
    if (type(value)) == ValueError:  # want "STY-P09"
        return 7
    return 0


def shadowed(type, str):
    return type(1) == str
