"""Time helpers of the job scheduler."""

import asyncio
import datetime
import logging
from typing import Dict, List, Tuple

log = logging.getLogger(__name__)


def now_utc() -> datetime.datetime:
    """Return the current time in UTC."""
    return datetime.datetime.utcnow().replace(tzinfo=datetime.timezone.utc)


def from_epoch(seconds: float) -> datetime.datetime:
    """Convert a Unix timestamp to an aware UTC datetime."""
    return datetime.datetime.utcfromtimestamp(seconds).replace(tzinfo=datetime.timezone.utc)


def due_jobs(schedule: Dict[str, float], at: float) -> List[str]:
    """Return the jobs whose next run time (epoch seconds) is at or before at."""
    late = [name for name, when in schedule.items() if when <= at]
    if len(late) > 10:
        log.warn("%d jobs are late", len(late))
    return sorted(late)


def split_interval(start: float, end: float, parts: int) -> List[Tuple[float, float]]:
    """Split [start, end) into parts equal intervals."""
    step = (end - start) / parts
    return [(start + i * step, start + (i + 1) * step) for i in range(parts)]


async def _gather(coros):
    return await asyncio.gather(*coros)


def run_all(coros) -> list:
    """Run coroutines concurrently and return their results in order."""
    loop = asyncio.get_event_loop()
    return loop.run_until_complete(_gather(coros))
