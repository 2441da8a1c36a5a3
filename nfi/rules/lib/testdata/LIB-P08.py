import pandas as pd


def first(df: pd.DataFrame):
    row = df.ix[0]  # want "LIB-P08"
    cell = df.ix[0, "a"]  # want "LIB-P08"
    return row, cell, df.iloc[0], df.loc[0, "a"]


def other(grid):
    return grid.ixs, grid.loc
