"""Text normalization: quotes, accents and whitespace."""

import unicodedata

_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


def strip_accents(text: str) -> str:
    """Remove combining accents, keeping the base letters.

    Args:
        text: the text to clean.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def straighten_quotes(text: str) -> str:
    """Replace typographic quotes with ASCII quotes.

    Args:
        text: the text to clean.
    """
    for curly, plain in _QUOTES.items():
        text = text.replace(curly, plain)
    return text


def collapse_whitespace(text: str) -> str:
    """Collapse every run of whitespace to one space and trim the ends.

    Args:
        text: the text to clean.
    """
    return " ".join(text.split())


def normalize(text: str, accents: bool = True) -> str:
    """Return text lower-cased with straight quotes and single spaces.

    Args:
        text: the text to normalize.
        accents: whether to strip accents as well.
    """
    text = straighten_quotes(text)
    if accents:
        text = strip_accents(text)
    return collapse_whitespace(text)
