import re

from textkit.normalize import normalize

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text):
    # FIXME: numbers with decimals are split in two
    return _WORD.findall(normalize(text))


def ngrams(tokens, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def vocabulary(texts, min_count=1):
    counts = {}
    for text in texts:
        for w in words(text):
            counts[w] = counts.get(w, 0) + 1
    # result = sorted(counts)
    return sorted(w for w, c in counts.items() if c >= min_count)
