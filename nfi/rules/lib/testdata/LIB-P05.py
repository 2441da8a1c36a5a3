import numpy
import numpy as np
from numpy import in1d  # want "LIB-P05"


def stats(a, b):
    p = np.product(a)  # want "LIB-P05"
    s = numpy.sometrue(a > 0)  # want "LIB-P05"
    x = np.asscalar(a[:1])  # want "LIB-P05"
    area = np.trapz(a)  # want "LIB-P05"
    return p, s, x, area, in1d(a, b)  # want "LIB-P05"


def modern(a, b):
    return np.prod(a), np.any(a > 0), a[:1].item(), np.trapezoid(a), np.isin(a, b), np.round(a)
