import numpy as np
from numpy import float as npfloat  # want "LIB-P04"


def mask(n):
    flags = np.zeros(n, dtype=np.bool)  # want "LIB-P04"
    idx = np.arange(n).astype(np.int)  # want "LIB-P04"
    big = np.long(3)  # want "LIB-P04"
    return flags, idx, big, npfloat(1)  # want "LIB-P04"


def sized(n):
    flags = np.zeros(n, dtype=np.bool_)
    idx = np.arange(n).astype(np.int64)
    return flags, idx, np.float64(1.0), int(n), bool(n)
