callbacks = []
for i in range(3):
    callbacks.append(lambda: i)  # want "LOG-P04"

handlers = []
for name in ["a", "b"]:
    label = name.upper()

    def handler():
        return label  # want "LOG-P04"

    handlers.append(handler)

adders = [lambda x: x + n for n in range(3)]  # want "LOG-P04"

# near misses: default binding, local names, functions outside loops
fixed = []
for i in range(3):
    fixed.append(lambda i=i: i)
    fixed.append(lambda x=i: x)


def outside(k):
    return k


for j in range(3):
    def local():
        j = 0
        return j

    outside(j)
