'''Module docstring with triple single quotes.'''  # want "DOC-R08"


def good():
    """Triple double quotes."""


def raw():
    r"""Raw prefix is allowed: \d+."""


def single():
    'Single quotes.'  # want "DOC-R08"


def double():
    "Double quotes, not tripled."  # want "DOC-R08"


class Parts:
    """First part """ 'second part.'  # want "DOC-R08"


def not_docstring():
    x = 1
    '''A string after the first statement is not a docstring.'''
    return x
