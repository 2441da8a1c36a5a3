"""Time helpers of the job scheduler."""

import asyncio
import datetime
import logging

log = logging.getLogger(__name__)


def now_utc() -> datetime.datetime:
    """Return the current time in UTC."""
    return datetime.datetime.now(datetime.timezone.utc)


def from_epoch(seconds: float) -> datetime.datetime:
    """Convert a Unix timestamp to an aware UTC datetime."""
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def due_jobs(schedule: dict[str, float], at: float) -> list[str]:
    """Return the jobs whose next run time (epoch seconds) is at or before at."""
    late = [name for name, when in schedule.items() if when <= at]
    if len(late) > 10:
        log.warning("%d jobs are late", len(late))
    return sorted(late)


def split_interval(start: float, end: float, parts: int) -> list[tuple[float, float]]:
    """Split [start, end) into parts equal intervals."""
    step = (end - start) / parts
    return [(start + i * step, start + (i + 1) * step) for i in range(parts)]


async def _gather(coros):
    return await asyncio.gather(*coros)


def run_all(coros) -> list:
    """Run coroutines concurrently and return their results in order."""
    return asyncio.run(_gather(coros))
