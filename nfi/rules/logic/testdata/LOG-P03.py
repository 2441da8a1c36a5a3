def sign(x):
    if x < 0:
        return -1
    else:  # want "LOG-P03"
        return 1


def classify(x):
    if x < 0:
        raise ValueError(x)
    elif x == 0:  # want "LOG-P03"
        return "zero"
    else:  # want "LOG-P03"
        return "positive"


def loop(items):
    for item in items:
        if item is None:
            continue
        else:  # want "LOG-P03"
            print(item)
        if item == "stop":
            break
        elif item == "skip":  # want "LOG-P03"
            pass


# near misses: the branch does not end in a jump
def fine(x):
    if x:
        y = 1
    else:
        y = 2
    if x:
        if y:
            return 1
    else:
        return 2
    return y
