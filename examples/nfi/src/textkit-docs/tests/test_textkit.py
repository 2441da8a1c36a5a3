from textkit.normalize import normalize, strip_accents
from textkit.tokenize import ngrams, vocabulary, words


def test_normalize():
    assert normalize("  Caf\u00e9   \u201cOlé\u201d ") == 'cafe "ole"'
    assert normalize("Caf\u00e9", accents=False) == "caf\u00e9"
    assert strip_accents("na\u00efve") == "naive"


def test_words_and_ngrams():
    assert words("It\u2019s 3.5 km, isn't it?") == ["it's", "3", "5", "km", "isn't", "it"]
    assert ngrams(["a", "b", "c"], 2) == [("a", "b"), ("b", "c")]
    assert ngrams(["a"], 2) == []


def test_vocabulary():
    assert vocabulary(["the cat", "The dog", "a cat"], min_count=2) == ["cat", "the"]
