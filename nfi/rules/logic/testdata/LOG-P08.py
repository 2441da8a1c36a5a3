def greet(user):
    if user:  # want "LOG-P08"
        if user.active:
            print("hi", user)


def nested(a, b, c):
    if a:  # want "LOG-P08"
        if b:  # want "LOG-P08"
            if c:
                return 1
    return 0


# near misses
def with_else(a, b):
    if a:
        if b:
            return 1
    else:
        return 2
    if a:
        if b:
            return 3
        else:
            return 4
    if a:
        print(a)
        if b:
            return 5
    return 0
