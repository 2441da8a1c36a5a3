counter = 0
cache = {}


def bump():
    global counter  # want "LOG-P05"
    counter += 1


class Store:
    def reset(self):
        global cache  # want "LOG-P05"
        cache = {}


# near misses
global_name = "global"


def outer():
    total = 0

    def inner():
        nonlocal total
        total += 1

    inner()
    return total
