"""Multiple statements fixture."""


class Stub: ...


class Empty(Exception): pass  # want "STY-P03"


def quick(): return 1


def check(value):
    if value: return 1  # want "STY-P03"
    if value:
        value -= 1
    else: value += 1  # want "STY-P03"
    while value: value -= 1  # want "STY-P03"
    for item in range(value): print(item)  # want "STY-P03"
    try: value = int(value)  # want "STY-P03"
    except ValueError: ...
    with open(__file__) as handle: handle.read()  # want "STY-P03"
    first = 1; second = 2  # want "STY-P03"
    third = 3;  # want "STY-P03"
    mapping = {"a": 1, "b": 2}
    sliced = [1, 2, 3][1:2]
    square = (lambda x: x * x)(3)
    annotated: int = 4
    if value: \
            value = 0  # want:29 "STY-P03"
    if value:  # a comment after the colon is fine
        pass
    match value:
        case 1: return first  # want "STY-P03"
        case _:
            return second + third + square + annotated + len(mapping) + len(sliced)
    return None
