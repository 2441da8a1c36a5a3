"""Singleton comparison fixture."""


def check(value, flag, items):
    if value == None:  # want "STY-P04"
        return 1
    if None != value:  # want "STY-P04"
        return 2
    if flag == True:  # want "STY-P04"
        return 3
    if flag != (False):  # want "STY-P04"
        return 4
    if value is None or flag is True:
        return 5
    if 1 == None or "text" != True:
        return 6
    if -1 == None:  # want "STY-P04"
        return 7
    if value == 0 < len(items) == False:  # want "STY-P04"
        return 8
    if value in (None, True) or items == [None]:
        return 9
    return value == "None"
