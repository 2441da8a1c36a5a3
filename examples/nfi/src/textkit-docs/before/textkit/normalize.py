import unicodedata

_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


def strip_accents(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def straighten_quotes(text):
    for curly, plain in _QUOTES.items():
        text = text.replace(curly, plain)
    return text


def collapse_whitespace(text):
    return " ".join(text.split())


def normalize(text, accents=True):
    # TODO: make the steps configurable
    text = straighten_quotes(text)
    if accents:
        text = strip_accents(text)
    return collapse_whitespace(text).lower()
