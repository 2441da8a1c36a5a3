"""Constructors with and without docstrings."""


class Point:
    """A point."""

    def __init__(self, x, y):  # want "DOC-R05"
        self.x, self.y = x, y


class Vector:
    """A vector."""

    def __init__(self, *coords):
        """Make a vector from its coordinates."""
        self.coords = coords


class _Hidden:
    def __init__(self):
        self.value = 1


def make():
    """Make a local class."""

    class Local:
        def __init__(self):
            self.value = 2

    return Local
