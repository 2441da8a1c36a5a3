"""Feed entries and feeds."""

from typing import Iterator, Mapping, Optional, Sequence, Text


class Entry(object):
    """One item of a feed."""

    def __init__(self, title: Text, link: Text, tags: Sequence[str] = ()) -> None:
        """Store the entry's fields."""
        self.title = title
        self.link = link
        self.tags = tuple(tags)

    def __repr__(self) -> str:
        return "Entry(%r, %r)" % (self.title, self.link)


class Feed(object):
    """A titled list of entries."""

    def __init__(self, title: Text, entries: Optional[Sequence[Entry]] = None) -> None:
        """Store the title and the entries."""
        self.title = title
        self.entries = list(entries or [])

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def tagged(self, tag: str) -> "Feed":
        """Return a feed of the entries carrying tag."""
        return Feed("{} [{}]".format(self.title, tag), [e for e in self.entries if tag in e.tags])

    def counts(self) -> Mapping[str, int]:
        """Return how many entries carry each tag."""
        out: dict = {}
        for e in self.entries:
            for t in e.tags:
                out[t] = out.get(t, 0) + 1
        return out


class PinnedFeed(Feed):
    """A feed whose first entry stays on top."""

    def __init__(self, title: Text, pinned: Entry, entries: Optional[Sequence[Entry]] = None) -> None:
        """Put pinned first."""
        super(PinnedFeed, self).__init__(title, [pinned] + list(entries or []))
