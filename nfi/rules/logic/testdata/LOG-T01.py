def grade(score, curve):  # want "LOG-T01"
    if score > 90:
        return "A"
    elif score > 80:
        return "B"
    elif score > 70 and curve:
        return "C"
    for bonus in curve:
        if bonus and score or bonus > 5:
            score += bonus
    else:
        score -= 1
    try:
        score = int(score)
    except ValueError:
        return "?"
    return "D" if score > 60 else "F"


def simple(x):
    # complexity 10: at the limit
    if x == 1:
        return 1
    if x == 2:
        return 2
    if x == 3:
        return 3
    if x == 4 or x == 5:
        return 4
    values = [v for v in range(x) if v % 2 if v % 3]
    assert values
    return values


def outer(items):
    # the closure's branches count for the closure only
    def inner(v):  # want "LOG-T01"
        if v == 1:
            return 1
        elif v == 2:
            return 2
        elif v == 3:
            return 3
        elif v == 4:
            return 4
        elif v == 5:
            return 5
        elif v == 6:
            return 6
        elif v == 7:
            return 7
        elif v == 8:
            return 8
        elif v == 9:
            return 9
        elif v == 10:
            return 10
        return 0

    return [inner(i) for i in items]
