"""Parse a minimal line-based feed format: 'title | link | tag,tag'."""

from collections.abc import Callable, Iterable

from feeds.models import Entry, Feed


def parse_line(line: str) -> Entry | None:
    """Parse one line; return None for blank lines and comments."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 2:
        raise ValueError(f"expected 'title | link', got {line!r}")
    tags = [t for t in parts[2].split(",") if t] if len(parts) > 2 else []
    return Entry(parts[0], parts[1], tags)


def parse(title: str, lines: Iterable[str], keep: Callable[[Entry], bool] | None = None) -> Feed:
    """Parse lines into a feed, keeping the entries accepted by keep."""
    entries = []
    for number, line in enumerate(lines, 1):
        try:
            entry = parse_line(line)
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from exc
        if entry is not None and (keep is None or keep(entry)):
            entries.append(entry)
    return Feed(title, entries)
