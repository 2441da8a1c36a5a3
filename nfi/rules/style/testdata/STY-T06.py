"""Local variables per function fixture (limit 15)."""


def fifteen(a, b, c, _ignored, unused_flag, *args, **kwargs):
    import os
    from sys import path as search_path
    d = e = 1
    f, (g, h) = 1, (2, 3)
    for i in range(3):
        d += i
    with open(__file__) as handle:
        handle.read()
    squares = [x * x for x in range(3)]
    _ = squares
    return os, search_path, a, b, c, d, e, f, g, h, args, kwargs


def sixteen(a, b, c, *args, **kwargs):  # want "STY-T06"
    import os
    from sys import path as search_path
    d = e = 1
    f, (g, h) = 1, (2, 3)
    for i in range(3):
        d += i
    with open(__file__) as handle:
        handle.read()
    if (total := d + e) > 1:
        return total
    j = total
    return j, os, search_path, a, b, c, d, e, f, g, h, args, kwargs


def nested_scopes(a):
    global counter
    counter = 1

    def helper(p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16):  # want "STY-T06"
        return p1

    class Inner:
        v1 = v2 = v3 = v4 = v5 = v6 = v7 = v8 = v9 = v10 = v11 = v12 = v13 = v14 = v15 = v16 = 0

    values = [n for n in range(3)]
    try:
        pass
    except ValueError as error:
        values.append(error)
    match a:
        case [first, *rest]:
            values.append((first, rest))
    return helper, Inner, values


counter = 0
