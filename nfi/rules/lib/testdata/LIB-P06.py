import numpy as np
from numpy import NaN  # want "LIB-P06"


def fill(n):
    a = np.full(n, np.NaN)  # want "LIB-P06"
    b = np.zeros(n, dtype=np.float_)  # want "LIB-P06"
    c = np.full(n, NaN)  # want "LIB-P06"
    try:
        np.sum(a, axis=3)
    except np.AxisError:  # want "LIB-P06"
        pass
    return a, b, c, np.Inf  # want "LIB-P06"


def modern(n):
    a = np.full(n, np.nan)
    b = np.zeros(n, dtype=np.float64)
    try:
        np.sum(a, axis=3)
    except np.exceptions.AxisError:
        pass
    return a, b, np.inf
