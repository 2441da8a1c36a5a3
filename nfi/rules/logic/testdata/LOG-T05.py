def check(a, b, c, d, e, f):
    if a and b and c or d and e and f:  # want "LOG-T05"
        return 1
    elif (a or b) and (c or d) and (e or not f):  # want "LOG-T05"
        return 2
    while a and b and c and d and e and f:  # want "LOG-T05"
        break
    x = 1 if a or b or c or d or e or f else 0  # want "LOG-T05"
    # near misses
    if a and b and c and d and e:
        return 3
    y = a and b and c and d and e and f
    return x, y
