def is_even(n):
    if n % 2 == 0:  # want "LOG-P07"
        return True
    else:
        return False


def is_odd(n):
    if n % 2 == 0:  # want "LOG-P07"
        return False
    return True


# near misses
def same(n):
    if n:
        return True
    return True


def not_literal(n):
    if n:
        return n
    return False


def chain(n):
    if n > 0:
        return True
    elif n < 0:
        return False
    return False


def extra(n):
    if n:
        print(n)
        return True
    return False
