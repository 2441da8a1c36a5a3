"""Module docstring on one line."""


def spread():  # want:5 "DOC-R11"
    """
    Return the answer.
    """
    return 42


def closing_below():  # want:12 "DOC-R11"
    """Return the answer.
    """
    return 42


def fine():
    """Return the answer."""
    return 42


def multi():
    """Return the answer.

    With a body.
    """
    return 42


def empty():
    """
    """
