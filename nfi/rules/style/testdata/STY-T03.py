"""Statements per function fixture (limit 50)."""


def short(items):
    total = 0
    for item in items:
        total += item
    return total


def long_function(items):  # want "STY-T03"
    total = 0
    count = 0
    if items:
        total += 1
    elif total:
        total += 2
    else:
        total += 3
    for item in items:
        total += item
        count += 1
    else:
        count -= 1
    while count > 10:
        count -= 1
    with open(__file__) as handle:
        handle.read()
    try:
        total = int(total)
    except ValueError:
        total = 0
    except TypeError:
        total = 1
    else:
        total += 1
    finally:
        count = 0

    def helper():
        return 1

    class Local:
        value = 1
        other = 2

    match total:
        case 1:
            total = 2
        case _:
            total = 3
    total += helper()
    total += Local.value
    total += 0
    total += 1
    total += 2
    total += 3
    total += 4
    total += 5
    total += 6
    total += 7
    total += 8
    total += 9
    total += 10
    total += 11
    total += 12
    total += 13
    total += 14
    return total


def at_limit(items):
    total = 0
    count = 0
    if items:
        total += 1
    elif total:
        total += 2
    else:
        total += 3
    for item in items:
        total += item
        count += 1
    else:
        count -= 1
    while count > 10:
        count -= 1
    with open(__file__) as handle:
        handle.read()
    try:
        total = int(total)
    except ValueError:
        total = 0
    except TypeError:
        total = 1
    else:
        total += 1
    finally:
        count = 0

    def helper():
        return 1

    class Local:
        value = 1
        other = 2

    match total:
        case 1:
            total = 2
        case _:
            total = 3
    total += helper()
    total += 0
    total += 1
    total += 2
    total += 3
    total += 4
    total += 5
    total += 6
    total += 7
    total += 8
    total += 9
    total += 10
    total += 11
    total += 12
    total += 13
    total += 14
    return total
