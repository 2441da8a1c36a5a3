"""Archive generated reports into dated folders."""

import shutil
from pathlib import Path


def archive_dir(root, day: str) -> str:
    """Return the archive folder of a day (YYYY-MM-DD), creating it."""
    path = Path(root) / "archive" / day[:4] / day
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


def pending_reports(outbox) -> list:
    """Return the names of the .csv reports waiting in outbox, sorted."""
    return sorted(p.name for p in Path(outbox).glob("*.csv"))


def archive(outbox, root, day: str) -> list:
    """Move every pending report of outbox into the day's archive folder."""
    target = Path(archive_dir(root, day))
    moved = []
    for name in pending_reports(outbox):
        src = Path(outbox) / name
        dest = target / f"{src.stem}-{day}{src.suffix}"
        dest.unlink(missing_ok=True)
        shutil.move(src, dest)
        moved.append(dest.name)
    return moved


def archived_days(root) -> list:
    """Return the archived days, oldest first."""
    base = Path(root) / "archive"
    if not base.exists():
        return []
    days = []
    for year in sorted(base.iterdir()):
        days.extend(sorted(p.name for p in year.iterdir()))
    return days
