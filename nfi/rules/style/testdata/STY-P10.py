"""Negated comparison fixture."""


def check(key, table, value):
    if not key in table:  # want "STY-P10"
        return 1
    if not value is None:  # want "STY-P10"
        return 2
    if not (key in table):  # want "STY-P10"
        return 3
    if key not in table or value is not None:
        return 4
    if not key in table in [table]:
        return 5
    if not key == value:
        return 6
    if (not key) in [True]:
        return 7
    return not table
