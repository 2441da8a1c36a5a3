import pandas as pd
from pandas import Panel  # want "LIB-P11"


def smooth(s):
    x = pd.np.arange(3)  # want "LIB-P11"
    m = pd.rolling_mean(s, 3)  # want "LIB-P11"
    idx = pd.Int64Index([1, 2])  # want "LIB-P11"
    return x, m, idx, Panel  # want "LIB-P11"


def modern(s: pd.Series):
    return s.rolling(3).mean(), pd.Index([1, 2], dtype="int64"), pd.Timestamp.now()
