import pandas as pd
from pandas import read_table


def load(path, out):
    df = pd.read_csv(path, error_bad_lines=False, warn_bad_lines=True)  # want "LIB-P09" "LIB-P09"
    s = read_table(path, squeeze=True)  # want "LIB-P09"
    df.to_csv(out, line_terminator="\n")  # want "LIB-P09"
    df.set_axis(["a", "b"], axis=1, inplace=True)  # want "LIB-P09"
    return s


def modern(path, out):
    df = pd.read_csv(path, on_bad_lines="skip")
    df.to_csv(out, lineterminator="\n")
    df = df.set_axis(["a", "b"], axis=1)
    return pd.read_json(path, lines=True)
