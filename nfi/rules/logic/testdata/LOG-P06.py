def f(x):
    return x
    print("never")  # want "LOG-P06"


def g(items):
    for item in items:
        if item:
            continue
            item += 1  # want "LOG-P06"
        break
        print(item)  # want "LOG-P06"


def h():
    raise ValueError("no")
    # a comment is not a statement
    return None  # want "LOG-P06"


# near misses
def fine(x):
    if x:
        return 1
    print("reachable")
    return 0


def empty_generator():
    """The empty-generator idiom: the yield is never run but is needed."""
    return
    yield


def empty_generator_from():
    return
    yield from ()


def not_the_idiom():
    return
    yield 1  # want "LOG-P06"
    cleanup()
