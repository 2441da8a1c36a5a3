""""""  # want "DOC-P01"


def empty():
    """   """  # want "DOC-P01"


def blank_lines():  # want:9 "DOC-P01"
    """

    """


class Named:
    ''  # want "DOC-P01"


def fine():
    """Return nothing."""


def code_string():
    x = ""
    return x
