"""Module summary without a period"""  # want "DOC-R09"


def good():
    """Return nothing."""


def question():
    """Is this right?"""  # want "DOC-R09"


def trailing_space():
    """Ends with a period.   """


def multi():  # want:17 "DOC-R09"
    """
    Summary on the second line

    Body.
    """


def wrapped():
    """Return a summary that wraps
    onto the next line."""  # want:25 "DOC-R09"


def empty():
    """"""
