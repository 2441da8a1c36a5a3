def scan(rows):
    for row in rows:
        if row:
            for cell in row:
                if cell:  # want "LOG-T02"
                    print(cell)


def handled(path):
    with open(path) as f:
        try:
            for line in f:
                match line:  # want "LOG-T02"
                    case "x":  # depth 4 is the match statement above
                        pass
        except OSError:
            pass


# near misses: clauses do not add levels, nested defs restart
def flat(x):
    if x == 1:
        pass
    elif x == 2:
        for i in x:
            while i:
                i -= 1
    else:
        try:
            pass
        except ValueError:
            pass
        finally:
            pass


def outer(xs):
    for x in xs:
        if x:
            def inner(y):
                if y:
                    for z in y:
                        print(z)
            inner(x)
