"""Module summary.

Body after a blank line.
"""


def no_blank():  # want:8 "DOC-R10"
    """Return the answer.
    It is always 42.
    """
    return 42


def two_blanks():
    """Return the answer.


    Two blank lines still separate the summary.
    """
    return 42


def leading_newline():
    """
    Summary after the opening line.

    Body.
    """


def one_line():
    """Just a summary."""


def summary_then_quotes():
    """Summary.
    """
