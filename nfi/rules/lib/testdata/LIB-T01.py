import numpy as np
from typing import List


def stats(a):
    return np.product(a), np.float_(0)  # want "LIB-T01"


def clean(a):
    return np.prod(a), np.float64(0), list(a)
