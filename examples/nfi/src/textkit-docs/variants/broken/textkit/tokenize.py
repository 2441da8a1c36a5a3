"""Tokenization: words, n-grams and vocabularies of normalized text."""

import re

from textkit.normalize import normalize

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    """Split text into lower-case words; decimals split at the point.

    Args:
        text: the text to tokenize.
    """
    return _WORD.findall(normalize(text))


def ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]
    """Return the n-grams of a token list, in order.

    Args:
        tokens: the tokens.
        n: the n-gram length, at least 1.
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def vocabulary(texts: list[str], min_count: int = 1) -> list[str]:
    """Return the sorted words that occur at least min_count times.

    Args:
        texts: the texts to read.
        min_count: the smallest number of occurrences kept.
    """
    counts: dict[str, int] = {}
    for text in texts:
        for w in words(text):
            counts[w] = counts.get(w, 0) + 1
    return sorted(w for w, c in counts.items() if c >= min_count)
