import collections
from collections import defaultdict
from typing import Mapping, Sequence


def append(item, to=[]):  # want "LOG-P01"
    to.append(item)
    return to


def index(words, seen={}):  # want "LOG-P01"
    return seen


def unique(items, *, acc=set()):  # want "LOG-P01"
    return acc


def squares(n, cache=[i * i for i in range(10)]):  # want "LOG-P01"
    return cache[n]


def count(words, counter=collections.Counter()):  # want "LOG-P01"
    return counter


def group(pairs, groups=defaultdict(list)):  # want "LOG-P01"
    return groups


def typed(values: list = []):  # want "LOG-P01"
    return values


# near misses: immutable defaults and annotations
def fine(items=None, names=(), frozen=frozenset(), label="x"):
    return items, names, frozen, label


def read_only(values: Sequence[int] = [], table: Mapping[str, int] = {}):
    return values, table


handler = lambda acc=[]: acc
