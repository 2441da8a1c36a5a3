"""Signatures in docstrings."""


def area(w, h):
    """area(w, h) -> float"""  # want "DOC-P03"
    return w * h


def volume(w, h, d):
    """Return the volume.

    Use it like volume(1, 2, 3).
    """
    return w * h * d


class Box:
    """Box(size) makes a box."""

    def get(self, key):
        """D.get(k) -> value of k"""  # want "DOC-P03"
        return key

    def put(self, key):
        """Store key; see get(key)."""
        return key
