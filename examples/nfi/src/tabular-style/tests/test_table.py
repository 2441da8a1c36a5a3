import pytest

from csvtools.table import clip, from_csv, render

EXPECTED = """name | qty | price
---- | --- | -----
bolt | 10  | 0.25
nut  | 200 | 0.05"""


def test_render_csv():
    assert from_csv("name,qty,price\nbolt,10,0.25\nnut,200,0.05\n") == EXPECTED


def test_render_rows_and_clip():
    assert render([[1.5, None], ["abcdef", "x"]], limit=4) == "1.50 |\na... | x"
    assert clip("abcdefgh", 5) == "ab..."


def test_limits():
    with pytest.raises(ValueError, match="wide"):
        from_csv(",".join(["x" * 30] * 8))
    with pytest.raises(ValueError, match="limit is 10000 rows"):
        from_csv("a\n" * 10001)
