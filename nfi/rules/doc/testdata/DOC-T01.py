# want:1 "DOC-T01"
"""Shapes: 2 of 5 public definitions are documented (0.40 < 0.80)."""


class Circle:
    def area(self):
        return 3.14

    def perimeter(self):
        return 6.28

    def _cache(self):
        return None


def square(x):
    """Return x squared."""
    return x * x


def _cube(x):
    return x ** 3
