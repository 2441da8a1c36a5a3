import numpy as np
from numpy.random import seed, default_rng


def legacy(n):
    np.random.seed(42)  # want "LIB-P07"
    seed(1)  # want "LIB-P07"
    a = np.random.rand(n)  # want "LIB-P07"
    np.random.shuffle(a)  # want "LIB-P07"
    return np.random.normal(0.0, 1.0, size=n) + a  # want "LIB-P07"


def modern(n):
    rng = default_rng(42)
    a = rng.random(n)
    rng.shuffle(a)
    sampler = np.random.normal
    return rng.normal(0.0, 1.0, size=n) + a, sampler
