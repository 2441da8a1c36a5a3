def parse(token):  # want "LOG-T04"
    if token == "a":
        return 1
    if token == "b":
        return 2
    if token == "c":
        return 3
    if token == "d":
        return 4
    if token == "e":
        return 5
    if token == "f":
        return 6
    return 0


def six(token):
    if token == "a":
        return 1
    if token == "b":
        return 2
    if token == "c":
        return 3
    if token == "d":
        return 4
    if token == "e":
        return 5

    def helper():
        return 0

    return helper
