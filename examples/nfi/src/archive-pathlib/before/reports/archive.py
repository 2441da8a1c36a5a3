"""Archive generated reports into dated folders."""

import glob
import os
import shutil


def archive_dir(root, day: str) -> str:
    """Return the archive folder of a day (YYYY-MM-DD), creating it."""
    path = os.path.join(root, "archive", day[:4], day)
    if not os.path.isdir(path):
        os.makedirs(path)
    return path


def pending_reports(outbox) -> list:
    """Return the names of the .csv reports waiting in outbox, sorted."""
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(outbox, "*.csv")))


def archive(outbox, root, day: str) -> list:
    """Move every pending report of outbox into the day's archive folder."""
    target = archive_dir(root, day)
    moved = []
    for name in pending_reports(outbox):
        src = os.path.join(outbox, name)
        stem, ext = os.path.splitext(name)
        dest = os.path.join(target, f"{stem}-{day}{ext}")
        if os.path.exists(dest):
            os.remove(dest)
        shutil.move(src, dest)
        moved.append(os.path.basename(dest))
    return moved


def archived_days(root) -> list:
    """Return the archived days, oldest first."""
    days = []
    base = os.path.join(root, "archive")
    if not os.path.exists(base):
        return days
    for year in sorted(os.listdir(base)):
        days.extend(sorted(os.listdir(os.path.join(base, year))))
    return days
