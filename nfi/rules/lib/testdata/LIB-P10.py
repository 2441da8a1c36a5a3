import codecs

import pandas as pd


def columns(df: pd.DataFrame):
    names = [name for name, _ in df.iteritems()]  # want "LIB-P10"
    matrix = df.as_matrix()  # want "LIB-P10"
    value = df.get_value(0, "a")  # want "LIB-P10"
    kinds = df.ftypes  # want "LIB-P10"
    return names, matrix, value, kinds


def modern(df: pd.DataFrame):
    names = [name for name, _ in df.items()]
    return names, df.to_numpy(), df.at[0, "a"], df.dtypes, codecs.lookup("utf-8")
