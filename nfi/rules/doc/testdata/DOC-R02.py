"""Classes with and without docstrings."""

__all__ = ["Shape", "Circle", "Square", "Registry", "Hidden"]


class Shape:  # want "DOC-R02"
    sides = 0


class Circle:
    """A circle."""

    class Meta:  # want "DOC-R02"
        ordering = 1

    class _Private:
        pass


class Square:  # want "DOC-R02"
    f"""An f-string is never a docstring."""


class Registry:
    ("A parenthesized string is a docstring.")


class Hidden:
    "Implicitly " "concatenated strings count."


class NotExported:
    pass


class _Internal:
    pass


def factory():
    """Build a local class."""

    class Local:
        pass

    return Local


try:
    import json
except ImportError:
    class Fallback:
        pass
