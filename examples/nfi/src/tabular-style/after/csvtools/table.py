"""Render rows of values as a fixed-width text table."""

import csv
import io

DEFAULT_SEPARATOR = " | "
ELLIPSIS = "..."
MIN_WIDTH = 3
MAX_COLUMN_WIDTH = 40
MAX_ROWS = 10000
MAX_TABLE_WIDTH = 200


def cell_text(value) -> str:
    """Return the text of one cell."""
    if isinstance(value, float):
        return f"{value:.2f}"
    return "" if value is None else str(value)


def clip(text: str, width: int) -> str:
    """Shorten text to width characters, marking the cut."""
    if len(text) <= width:
        return text
    return text[: width - len(ELLIPSIS)] + ELLIPSIS


def column_widths(rows: list, limit: int = 0) -> list:
    """Return the width of each column, capped at 40 characters (or limit)."""
    cap = limit or MAX_COLUMN_WIDTH
    widths = []
    for row in rows:
        for i, value in enumerate(row):
            if i >= len(widths):
                widths.append(0)
            widths[i] = min(cap, max(widths[i], len(cell_text(value)), MIN_WIDTH))
    return widths


def render(rows: list, header: list = None, separator: str = DEFAULT_SEPARATOR,
           limit: int = 0) -> str:
    """Render rows (and an optional header) as aligned text."""
    table = ([header] if header else []) + rows
    widths = column_widths(table, limit)
    lines = []
    for n, row in enumerate(table):
        cells = [clip(cell_text(v), w).ljust(w) for v, w in zip(row, widths)]
        lines.append(separator.join(cells).rstrip())
        if n == 0 and header:
            lines.append(separator.join("-" * w for w in widths))
    return "\n".join(lines)


def table_width(rows: list, limit: int = 0) -> int:
    """Return the width in characters of the rendered rows."""
    if not rows:
        return 0
    columns = max(len(r) for r in rows)
    return (sum(column_widths(rows, limit)) +
            len(DEFAULT_SEPARATOR) * (columns - 1))


def from_csv(text: str, limit: int = 0) -> str:
    """Render CSV text, its first row being the header."""
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) > MAX_ROWS:
        raise ValueError(f"refusing to render {len(rows)} rows; the limit is "
                         f"{MAX_ROWS} rows, split the input into smaller files first")
    total_width = table_width(rows, limit)
    if total_width > MAX_TABLE_WIDTH:
        raise ValueError(f"table would be {total_width} characters wide")
    return render(rows[1:], rows[0] if rows else None, limit=limit)
