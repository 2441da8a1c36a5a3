"""Ambiguous names fixture."""
import os as l
from math import pi as O


def O():  # want "STY-P06"
    return pi


class I:  # want "STY-P06"
    pass


l = [1, 2, 3]  # want "STY-P06"
length = len(l)


def process(l, count):  # want "STY-P06"
    for I in range(count):  # want "STY-P06"
        print(I)
    with open(l) as O:  # want "STY-P06"
        O.read()
    try:
        pass
    except ValueError as l:  # want "STY-P06"
        print(l)
    values = [l for l in range(count)]  # want "STY-P06"
    if (O := count) > 1:  # want "STY-P06"
        return O
    l += 1  # want "STY-P06"
    return values


def scoped():
    global I  # want "STY-P06"
    I = 1  # want "STY-P06"
    obj = object()
    obj.l = 1
    match obj:
        case [l]:
            return l
    return lambda l: l  # want "STY-P06"


pi = 3.14
