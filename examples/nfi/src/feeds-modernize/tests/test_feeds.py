import pytest

from feeds.models import Entry, PinnedFeed
from feeds.parser import parse, parse_line

TEXT = """# news
Go 1.26 released | https://go.dev | go,release

Python 3.13 | https://python.org | python,release
Notes | https://example.org
"""


def test_parse():
    feed = parse("tech", TEXT.splitlines())
    assert [e.title for e in feed] == ["Go 1.26 released", "Python 3.13", "Notes"]
    assert feed.counts() == {"go": 1, "release": 2, "python": 1}
    rel = feed.tagged("release")
    assert rel.title == "tech [release]" and len(rel.entries) == 2
    assert repr(rel.entries[0]) == "Entry('Go 1.26 released', 'https://go.dev')"


def test_keep_and_errors():
    feed = parse("t", TEXT.splitlines(), keep=lambda e: "go" in e.tags)
    assert len(feed.entries) == 1
    assert parse_line("  # comment") is None
    with pytest.raises(ValueError, match="line 2: expected"):
        parse("t", ["a | b", "no link"])


def test_pinned():
    pinned = Entry("Top", "https://x")
    feed = PinnedFeed("p", pinned, [Entry("b", "c")])
    assert feed.entries[0] is pinned and len(feed.entries) == 2
